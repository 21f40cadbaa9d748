"""Mermaid graphs of records and their typed links (rendered by Material).

The pages put the source in `<pre class="mermaid">`, as pymdownx.superfences
would. Node ids are generated (`n0`, `n1`, ...); labels go through `mermaid_label`,
so nothing a record says is read by Mermaid as syntax. Mermaid renders at
most 500 edges by default, so the whole-record graph falls back to a graph of
kinds when the record is large; every record page shows its own neighbourhood.
"""

from __future__ import annotations

from collections import Counter

from litrec.records.kinds import KIND, KINDS
from litrec.site.data import SiteData
from litrec.site.text import mermaid_label

NODE_LIMIT, EDGE_LIMIT = 120, 240  # the whole graph stays readable (and under Mermaid's caps)
NEIGHBOUR_LIMIT = 40



def _source(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def _label(data: SiteData, rid: str) -> str:
    rec = data.project.records[rid]
    title = getattr(rec, "title", None)
    return mermaid_label(f"{rid}: {title}" if title else rid)


# Room between ranks and nodes, so an edge's label sits clear of the nodes and of its
# neighbours' labels (Mermaid's defaults, 50 and 50, put labels on top of the boxes).
LAYOUT = '%%{init: {"flowchart": {"rankSpacing": 140, "nodeSpacing": 50, "padding": 12}}}%%'


def _graph(data: SiteData, nodes: list[str], edges: list[tuple[str, str, str]],
           page: str, focus: str | None = None) -> str:
    ids = {rid: f"n{i}" for i, rid in enumerate(nodes)}
    lines = [LAYOUT, "graph LR"]
    kinds: dict[str, list[str]] = {}
    for rid in nodes:
        lines.append(f'  {ids[rid]}["{_label(data, rid)}"]')
        kinds.setdefault(data.project.records[rid].kind, []).append(ids[rid])
    merged: dict[tuple[str, str], list[str]] = {}  # one arrow per pair, its links' labels joined
    for src, label, dst in edges:
        merged.setdefault((src, dst), []).append(label)
    for (src, dst), labels in merged.items():
        lines.append(f'  {ids[src]} -->|"{mermaid_label(", ".join(labels), 60)}"| {ids[dst]}')
    for rid in nodes:  # every node links to its record's page (Mermaid keeps relative URLs)
        if rid != focus:
            lines.append(f'  click {ids[rid]} href "{data.link(page, data.record_page(rid))}"')
    for kind, members in sorted(kinds.items()):
        lines.append(f"  classDef {kind} {KIND[kind].colour}")
        lines.append(f"  class {','.join(members)} {kind}")
    if focus is not None:
        lines.append(f"  style {ids[focus]} stroke-width:3px")
    return _source(lines)


def record_graph(data: SiteData, rid: str) -> tuple[str, int]:
    """The record, its links and backlinks; returns (Mermaid source, links left out)."""
    edges = list(data.out_edges.get(rid, ()))
    for group in data.project.incoming(rid).values():
        edges.extend(group)
    shown = edges[:NEIGHBOUR_LIMIT]
    nodes = [rid]
    for e in shown:
        for n in (e.source, e.target):
            if n not in nodes:
                nodes.append(n)
    return _graph(data, nodes, [(e.source, e.label, e.target) for e in shown],
                  data.record_page(rid), rid), \
        len(edges) - len(shown)


def whole_graph(data: SiteData) -> tuple[str, bool]:
    """Every record and link, or (for a large record) kinds and the links between them.

    Returns (Mermaid source, is_full).
    """
    proj = data.project
    if len(proj.records) <= NODE_LIMIT and len(proj.edges) <= EDGE_LIMIT:
        edges = [(e.source, e.label, e.target) for e in proj.edges]
        return _graph(data, sorted(proj.records), edges, "graph.md"), True
    kinds = Counter(r.kind for r in proj.records.values())
    links = Counter((proj.records[e.source].kind, e.rel, proj.records[e.target].kind)
                    for e in proj.edges)
    order = [k for k in KINDS if k in kinds]
    ids = {k: f"k{i}" for i, k in enumerate(order)}
    lines = [LAYOUT, "graph LR"]
    for k in order:
        lines.append(f'  {ids[k]}["{k} ({kinds[k]})"]')
        lines.append(f"  style {ids[k]} {KIND[k].colour}")
        target = "anthology/index.md" if k == "anthology" else "records/index.md"
        anchor = None if k == "anthology" else k
        lines.append(f'  click {ids[k]} href "{data.link("graph.md", target, anchor)}"')
    for (a, rel, b), n in sorted(links.items()):
        lines.append(f'  {ids[a]} -->|"{rel.replace("_", " ")} ({n})"| {ids[b]}')
    return _source(lines), False
