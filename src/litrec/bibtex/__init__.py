"""BibTeX both ways: `write` (entries from literature records), `read` (record data from
entries), `importing` (entries into the records folder); `citation` holds what they share."""

from __future__ import annotations

from litrec.util import lazy_face

# What this package offers the others, by module (types: __init__.pyi): import these from the
# package, not from the module behind it.
OFFERS: dict[str, tuple[str, ...]] = {
    "importing": ("import_file",),
    "write": ("BIBTEX_HEADER", "bibtex_entry", "export_bibtex"),
}
__all__, __getattr__ = lazy_face(__name__, OFFERS)
