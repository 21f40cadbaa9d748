"""Types of `litrec.site`'s face (`OFFERS` in `__init__.py`), for type checkers."""

from litrec.site.build import (
    build_site as build_site,
)
from litrec.site.mermaid import (
    Arrow as Arrow,
    Class as Class,
    flowchart as flowchart,
    Node as Node,
    record_label as record_label,
)
from litrec.site.serve import (
    serve_site as serve_site,
)

OFFERS: dict[str, tuple[str, ...]]
__all__: list[str]
