"""litrec: literature-linked analysis records.

Records are YAML files validated by pydantic schemas; claims name the analyses
that regenerate them; `litrec run` gives every claim a verdict; `litrec site
build` publishes the record as a MkDocs Material site.
"""

__version__ = "0.1.0"
