"""One generated page per record: its fields for a reader, claims with verdicts, links, graph."""

from __future__ import annotations

import html
import json
import os
import re

from litrec.bibtex import bibtex_entry
from litrec.site.data import SiteData, anchor, rel_url
from litrec.site.graph import record_graph
from litrec.site.parts import (analysis_link, badge, code, edge_note, indent, inline, links_list,
                               outcome_table, provenance, ref_link, verdict_of)
from litrec.site.text import clean, fmt, prose
from litrec.site.data import result_metric

_STATUS_FIELD = {"decision": "status", "theory": "status", "work": "status", "anthology": "stance"}


def record_page(data: SiteData, rid: str) -> str:
    rec = data.project.records[rid]
    page = data.record_page(rid)
    resolve = data.resolver(page)
    # The browser title comes from front matter, HTML-escaped: MkDocs would take it from the
    # heading and Material unescapes it into <title>, where "</title><script>" would break out.
    text = clean(rec.title) if rec.title else rid
    out: list[str] = [f"---\ntitle: {json.dumps(html.escape(' '.join(text.split())))}\n"
                      "hide:\n  - navigation\n---\n"]
    out.append(f"# {inline(text)}\n")
    meta = [f'<span class="lr-kind">{rec.kind}</span>', code(rid)]
    field = _STATUS_FIELD.get(rec.kind)
    if field and getattr(rec, field):
        meta.append(badge(getattr(rec, field), "s"))
    if rec.partial:
        meta.append(badge("partial", "s"))
    for tag in rec.tags:
        meta.append(f'<span class="lr-tag">{inline(tag)}</span>')
    out.append(" ".join(meta) + "\n")
    if rec.partial:
        named = f" Named in: {prose(rec.known_from, resolve).strip()}" if rec.known_from else ""
        out.append('!!! note "Known by reference only"\n\n'
                   + indent("This record holds what its source says of it; the content is held "
                            "elsewhere." + named) + "\n")
    out.append(_fields(data, rec, page))
    if rec.summary:
        out.append('<div class="lr-summary" markdown="1">\n\n' + prose(rec.summary, resolve, 3)
                   + "\n</div>\n")
    if getattr(rec, "question", None):
        out.append("**The question this record asks.** " + prose(rec.question, resolve, 3))
    if rec.kind == "decision":
        for name in ("context", "decision", "consequences"):
            if getattr(rec, name):
                out.append(f"## {name.capitalize()}\n\n" + prose(getattr(rec, name), resolve, 3))
    if rec.body:
        out.append(prose(rec.body, resolve, 2))
    if rec.kind == "work" and rec.bibliography:
        out.append(_bibliography(data, rec, page))
    claims = getattr(rec, "claims", []) or []
    if claims:
        out.append("## Claims\n")
        for c in claims:
            out.append(_claim(data, rec, c, page))
    if getattr(rec, "discrepancies", None):
        out.append(_discrepancies(data, rec, page))
    out.append(_links(data, rec, page))
    fence, left = record_graph(data, rid)
    out.append("## Graph\n\n" + fence + (
        f"\n*{left} more links are listed above, not drawn.*\n" if left else ""))
    shown = os.path.relpath(data.project.paths[rid], data.project.records_dir.parent)
    out.append(f'<p class="lr-source">Source: {code(shown)}</p>\n')
    return "\n".join(out)


def _fields(data: SiteData, rec, page: str) -> str:
    rows: list[tuple[str, str]] = []
    if rec.kind == "literature":
        return _citation(data, rec, page)
    for name in ("date", "read_for"):
        if getattr(rec, name, None):
            rows.append((name.replace("_", " "), inline(getattr(rec, name))))
    if not rows:
        return ""
    return "\n".join(f"**{k}**: {v}  " for k, v in rows) + "\n"


def _citation(data: SiteData, rec, page: str) -> str:
    out = ["## Citation\n"]
    parts = []
    if rec.authors:
        parts.append(inline(", ".join(rec.authors)) + ".")
    if rec.title:
        parts.append(f"*{inline(rec.title)}*.")
    venue = ", ".join(inline(v) for v in (rec.venue, rec.volume and f"vol. {rec.volume}",
                                          rec.pages and f"pp. {rec.pages}", rec.publisher) if v)
    if venue:
        parts.append(venue + ".")
    if rec.year:
        parts.append(f"{rec.year}.")
    out.append(" ".join(parts) + "\n")
    ids = []
    if rec.arxiv:
        ids.append(f"arXiv: [{inline(rec.arxiv)}](https://arxiv.org/abs/{rec.arxiv})")
    if rec.doi:
        ids.append(f"DOI: [{inline(rec.doi)}](https://doi.org/{_url_part(rec.doi)})")
    if rec.url:
        ids.append(_external(rec.url, "link"))
    if rec.code:
        ids.append("official code: " + (_external(rec.code, rec.code) if "://" in rec.code
                                        else inline(rec.code)))
    if ids:
        out.append(" · ".join(ids) + "\n")
    entry = bibtex_entry(rec)
    ticks = "`" * max(3, max((len(m) for m in re.findall(r"`+", entry)), default=0) + 1)
    out.append(f'{ticks} bibtex title="BibTeX"\n{entry}\n{ticks}\n')
    if rec.filed:
        f = rec.filed
        line = f"**Filed** on {f.date.isoformat()}"
        if f.requested_by:
            line += f" at the request of {inline(f.requested_by)}"
        if f.from_work:
            line += f", from the bibliography of {ref_link(data, page, f.from_work)}"
        out.append(line + ".\n")
    return "\n".join(out)


def _url_part(s: str) -> str:
    from urllib.parse import quote

    return quote(s, safe="/:._-~()")


def _external(url: str, text: str) -> str:
    """A link to an http(s) address; anything else is shown as text."""
    if re.match(r"^https?://[^\s<>\"]+$", url):
        return f"[{inline(text)}](<{_url_part(url)}>)"
    return inline(url)


def _claim(data: SiteData, rec, c, page: str) -> str:
    ref = f"{rec.id}#{c.id}"
    resolve = data.resolver(page)
    out = [f"### {inline(c.id)} · {inline(c.title)} {{ #{anchor(c.id)} }}\n"]
    meta = [badge(verdict_of(data, ref)), inline(c.kind)]
    if c.where and c.where.describe():
        meta.append(inline(c.where.describe()))
    if c.check:
        meta.append("checked by " + analysis_link(data, page, c.check.analysis)
                    + f" (profile {inline(data.profile)})")
    out.append(" · ".join(meta) + "\n")
    out.append(prose(c.statement, resolve, 4))
    st = data.statuses.get(ref)
    if c.check:
        if st is not None and st.reason and st.verdict != "reproduced":
            out.append(f'<p class="lr-reason">{inline(st.reason)}</p>\n')
        if st is not None and st.rests_on_it:
            out.append("**Rests on it:** " + ", ".join(ref_link(data, page, r) for r in st.rests_on_it)
                       + "\n")
        out.append(outcome_table(data, ref, c))
        for name, path in data.figures(c.check.analysis):
            out.append(f"![{inline(name)}]({rel_url(page, path)}){{ .lr-figure loading=lazy }}\n")
        if st is not None and st.provenance:
            out.append('??? info "Provenance"\n\n' + provenance(st.provenance, "    "))
    backs = {inv: [e for e in es if e.claim == c.id]
             for inv, es in data.project.incoming(rec.id).items()}
    backs = {k: v for k, v in backs.items() if v}
    if backs:
        out.append(links_list(data, page, backs, incoming=True).replace(
            f" → [{inline(c.id)}](#{anchor(c.id)})", ""))
    return "\n".join(out)


def _discrepancies(data: SiteData, rec, page: str) -> str:
    out = ["## Discrepancies between text and code\n"]
    for d in rec.discrepancies:
        out.append(f"### {inline(d.id)} · {inline(d.topic)} {{ #discrepancy-{d.id.lower()} }}\n")
        items = [f"- **The text says**: {inline(d.text_says)}",
                 f"- **The code does**: {inline(d.code_does)}",
                 f"- **The numbers follow**: {badge(d.numbers_follow, 's')}"]
        if d.analysis:
            info = data.analyses.get(d.analysis)
            state = badge(info.state if info else "not_run")
            items.append(f"- **Measured by**: {analysis_link(data, page, d.analysis)} {state}")
            for metric in d.metrics:
                try:
                    value = inline(fmt(result_metric(info.result if info else None, metric)))
                except KeyError:
                    value = "not run" if not info or info.result is None else "not in the result"
                items.append(f"    - {code(metric)} = {value}")
        if d.note:
            items.append(f"- **Note**: {inline(d.note)}")
        out.append("\n".join(items) + "\n")
    return "\n".join(out)


def _bibliography(data: SiteData, rec, page: str) -> str:
    out = ["## Bibliography\n", "| Entry | Status | Note |", "|---|---|---|"]
    for b in rec.bibliography:
        out.append(f"| {ref_link(data, page, b.ref)} | {badge(b.status, 's')} | "
                   f"{inline(b.note) if b.note else ''} |")
    return "\n".join(out) + "\n"


def _links(data: SiteData, rec, page: str) -> str:
    out_edges = data.out_edges.get(rec.id, [])
    groups: dict[str, list] = {}
    for e in out_edges:
        groups.setdefault(e.rel, []).append(e)
    resolved = {e.loc for e in out_edges}
    unresolved = [(rel, ref) for rel, ref, loc in rec.refs() if loc not in resolved]
    text = ""
    if groups or unresolved:
        text += "## Links\n\n" + links_list(data, page, groups, incoming=False)
        for rel, ref in unresolved:
            text += f"- **{rel.replace('_', ' ')}**: {inline(ref)} *(unresolved; see litrec validate)*\n"
    incoming = data.project.incoming(rec.id)
    if incoming:
        text += "\n## Backlinks\n\n" + links_list(data, page, incoming, incoming=True)
    return text
