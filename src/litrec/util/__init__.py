"""Small shared pieces: atomic writes, a lock file, confined reads, safe text, errors and diagnostics,
canonical JSON, usable cores, YAML located, the witnessed record read, pydantic's errors taught.

Every package's `__init__` is its docstring alone: import a name from the module that defines
it (`from litrec.util.atomic import replace_file`)."""
