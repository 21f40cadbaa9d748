"""The project for other tools: `document` (the record graph as one JSON document, and the link
graph as DOT or Mermaid: `litrec export json`, `litrec graph`) and `tex` (claims' verdicts and
numbers as LaTeX macros: `litrec export tex`)."""

from __future__ import annotations

from litrec.util import lazy_face

# What this package offers the others, by module (types: __init__.pyi): import these from the
# package, not from the module behind it.
OFFERS: dict[str, tuple[str, ...]] = {
    "document": ("GRAPH_HEADERS", "draw_graph", "graph_document", "graph_export", "to_mermaid"),
    "tex": ("TEX_MARK", "tex_export"),
}
__all__, __getattr__ = lazy_face(__name__, OFFERS)
