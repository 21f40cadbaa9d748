"""Types of `litrec.bibtex`'s face (`OFFERS` in `__init__.py`), for type checkers."""

from litrec.bibtex.importing import (
    import_file as import_file,
)
from litrec.bibtex.write import (
    BIBTEX_HEADER as BIBTEX_HEADER,
    bibtex_entry as bibtex_entry,
    export_bibtex as export_bibtex,
)

OFFERS: dict[str, tuple[str, ...]]
__all__: list[str]
