"""Small shared pieces: atomic writes, a lock file, confined reads, safe text, errors and diagnostics,
canonical JSON, usable cores, YAML located, the witnessed record read, pydantic's errors taught, and the package faces
(`faces.lazy_face`) every package's `__init__` is made of."""

from __future__ import annotations

from litrec.util.faces import lazy_face

# What this package offers the others, by module (types: __init__.pyi): import these from the
# package, not from the module behind it.
OFFERS: dict[str, tuple[str, ...]] = {
    "atomic": ("fresh_dir", "fresh_name", "leftovers", "replace_file", "rewrite_file", "sync_dir", "write_new"),
    "canonical": ("canonical_digest", "canonical_json"),
    "confine": ("check", "MAX_RECORD_BYTES", "need_dir", "project_root", "prune_linked", "read_file",
                "read_regular", "Refused", "TooLarge", "walk"),
    "cores": ("usable_cores",),
    "faces": ("lazy_face",),
    "diagnostics": ("Diagnostic", "format_field", "PathDisplay", "Severity"),
    "errors": ("AnalysisExited", "ContractError", "DamagedResult", "EncodingProblem", "ExecutorError", "InputError",
               "InputsChanged", "InvalidRecords", "LitrecError", "NotCreated", "ProfileError", "ResultsLocked",
               "ResultsUnwritable", "RunError", "SiteError", "SweepError", "TargetError", "Unconvertible",
               "UndeclaredInput", "UsageError"),
    "formatting": ("excerpt", "fmt", "shorten"),
    "lockfile": ("acquire", "release"),
    "gitinfo": ("commit_of", "head_of", "held_by_git", "refs_of"),
    "pagenames": ("GENERATED_PAGE_NAMES",),
    "mend": ("data_loc", "explain_error", "found", "syntax_fix"),
    "signers": ("allowed_signers", "config_path", "git_config", "signers_key"),
    "safetext": ("raw_stream", "safe_streams", "safe_text", "strip_unsafe"),
    "settled": ("file_unchanged", "read_record"),
    "tables": ("csv_text", "markdown_table", "terminal_table"),
    "yamlsafe": ("LazyRoot", "load_bytes", "locate", "MAX_BYTES", "YamlProblem"),
}
__all__, __getattr__ = lazy_face(__name__, OFFERS)
