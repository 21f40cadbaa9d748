"""Mermaid graphs of records and their typed links (rendered by Material).

The pages put the source in `<pre class="mermaid">`, as pymdownx.superfences
would; the text is written by `litrec.util.mermaid.flowchart` (generated node ids,
escaped labels), as `litrec graph --format mermaid`'s is. Labels are whole (Mermaid
wraps them). A record's kind is its shape and outline, the verdict of its claims its fill;
each link is an arrow of its own with its own label; `legend` says all of that in
HTML beside the drawing. Mermaid renders at
most 500 edges by default, so the whole-record graph falls back to a graph of
kinds when the record is large; every record page shows its own neighbourhood.
"""

from __future__ import annotations

from collections import Counter

from litrec.records.kinds import KIND, KINDS
from litrec.records.model import RELATIONS
from litrec.site.claim_pieces import rel_text, verdict_of, worst
from litrec.site.pagedata import SiteData
from litrec.site.stored_html import code, esc, p, span
from litrec.util.mermaid import Arrow, Class, Click, Node, flowchart, record_label
from litrec.verdicts.words import word

NODE_LIMIT, EDGE_LIMIT = 120, 240  # the whole graph stays readable (and under Mermaid's caps)
NEIGHBOUR_LIMIT = 40


# Room between ranks and nodes, so an edge's label sits clear of the nodes (Mermaid's
# defaults, 50 and 50, put labels on top of the boxes). The curve is named: with Mermaid's
# default (`basis`) a label is moved to the middle of its drawn curve, where the labels of
# parallel links ("keeps P1", "keeps F1") meet; with any named curve it stays where the layout
# (dagre) placed it, as a box of its own at least 20 px from every other.
LAYOUT = ('%%{init: {"flowchart": {"rankSpacing": 140, "nodeSpacing": 50, "padding": 12, '
          '"curve": "monotoneX"}}}%%')

# A kind is drawn as a shape (the kinds in their table's order take these in turn) with its
# table colour as the outline and text; the fill is the verdict of the record's claims.
SHAPES = (("rectangle", '["{}"]'), ("rounded box", '("{}")'), ("stadium", '(["{}"])'),
          ("box with side bars", '[["{}"]]'), ("hexagon", '{{{{"{}"}}}}'),
          ("slanted box", '[/"{}"/]'))

# A node's fill by the worst verdict of its claims (`litrec.site.claim_pieces.worst`), in four tones
# the badges use too: holds, fails, unsettled or behind, not judged; a record without claims
# stays white.
TONES = (("holds", "#d9f2e1", ("reproduced",)),
         ("fails", "#fbdada", ("not reproduced", "error", "modified")),
         ("unsettled or behind", "#fdebc8", ("inconclusive", "stale", "expectation changed")),
         ("not judged", "#e5e7eb", ("missing", "unchecked")))
NO_CLAIMS = "#ffffff"


def kind_shape(kind: str) -> tuple[str, str]:
    """(name, Mermaid node syntax with `{}` for the label) of a kind's shape."""
    i = KINDS.index(kind) if kind in KINDS else len(KINDS)
    return SHAPES[i % len(SHAPES)]


def kind_outline(kind: str) -> str:
    """A kind's Mermaid style without its fill (the outline and the text colour)."""
    parts = [x for x in KIND[kind].colour.split(",") if not x.startswith("fill:")]
    return ",".join(parts + ["stroke-width:2px"])


def node_verdict(data: SiteData, rid: str) -> str | None:
    """The worst verdict of a record's own claims at the site's profile (None: no claims)."""
    rec = data.project.records[rid]
    return worst(verdict_of(data, f"{rid}#{c.id}") for c in getattr(rec, "claims", None) or [])


def tone_of(verdict: str | None) -> tuple[str, str]:
    """(tone name, fill colour) of a verdict; a record without claims is white."""
    for name, fill, verdicts in TONES:
        if verdict in verdicts:
            return name, fill
    return "no claims", NO_CLAIMS


def _graph(data: SiteData, nodes: list[str], edges: list[tuple[str, str, str]],
           page: str, focus: str | None = None) -> str:
    recs = data.project.records
    kinds: dict[str, list[str]] = {}
    tones: dict[str, list[str]] = {}
    for rid in nodes:
        kinds.setdefault(recs[rid].kind, []).append(rid)
        tones.setdefault(tone_of(node_verdict(data, rid))[1], []).append(rid)
    return flowchart(
        # a node's whole label, its id and title (Mermaid wraps it; nothing is cut)
        [Node(rid, record_label(rid, getattr(recs[rid], "title", None)), kind_shape(recs[rid].kind)[1])
         for rid in nodes],
        [Arrow(src, dst, label) for src, label, dst in edges],  # one arrow per link, its own label
        # every node links to its record's page (Mermaid keeps relative URLs)
        clicks=[Click(rid, data.link(page, data.record_page(rid)), _tooltip(data, rid))
                for rid in nodes if rid != focus],
        classes=[Class(kind, kind_outline(kind), members) for kind, members in sorted(kinds.items())]
        + [Class(f"tone{i}", f"fill:{fill}", members)
           for i, (fill, members) in enumerate(sorted(tones.items()))],
        styles=[(focus, "stroke-width:4px")] if focus is not None else [],
        init=LAYOUT)


def _tooltip(data: SiteData, rid: str) -> str:
    """What hovering a node says: its kind and its claims' verdict, in plain words only."""
    kind = data.project.records[rid].kind
    verdict = node_verdict(data, rid)
    return f"{kind}, " + (f"claims: {word(verdict)}" if verdict else "no claims")


def legend(data: SiteData, rids, rels, nodes: bool = True, focus: str | None = None) -> str:
    """What a drawing's shapes, fills and arrows mean, as HTML, the one legend of every graph:
    the kind of each record drawn (`rids`) with its shape and outline, each verdict tone with
    its fill, each relation drawn (`rels`) with what it says; `focus`, the record whose page
    it is, drawn with a thick outline (`nodes` False: the arrows only, for the graph of kinds)."""
    drawn = {data.project.records[r].kind for r in rids}
    kinds = [k for k in KINDS if k in drawn]
    shapes = [f'{_swatch(kind_shape(k)[0], "#ffffff", _stroke(k))} {esc(KIND[k].label)} '
              + span("lr-reason", f"({esc(kind_shape(k)[0])})") for k in kinds]
    fills = [f'{_swatch("rectangle", fill, "#6b7280")} {esc(name)} '
             + span("lr-reason", "(" + ", ".join(esc(word(v)) for v in verdicts) + ")")
             for name, fill, verdicts in TONES]
    fills.append(f'{_swatch("rectangle", NO_CLAIMS, "#6b7280")} no claims')
    arrows = [f"{code(rel_text(r))} " + span("lr-reason", esc(RELATIONS[r].description))
              for r in sorted(set(rels)) if r in RELATIONS]
    here = (f" The thick outline is this record, {esc(focus)}." if focus is not None else "")
    if not nodes:
        return ('<div class="lr-legend">' + p("<strong>Arrows</strong>: the links between kinds, "
                                               "by relation. " + " · ".join(arrows)) + "</div>\n")
    return ('<div class="lr-legend">'
            + p("<strong>Shape and outline</strong>: the kind of record. " + " · ".join(shapes)
                + here)
            + p("<strong>Fill</strong>: the worst verdict of the record's own claims at "
                f"{code(data.profile)}. " + " · ".join(fills))
            + p("<strong>Arrows</strong>: one per link, from the record that writes it, named "
                "by its relation (and the claim it names). " + " · ".join(arrows))
            + "</div>\n")


def _stroke(kind: str) -> str:
    return next((x.split(":", 1)[1] for x in KIND[kind].colour.split(",")
                 if x.startswith("stroke:")), "#6b7280")


def _swatch(shape: str, fill: str, stroke: str) -> str:
    """A small inline SVG of a node's shape, filled and outlined as in the graph."""
    w, h = 28, 14
    body = {
        "rounded box": f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="4"/>',
        "stadium": f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="6"/>',
        "box with side bars": (f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}"/>'
                               f'<path d="M5 1V{h - 1}M{w - 5} 1V{h - 1}"/>'),
        "hexagon": f'<polygon points="5,1 {w - 5},1 {w - 1},7 {w - 5},{h - 1} 5,{h - 1} 1,7"/>',
        "slanted box": f'<polygon points="5,1 {w - 1},1 {w - 5},{h - 1} 1,{h - 1}"/>',
    }.get(shape, f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}"/>')
    return (f'<svg class="lr-swatch" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
            f'aria-hidden="true"><g fill="{esc(fill)}" stroke="{esc(stroke)}" '
            f'stroke-width="1.5">{body}</g></svg>')


def record_graph(data: SiteData, rid: str) -> tuple[str, int, str]:
    """The record, its links and backlinks; returns (Mermaid source, links left out, the
    drawing's legend)."""
    edges = list(data.out_edges.get(rid, ()))
    for group in data.project.incoming(rid).values():
        edges.extend(group)
    shown = edges[:NEIGHBOUR_LIMIT]
    nodes = [rid]
    for e in shown:
        for n in (e.source, e.target):
            if n not in nodes:
                nodes.append(n)
    return (_graph(data, nodes, [(e.source, e.label, e.target) for e in shown],
                   data.record_page(rid), rid),
            len(edges) - len(shown), legend(data, nodes, [e.rel for e in shown], focus=rid))


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
    return flowchart(
        [Node(k, f"{k} ({kinds[k]})") for k in order],
        [Arrow(a, b, f'{rel.replace("_", " ")} ({n})') for (a, rel, b), n in sorted(links.items())],
        clicks=[Click(k, data.link("graph.md", "anthology/index.md") if k == "anthology"
                      else data.link("graph.md", "records/index.md", k)) for k in order],
        styles=[(k, KIND[k].colour) for k in order],
        init=LAYOUT), False
