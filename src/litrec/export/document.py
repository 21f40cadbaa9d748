"""The record graph for other tools: one JSON document, or the link graph as DOT or Mermaid.

`litrec export json` writes `graph_document(...)`: every record (its data as
the kind's JSON Schema describes it), every link once with both its names,
each record's links both ways, its prose with each cited stored number rendered
(`rendered`, `litrec.verdicts.cited`), every claim with its verdict and the
provenance of the result behind it, and what the claims came to, each paper's
apart from the owner's own (`summary`, `litrec.verdicts.summary`). The shape is versioned
(`"format": "litrec-graph", "version": 1`) and documented in
site/export-format.md; a change that breaks a reader bumps the version.
The document is deterministic: the same records and results give the same
bytes, so it diffs well.

`litrec graph` prints records and typed links for Graphviz (`dot`) or Mermaid;
the Mermaid text is written by `litrec.util.mermaid.flowchart`, as the site's
drawings are, with labels cut at 40 characters.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from litrec import __version__
from litrec.records import model as m
from litrec.records.edges import Edge
from litrec.records.kinds import KIND
from litrec.records.project import Project
from litrec.util.diagnostics import format_field
from litrec.util.formatting import shorten
from litrec.util.mermaid import Arrow, Class, Node, flowchart, record_label
from litrec.verdicts.cited import StoredNumbers, rendered_fields
from litrec.verdicts.claims import EXTENSION, claim_statuses, project_scales, with_scales
from litrec.verdicts.summary import Count, Tally, tally_statuses, tally_words, verdict_counts

FORMAT, VERSION = "litrec-graph", 2  # 2: verdicts over seeds, unchecked claims, pre-registration


# ------------------------------------------------------------------ JSON


def _note(rec, edge: Edge) -> str | None:
    """The `note` beside a link, where its field has one (`links[i]`, `bibliography[i]`)."""
    obj: Any = rec
    for part in edge.loc[:-1]:
        obj = obj[part] if isinstance(part, int) else getattr(obj, part, None)
    return getattr(obj, "note", None)


def _link(proj: Project, e: Edge) -> dict:
    return {"source": e.source, "rel": e.rel, "inverse": e.inverse, "target": e.target,
            "claim": e.claim, "ref": e.ref, "field": format_field(e.loc),
            "note": _note(proj.records[e.source], e)}


def _clean(value: Any) -> Any:
    """JSON-safe: NaN and infinities (not JSON) become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def _extension_row(st) -> dict | None:
    """A claim's extension row (litrec's own expectations, judged beside it), or None."""
    if st is None:
        return None
    return {"ref": st.claim, "verdict": st.verdict, "verdicts": st.verdicts, "reason": st.reason,
            "expect": st.expected, "expectation_changed": st.expectation_changed,
            "post_hoc": st.post_hoc, "how": st.how, "events": st.events,
            "outcomes": [o.__dict__ for o in st.outcomes]}


def graph_document(proj: Project, results_dir: Path, profile: str,
                   judged: list | None = None) -> dict:
    """The whole record graph as plain JSON data (see site/export-format.md); `judged`: the
    claims' statuses at `profile` with their other scales, where the caller has them."""
    if judged is None:
        judged = with_scales(proj, results_dir, claim_statuses(proj, results_dir, profile), profile)
    statuses = {s.claim: s for s in judged}
    links = [_link(proj, e) for e in proj.edges]
    out_of: dict[str, list[dict]] = {rid: [] for rid in proj.records}
    into: dict[str, list[dict]] = {rid: [] for rid in proj.records}
    for ln in links:
        out_of[ln["source"]].append({"rel": ln["rel"], "target": ln["ref"], "note": ln["note"]})
        into[ln["target"]].append({"rel": ln["inverse"], "source": ln["source"], "claim": ln["claim"],
                                   "note": ln["note"]})
    from litrec.verdicts.suspect import link_reviews

    reviews: dict[str, list[dict]] = {rid: [] for rid in proj.records}
    for r in link_reviews(proj, results_dir):
        reviews[r.record].append(r.to_json())
    numbers = StoredNumbers(results_dir, proj.registry)
    records = []
    for rid in sorted(proj.records):
        rec = proj.records[rid]
        records.append({
            "id": rid,
            "kind": rec.kind,
            "title": rec.title,
            "path": proj.paths[rid].relative_to(proj.records_dir).as_posix(),
            "claims": [f"{rid}#{c.id}" for c in getattr(rec, "claims", []) or []],
            "links_out": out_of[rid],
            "links_in": into[rid],
            "reviews": reviews[rid],
            "suspect": any(r["state"] == "suspect" for r in reviews[rid]),
            "data": rec.model_dump(mode="json"),
            "rendered": rendered_fields(rec, numbers),
        })
    claims = []
    for rec, c in proj.claims():
        ref = f"{rec.id}#{c.id}"
        st = statuses.get(ref)
        check = c.check
        claims.append({
            "ref": ref,
            "record": rec.id,
            "id": c.id,
            "kind": c.kind,
            "title": c.title,
            "statement": c.statement,
            "where": c.where.describe() if c.where else None,
            "analysis": check.analysis if check else None,
            "expect": [e.describe() for e in check.expect] if check else [],
            "verdict": st.verdict if st else None,
            "verdicts": st.verdicts if st else {scale: None for scale in project_scales(proj)},
            "reason": st.reason if st else None,
            "seeds": st.seeds if st else None,
            "expectation_changed": st.expectation_changed if st else False,
            "stored_expectations": st.stored_expectations if st else None,
            "stored_verdict": st.stored_verdict if st else None,
            "new_verdict": st.new_verdict if st else None,
            "stored_outcomes": [o.__dict__ for o in st.stored_outcomes] if st else [],
            "outcomes": [o.__dict__ for o in st.outcomes] if st else [],
            "rests_on_it": st.rests_on_it if st else [],
            "post_hoc": st.post_hoc if st else [],
            "how": st.how if st else None,
            "events": st.events if st else [],
            "through": st.through if st else None,
            "seeds_after_looking": st.seeds_after_looking if st else False,
            "extension": _extension_row(statuses.get(ref + EXTENSION)),
            "links_in": [{"rel": e.inverse, "source": e.source, "note": _note(proj.records[e.source], e)}
                         for e in proj.edges if e.target == rec.id and e.claim == c.id],
            "result": st.result if st else None,
            "provenance": st.provenance if st else {},
        })
    return _clean({
        "format": FORMAT,
        "version": VERSION,
        "litrec": __version__,
        "profile": profile,
        "scales": list(project_scales(proj)),
        "relations": {r.name: {"inverse": r.inverse, "sources": sorted(r.sources),
                               "targets": sorted(r.targets), "claims": r.claims,
                               "acyclic": r.acyclic, "description": r.description}
                      for r in m.RELATIONS.values()},
        "records": records,
        "links": links,
        "claims": claims,
        "summary": claims_summary(proj, judged),
    })


def _count_json(count) -> dict:
    return {"claims": count.n, "verdicts": verdict_counts(count.claims),
            "extensions": count.n_extensions, "extension_verdicts": verdict_counts(count.extensions)}


def claims_summary(proj: Project, judged: list) -> dict:
    """What the claims came to at the profile (`litrec.verdicts.summary`): the papers' claims
    together, the owner's own (a note's, a theory's, ...), and each paper's apart, with its
    title; each as how many claims, their verdicts, and their extension rows beside them."""
    got = tally_statuses(judged)
    return {"papers": _count_json(got.all_papers), "own": _count_json(got.own),
            "by_paper": [{"paper": rid, "title": proj.records[rid].title, **_count_json(count)}
                         for rid, count in got.papers.items()]}


@dataclass(frozen=True)
class GraphExport:
    """`litrec export json`'s document, with what the command says of it."""

    doc: dict
    errors: list[str] = field(default_factory=list)  # what `litrec status` exits 1 for

    @property
    def text(self) -> str:
        """The document as written: indented JSON, one final newline."""
        return json.dumps(self.doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"

    def summary(self) -> str:
        """`4 records, 3 links; 1 claim of ARXIV-2212.07677: 1 reproduced; 1 claim of your own:
        1 not reproduced (profile paper)`: each paper's claims apart from the owner's, as
        `litrec status` counts them (`litrec.verdicts.summary`)."""
        doc = self.doc

        def count(group: dict) -> Count:
            return Count(Counter(group["verdicts"]), Counter(group["extension_verdicts"]))

        got = Tally({g["paper"]: count(g) for g in doc["summary"]["by_paper"]},
                    count(doc["summary"]["own"]))
        return (f"{len(doc['records'])} records, {len(doc['links'])} links; "
                f"{tally_words(got)} (profile {doc['profile']})")


def graph_export(records: Path, analysis: Path | None, results_dir: Path,
                 profile: str, require_signed: bool = False) -> GraphExport:
    """`litrec export json` below the command: the valid project's graph, judged at `profile`,
    with what `litrec status` would exit 1 for (`Status.refusals`: a damaged result, one that
    cannot be judged, a bad signature), a located line each, in status's words."""
    from litrec.verdicts.status import status

    found = status(records, analysis, results_dir, profile, require_signed)  # the project loaded once
    return GraphExport(graph_document(found.project, results_dir, profile, found.statuses),
                       found.refusals)


# ------------------------------------------------------------------ graph


def _styles() -> dict[str, dict[str, str]]:
    return {name: dict(part.split(":", 1) for part in kind.colour.split(","))
            for name, kind in KIND.items()}


def _dot_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


LABEL_LIMIT = 40  # a terminal's graph: each label cut to this many characters


def to_dot(proj: Project) -> str:
    """Records and links as a Graphviz digraph, coloured by kind."""
    styles = _styles()
    lines = ["digraph litrec {", "  rankdir=LR;",
             '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=9];']
    for rid in sorted(proj.records):
        rec = proj.records[rid]
        label = f"{rid}\n{shorten(rec.title, LABEL_LIMIT)}" if rec.title else rid
        st = styles[rec.kind]
        lines.append(f"  {_dot_str(rid)} [label={_dot_str(label)}, tooltip={_dot_str(rec.kind)}, "
                     f'fillcolor="{st["fill"]}", color="{st["stroke"]}", fontcolor="{st["color"]}"];')
    for e in proj.edges:
        lines.append(f"  {_dot_str(e.source)} -> {_dot_str(e.target)} [label={_dot_str(e.label)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_mermaid(proj: Project) -> str:
    """Records and links as a Mermaid graph, coloured by kind."""
    kinds: dict[str, list[str]] = {}
    for rid in sorted(proj.records):
        kinds.setdefault(proj.records[rid].kind, []).append(rid)
    return flowchart([Node(rid, record_label(rid, proj.records[rid].title)) for rid in sorted(proj.records)],
                     [Arrow(e.source, e.target, e.label) for e in proj.edges],
                     classes=[Class(kind, KIND[kind].colour, members) for kind, members in sorted(kinds.items())],
                     limit=LABEL_LIMIT)


def to_json(proj: Project) -> str:
    """Records and links as JSON nodes and edges."""
    nodes = [{"id": rid, "kind": proj.records[rid].kind, "title": proj.records[rid].title}
             for rid in sorted(proj.records)]
    edges = [{"source": e.source, "rel": e.rel, "target": e.target, "claim": e.claim}
             for e in proj.edges]
    return json.dumps({"nodes": nodes, "edges": edges}, indent=2, ensure_ascii=False) + "\n"


class Drawn(NamedTuple):
    """`litrec graph`'s text, and how many records and links it draws."""

    text: str
    records: int
    links: int


def draw_graph(records: Path, analysis: Path | None, fmt: str) -> Drawn:
    """`litrec graph` below the command: the valid project's records and links as `fmt`
    (dot, mermaid or json)."""
    from litrec.records.load import load_valid_project

    proj = load_valid_project(records, analysis)
    render = {"dot": to_dot, "mermaid": to_mermaid, "json": to_json}[fmt]
    return Drawn(GRAPH_HEADERS.get(fmt, "") + render(proj), len(proj.records), len(proj.edges))


# The first line of `litrec graph`'s text, a comment in each language (JSON has none: its shape
# tells it), so `--out` replaces only a file litrec wrote
GRAPH_HEADERS = {
    "dot": "// Written by `litrec graph`: every record and typed link; regenerate it, do not edit it.\n",
    "mermaid": "%% Written by `litrec graph --format mermaid`: every record and typed link; regenerate "
               "it, do not edit it.\n",
}
