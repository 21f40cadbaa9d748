"""The site's graph page: every record and typed link, drawn with its legend."""

from __future__ import annotations

from litrec.site.graph import legend, whole_graph
from litrec.site.index_pages import WIDE
from litrec.site.pagedata import SiteData
from litrec.site.stored_html import block, p, pre


def graph_page(data: SiteData) -> str:
    """The whole link graph (or a graph of kinds, when large)."""
    graph, full = whole_graph(data)
    n, m = len(data.project.records), len(data.project.edges)
    if full:
        text = (f"All {n} records and their {m} typed links; each arrow is a link as written on "
                "its source record. Each record's page draws its own neighbourhood.")
    else:
        text = (f"The record has {n} records and {m} typed links: too many to draw at once, so "
                "this graph shows the kinds of record and how many links of each relation join "
                "them. Each record's page draws its own neighbourhood.")
    rels = [e.rel for e in data.project.edges]
    return WIDE + "# Graph\n" + block(p(text + " Hover over a box for its kind and verdict; "
                                         "click it for its page."),
                                       legend(data, data.project.records, rels, nodes=full),
                                       pre(graph, "mermaid", searchable=False))
