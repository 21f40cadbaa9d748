"""Types of `litrec.export`'s face (`OFFERS` in `__init__.py`), for type checkers."""

from litrec.export.document import (
    GRAPH_HEADERS as GRAPH_HEADERS,
    draw_graph as draw_graph,
    graph_document as graph_document,
    graph_export as graph_export,
    to_mermaid as to_mermaid,
)
from litrec.export.tex import (
    TEX_MARK as TEX_MARK,
    tex_export as tex_export,
)

OFFERS: dict[str, tuple[str, ...]]
__all__: list[str]
