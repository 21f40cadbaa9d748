"""The record collection: schemas, parsing, the checks of one file and of the whole."""

from __future__ import annotations

from litrec.util import lazy_face

# What this package offers the others, by module (types: __init__.pyi): import these from the
# package, not from the module behind it.
OFFERS: dict[str, tuple[str, ...]] = {
    "braces": ("bibtex_unbalanced", "brace_parts", "Unbalanced"),
    "criteria": ("base_claim", "criterion", "EXTENSION"),
    "expectation": ("Expectation",),
    "filecheck": ("reading_of",),
    "kinds": ("ID_RE", "KIND", "KINDS", "page_of"),
    "load": ("load_project", "load_valid_project"),
    "model": ("RELATIONS",),
    "newrecord": ("display", "existing_ids", "new_record", "record_path", "schema_comment", "today", "write_new",
                  "write_replace", "yaml_scalar"),
    "operators": ("COMPARISONS", "Comparison", "OPERATORS", "Operator", "operator"),
    "placeholders": ("prose_fields", "scan_placeholders"),
    "project": ("Edge", "Project"),
    "schema": ("write_schemas",),
    "upgrade": ("upgrade_records",),
    "validate": ("check_collection", "default_analysis_dir"),
}
__all__, __getattr__ = lazy_face(__name__, OFFERS)
