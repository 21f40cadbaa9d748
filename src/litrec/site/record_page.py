"""One generated page per record: its fields for a reader, claims with verdicts, links, graph.

Headings and record prose are Markdown (escaped by `safe_markdown`); everything else is
stored HTML (escaped by `stored_html`), see `stored_html`. A placeholder of a stored number in
prose is replaced by the number before it is escaped (`SiteData.cited`).
"""

from __future__ import annotations

import html
import json
import os
import re
from urllib.parse import quote

from litrec.bibtex.write import bibtex_entry
from litrec.records.kinds import KIND
from litrec.site.claim_history import history
from litrec.site.claim_pieces import (
    analysis_link,
    badge,
    links_list,
    outcome_plot,
    outcome_table,
    provenance,
    ref_link,
    scale_verdicts,
    stored_outcomes,
)
from litrec.site.graph import record_graph
from litrec.site.pagedata import SiteData, anchor, result_metric
from litrec.site.safe_markdown import inline, prose
from litrec.site.stored_html import (
    a,
    admonition,
    block,
    code,
    details,
    esc,
    linked,
    p,
    pre,
    span,
    table,
    ul,
)
from litrec.util.formatting import fmt
from litrec.util.safetext import clean
from litrec.verdicts.claims import EXTENSION


def record_page(data: SiteData, rid: str) -> str:
    """The page of one record: meta, prose, claims, links both ways, graph."""
    rec = data.project.records[rid]
    page = data.record_page(rid)
    resolve = data.resolver(page)
    # The browser title comes from front matter, HTML-escaped: MkDocs would take it from the
    # heading and Material unescapes it into <title>, where "</title><script>" would break out.
    text = clean(rec.title) if rec.title else rid
    # The heading names the id too: the search ranks a page first by its heading's words.
    heading = f"{inline(rid)} · {inline(text)}" if rec.title else inline(rid)
    out: list[str] = [f"---\ntitle: {json.dumps(html.escape(' '.join(text.split())))}\n"
                      "hide:\n  - navigation\n---\n", f"# {heading}\n"]
    meta = [span("lr-kind", esc(rec.kind))]
    field = KIND[rec.kind].status_field
    if field and getattr(rec, field):
        meta.append(badge(getattr(rec, field), "s"))
    if rec.partial:
        meta.append(badge("partial", "s"))
    if data.suspects.get(rid):
        meta.append(badge("suspect", "s"))
    meta += [span("lr-tag", esc(tag)) for tag in rec.tags]
    head = p(" ".join(meta), "lr-meta") + _suspect(data, rid)
    if rec.partial:
        named = f" Named in: {linked(rec.known_from, data.href_resolver(page))}." if rec.known_from else ""
        head += admonition("Known by reference only", p(
            "This record holds what its source says of it; the content is held elsewhere." + named))
    if getattr(rec, "date", None):
        head += p(f"<strong>Date</strong>: {esc(rec.date.isoformat())}")
    if getattr(rec, "read_for", None):
        head += p(f"<strong>Read for</strong>: {esc(rec.read_for)}")
    out.append(block(head))
    if rec.kind == "literature":
        out.append(_citation(data, rec, page))
    if rec.summary:
        out.append(prose(data.cited(rec.summary), resolve, 3))
    if getattr(rec, "question", None):
        out.append("**The question this record asks.** " + prose(data.cited(rec.question), resolve, 3))
    if rec.kind == "decision":
        for name in ("context", "decision", "consequences"):
            if getattr(rec, name):
                out.append(f"## {name.capitalize()}\n\n"
                           + prose(data.cited(getattr(rec, name)), resolve, 3))
    if rec.body:
        out.append(prose(data.cited(rec.body), resolve, 2))
    if rec.kind == "work" and rec.bibliography:
        out.append("## Bibliography\n" + block(table(["Entry", "Status", "Note"], (
            [ref_link(data, page, b.ref), badge(b.status, "s"), esc(data.cited(b.note) or "")]
            for b in rec.bibliography))))
    claims = getattr(rec, "claims", []) or []
    if claims:
        out.append("## Claims\n")
        out.extend(_claim(data, rec, c, page) for c in claims)
    if getattr(rec, "discrepancies", None):
        out.append(_discrepancies(data, rec, page))
    out.append(_links(data, rec, page))
    graph, left, key = record_graph(data, rid)
    note = p(f"<em>{left} more links are listed above, not drawn.</em>") if left else ""
    shown = os.path.relpath(data.project.paths[rid], data.project.records_dir.parent)
    out.append("## Graph\n" + block(key, pre(graph, "mermaid", searchable=False), note,
                                   p(f"Source: {code(shown)}", "lr-source")))
    return "\n".join(out)


def _citation(data: SiteData, rec, page: str) -> str:
    parts = []
    if rec.authors:
        parts.append(esc(", ".join(rec.authors)) + ".")
    if rec.title:
        parts.append(f"<em>{esc(rec.title)}</em>.")
    venue = ", ".join(esc(v) for v in (rec.venue, rec.volume and f"vol. {rec.volume}",
                                       rec.number and f"no. {rec.number}",
                                       rec.pages and f"pp. {rec.pages}", rec.publisher) if v)
    if venue:
        parts.append(venue + ".")
    # the year once: a DBLP booktitle ends in its dates ("..., November 28 - December 9, 2022")
    if rec.year and not re.search(rf"\b{rec.year}\W*$", html.unescape(venue)):
        parts.append(f"{rec.year}.")
    ids = []
    if rec.arxiv:
        ids.append("arXiv: " + a(f"https://arxiv.org/abs/{quote(rec.arxiv)}", esc(rec.arxiv)))
    if rec.doi:
        ids.append("DOI: " + a(f"https://doi.org/{quote(rec.doi, safe='/:._-~()')}", esc(rec.doi)))
    if rec.url:
        ids.append(_external(rec.url, "link"))
    if rec.code:
        ids.append("official code: " + (_external(rec.code, rec.code) if "://" in rec.code
                                        else esc(rec.code)))
    entry = bibtex_entry(rec)
    ticks = "`" * max(3, max((len(m) for m in re.findall(r"`+", entry)), default=0) + 1)
    out = "## Citation\n" + block(p(" ".join(parts)), p(" · ".join(ids)) if ids else "")
    out += f'\n{ticks} bibtex title="BibTeX"\n{entry}\n{ticks}\n'
    if rec.filed:
        f = rec.filed
        line = f"<strong>Filed</strong> on {esc(f.date.isoformat())}"
        if f.requested_by:
            line += f" at the request of {esc(f.requested_by)}"
        if f.from_work:
            line += f", from the bibliography of {ref_link(data, page, f.from_work)}"
        out += block(p(line + "."))
    return out


def _external(url: str, text: str) -> str:
    """A link to an http(s) address; anything else is shown as text."""
    if re.match(r"^https?://[^\s<>\"]+$", url):
        return a(url, esc(text))
    return esc(url)


def _claim(data: SiteData, rec, c, page: str) -> str:
    ref = f"{rec.id}#{c.id}"
    out = [f"### {inline(c.id)} · {inline(c.title)} {{ #{anchor(c.id)} }}\n"]
    meta = [scale_verdicts(data, ref), esc(c.kind)]
    if data.suspects.get(ref):
        meta.insert(1, badge("suspect", "s"))
    if c.where and c.where.describe():
        meta.append(esc(c.where.describe()))
    if c.check:
        meta.append("checked by " + analysis_link(data, page, c.check.analysis))
    out.append(block(p(" · ".join(meta), "lr-meta") + _suspect(data, ref)))
    out.append(prose(data.cited(c.statement), data.resolver(page), 4))
    st = data.statuses.get(ref)
    parts = []
    if not c.check:  # the badge says `unchecked`, as the command line does; the reason says why
        parts.append(p("no analysis yet: the claim names none (check.analysis)", "lr-reason"))
    if c.check:
        if st is not None and st.reason and st.verdict != "reproduced":
            parts.append(p(esc(st.reason), "lr-reason"))
        if st is not None and st.rests_on_it:
            parts.append(p("<strong>Rests on it:</strong> "
                           + ", ".join(ref_link(data, page, r) for r in st.rests_on_it)))
        parts.append(stored_outcomes(st))
        parts.append(outcome_table(data, ref, c, page))
        parts.append(outcome_plot(data, ref, c))
        parts.append(_extension(data, ref, c, page))
        for name, path in data.figures(c.check.analysis):
            parts.append(p(f'<img src="{esc(data.link(page, path))}" alt="{esc(name)}" '
                           'class="lr-figure" loading="lazy">'))
        parts.append(history(data, ref, c.check.analysis))
        if st is not None and st.provenance:
            parts.append(details("Provenance", provenance(st.provenance)))
    backs = {inv: [e for e in es if e.claim == c.id]
             for inv, es in data.project.incoming(rec.id).items()}
    backs = {k: v for k, v in backs.items() if v}
    if backs:
        parts.append(links_list(data, page, backs, incoming=True, claim_targets=False))
    out.append(block(*parts))
    return "\n".join(out)


def _suspect(data: SiteData, key: str) -> str:
    """Why a record or claim is suspect (a link into or out of it moved since it was last
    reviewed, `litrec.verdicts.suspect.suspects`), a line per link; empty when it is not."""
    why = data.suspects.get(key)
    if not why:
        return ""
    return admonition("Suspect: a link moved since it was last reviewed",
                      ul(re.sub(r"`([^`<]+)`", r"<code>\1</code>", esc(w)) for w in why),
                      "warning")


def _extension(data: SiteData, ref: str, c, page: str) -> str:
    """A claim's extension row: litrec's own expectations, judged beside the claim, with a verdict
    of their own that never enters the claim's."""
    st = data.statuses.get(ref + EXTENSION)
    if st is None:
        return ""
    head = (f"<strong>litrec's extensions</strong> ({code(ref + EXTENSION)}): "
            + scale_verdicts(data, ref + EXTENSION)
            + " · tests litrec adds to what the paper states, judged beside the claim; "
            "their verdict never changes the claim's")
    parts = [p(head, "lr-meta")]
    if st.reason and st.verdict != "reproduced":
        parts.append(p(esc(st.reason), "lr-reason"))
    parts.append(stored_outcomes(st))
    parts.append(outcome_table(data, ref, c, page, EXTENSION))
    parts.append(outcome_plot(data, ref, c, EXTENSION))
    return "\n".join(x for x in parts if x)


def _discrepancies(data: SiteData, rec, page: str) -> str:
    out = ["## Discrepancies between text and code\n"]
    for d in rec.discrepancies:
        out.append(f"### {inline(d.id)} · {inline(d.topic)} {{ #discrepancy-{d.id.lower()} }}\n")
        items = [f"<strong>The text says</strong>: {esc(d.text_says)}",
                 f"<strong>The code does</strong>: {esc(d.code_does)}",
                 f"<strong>The numbers follow</strong>: {badge(d.numbers_follow, 's')}"]
        if d.analysis:
            info = data.analyses.get(d.analysis)
            values = []
            for metric in d.metrics:
                try:
                    value = esc(fmt(result_metric(info.result if info else None, metric)))
                except KeyError:
                    value = "not run" if not info or info.result is None else "not in the result"
                values.append(f"{code(metric)} = {value}")
            items.append(f"<strong>Measured by</strong>: {analysis_link(data, page, d.analysis)} "
                         f"{badge(info.state if info else 'not_run')}" + ul(values))
        if d.note:
            items.append(f"<strong>Note</strong>: {esc(data.cited(d.note))}")
        out.append(block(ul(items)))
    return "\n".join(out)


def _links(data: SiteData, rec, page: str) -> str:
    out_edges = data.out_edges.get(rec.id, [])
    groups: dict[str, list] = {}
    for e in out_edges:
        groups.setdefault(e.rel, []).append(e)
    resolved = {e.loc for e in out_edges}
    unresolved = [(rel, ref) for rel, ref, loc in rec.refs() if loc not in resolved]
    text = ""
    if groups or unresolved:
        extra = ul(f"<strong>{esc(rel.replace('_', ' '))}</strong>: {esc(ref)} "
                   "<em>(unresolved; see litrec validate)</em>" for rel, ref in unresolved)
        text += "## Links\n" + block(links_list(data, page, groups, incoming=False), extra)
    incoming = data.project.incoming(rec.id)
    if incoming:
        text += "\n## Backlinks\n" + block(links_list(data, page, incoming, incoming=True))
    return text
