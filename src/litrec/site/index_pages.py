"""Generated index pages: home dashboard, records, anthology, analyses, graph.

Record pages stay out of the navigation (see mkdocs.yml, `not_in_nav`); these
pages, which are in it, reach every record through tables.
"""

from __future__ import annotations

from collections import Counter

from litrec.site.data import KIND_TITLES, SiteData, rel_url
from litrec.site.graph import whole_graph
from litrec.site.parts import (analysis_link, badge, cell, code, inline, mark, outcome_rows,
                               provenance, ref_link, rel_text, verdict_of)
from litrec.site.text import flatten, fmt, prose

VERDICT_ORDER = ("reproduced", "not_reproduced", "stale", "not_run", "error", "unchecked")
NOTES_LIMIT = 200
# Generated pages are single pages (record pages are not in the nav at all): the left sidebar
# would be empty, so it is hidden and tables get the width.
WIDE = "---\nhide:\n  - navigation\n---\n\n"
_NOUNS = {"literature": ("paper", "papers"), "note": ("note", "notes"),
          "theory": ("theory", "theories"), "decision": ("decision", "decisions"),
          "work": ("work", "works"), "anthology": ("anthology entry", "anthology entries")}


def _count(n: int, kind: str) -> str:
    return f"{n} {_NOUNS[kind][n != 1]}"


# ------------------------------------------------------------------ home


def home(data: SiteData, intro: str) -> str:
    proj = data.project
    page = "index.md"
    kinds = Counter(r.kind for r in proj.records.values())
    out = [WIDE + (intro.rstrip() + "\n" if intro.strip() else "# litrec\n")]
    summary = ", ".join(f"[{_count(n, k)}]({'anthology/index.md' if k == 'anthology' else f'records/index.md#{k}'})"
                        for k in KIND_TITLES if (n := kinds.get(k)))
    out.append(f"This record holds {len(proj.records)} records: {summary or 'none yet'}.\n")
    out.append('## Claims { #claims }\n')
    rows = list(proj.claims())
    verdicts = Counter(verdict_of(data, f"{r.id}#{c.id}") for r, c in rows)
    out.append(f"Every claim of the record, judged against the **{inline(data.profile)}** results "
               "in `results/`: " + ", ".join(f"{verdicts[v]} {badge(v)}" for v in VERDICT_ORDER
                                             if verdicts.get(v)) + "\n" if rows else
               "No record states a claim yet.\n")
    if rows:
        out.append('<div class="lr-dashboard" markdown="1">\n')
        out.append("| Claim | Verdict | Expectation | Measured | Paper | Official code |")
        out.append("|---|---|---|---|---|---|")
        for rec, c in rows:
            ref = f"{rec.id}#{c.id}"
            first = f"{ref_link(data, page, ref)}<br>{inline(c.title)}"
            verdict = badge(verdict_of(data, ref))
            st = data.statuses.get(ref)
            if st is not None and st.rests_on_it:
                verdict += '<br><span class="lr-reason">rests on it: ' + ", ".join(
                    ref_link(data, page, r) for r in st.rests_on_it) + "</span>"
            er = outcome_rows(data, ref, c) or [None]
            for r in er:
                if r is None:
                    cells = ["—"] * 4
                else:
                    cells = [mark(r["holds"]) + code(r["expectation"]),
                             inline(fmt(r["measured"])) if r["has_result"] else "—",
                             inline(fmt(r["paper"])), inline(fmt(r["official"]))]
                out.append(f"| {first} | {verdict} | " + " | ".join(cells) + " |")
                first = verdict = ""
        out.append("\n</div>\n")
    partial = sorted(rid for rid, r in proj.records.items() if r.partial)
    out.append("## Partial records { #partial }\n")
    if partial:
        out.append("Known by reference only: the record holds what its source says of them.\n")
        out.append("| Record | Kind | Named in |\n|---|---|---|")
        for rid in partial:
            r = proj.records[rid]
            named = prose(r.known_from, data.resolver(page)).strip().replace("\n", " ") \
                if r.known_from else ""
            out.append(f"| {ref_link(data, page, rid)} | {r.kind} | {named} |")
        out.append("")
    else:
        out.append("None: every record holds its own content.\n")
    out.append("## Validation notes { #validation }\n")
    notes = [d for d in proj.diagnostics if d.code != "partial"]
    errors = [d for d in notes if d.severity == "error"]
    if errors:
        out.append(f'!!! failure "litrec validate reports {len(errors)} error{"s" * (len(errors) != 1)}"'
                   "\n\n    A record that fails its schema is left out of this site; the others "
                   "are shown as they are.\n")
    if notes:
        for d in notes[:NOTES_LIMIT]:
            out.append(f"- {badge(d.severity, 's')} {code(d.format())}")
        if len(notes) > NOTES_LIMIT:
            out.append(f"- … and {len(notes) - NOTES_LIMIT} more (`litrec validate`)")
        out.append("")
    else:
        out.append("`litrec validate` reports no problems.\n")
    return "\n".join(out)


# ------------------------------------------------------------------ records


def records_index(data: SiteData) -> str:
    proj = data.project
    page = "records/index.md"
    out = [WIDE + "# Records\n",
           "Every record of the owner's collection, by kind. The anthology has "
           "[its own section](../anthology/index.md).\n"]
    by_kind: dict[str, list[str]] = {}
    for rid in sorted(proj.records):
        by_kind.setdefault(proj.records[rid].kind, []).append(rid)
    for kind in KIND_TITLES:
        if kind == "anthology" or kind not in by_kind:
            continue
        out.append(f"## {KIND_TITLES[kind]} {{ #{kind} }}\n")
        out.append("| Record | Title | Status | Claims | Links out / in |\n|---|---|---|---|---|")
        for rid in by_kind[kind]:
            r = proj.records[rid]
            status = getattr(r, "status", None)
            st = (badge(status, "s") if status else "") + (" " + badge("partial", "s") if r.partial else "")
            claims = getattr(r, "claims", []) or []
            cl = " ".join(f"[{inline(c.id)}]({rel_url(page, data.record_page(rid), c.id.lower())})"
                          f" {badge(verdict_of(data, f'{rid}#{c.id}'))}" for c in claims)
            n_in = sum(len(v) for v in proj.incoming(rid).values())
            out.append(f"| {ref_link(data, page, rid)} | {inline(r.title) if r.title else ''} | {st} | "
                       f"{cl} | {len(data.out_edges.get(rid, []))} / {n_in} |")
        out.append("")
    return "\n".join(out)


# ------------------------------------------------------------------ anthology

STANCES = (("kept", "Kept"), ("rejected", "Rejected"), ("held", "Held"), ("open", "Open"),
           (None, "No stance recorded"))


def anthology_index(data: SiteData) -> str:
    proj = data.project
    page = "anthology/index.md"
    entries = sorted(rid for rid, r in proj.records.items() if r.kind == "anthology")
    out = [WIDE + "# Anthology\n",
           "The anthology is the second collection the owner keeps: entries on papers and "
           "theories, each with a stance (kept, rejected, held, open). Its entries keep or reject "
           "claims and other entries; `litrec validate` fails when a note uses a claim that the "
           "anthology's entry for its paper rejects.\n"]
    if not entries:
        out.append("The record has no anthology entries yet.\n")
        return "\n".join(out)
    counts = Counter(proj.records[e].stance for e in entries)
    out.append(", ".join(f"{counts[s]} {badge(s or 'none', 's')}" for s, _ in STANCES if counts.get(s))
               + "\n")
    for stance, heading in STANCES:
        members = [e for e in entries if proj.records[e].stance == stance]
        if not members:
            continue
        out.append(f"## {heading} {{ #{stance or 'none'} }}\n")
        out.append("| Entry | Read for | Keeps / rejects | Kept or rejected by | "
                   "Owner's records pointing here |\n|---|---|---|---|---|")
        for rid in members:
            out.append(_anthology_row(data, page, rid))
        out.append("")
    return "\n".join(out)


def _anthology_row(data: SiteData, page: str, rid: str) -> str:
    proj = data.project
    r = proj.records[rid]
    entry = ref_link(data, page, rid) + (f"<br>{inline(r.title)}" if r.title else "")
    stances = [f"{rel_text(e.rel)} {ref_link(data, page, e.ref)}"
               for e in data.out_edges.get(rid, []) if e.rel in ("keeps", "rejects")]
    incoming = proj.incoming(rid)
    by = [f"{rel_text(inv)} {ref_link(data, page, e.source)}" for inv in ("kept_by", "rejected_by")
          for e in incoming.get(inv, [])]
    owners = [f"{ref_link(data, page, e.source)} ({rel_text(inv)})"
              for inv, es in incoming.items() for e in es
              if proj.records[e.source].kind != "anthology"]
    for e in data.out_edges.get(rid, []):
        if e.rel == "entry_for":
            owners.append(f"entry for {ref_link(data, page, e.target)}")
            for inv, es in proj.incoming(e.target).items():
                for b in es:
                    if proj.records[b.source].kind != "anthology":
                        owners.append(f"{ref_link(data, page, b.source)} ({rel_text(inv)} "
                                      f"{ref_link(data, page, b.ref)})")
    return (f"| {entry} | {inline(r.read_for) if r.read_for else ''} | {cell(stances)} | "
            f"{cell(by)} | {cell(owners)} |")


# ------------------------------------------------------------------ analyses


def analyses_index(data: SiteData) -> str:
    page = "analyses/index.md"
    out = [WIDE + "# Analyses\n",
           f"Each analysis reruns a claimed result; shown here are its **{inline(data.profile)}** "
           "results. See [Writing an analysis](../writing-analyses.md).\n"]
    if not data.analyses:
        out.append("No analysis is registered yet (`analysis/registry.yaml`).\n")
        return "\n".join(out)
    out.append("| Analysis | Title | Result | Claims it checks | Run |\n|---|---|---|---|---|")
    for name, info in data.analyses.items():
        claims = " ".join(f"{ref_link(data, page, ref)} {badge(verdict_of(data, ref))}"
                          for ref in info.claims)
        ran = ""
        if info.result is not None:
            ran = inline(f"{info.result.get('started', '')} ({fmt(info.result.get('wall_time_s'))} s)")
        out.append(f"| {analysis_link(data, page, name)} | {inline(info.title)} | "
                   f"{badge(info.state)} | {claims} | {ran} |")
    return "\n".join(out) + "\n"


def analysis_page(data: SiteData, name: str) -> str:
    info = data.analyses[name]
    page = info.page
    resolve = data.resolver(page)
    out = [WIDE + f"# {inline(name)}\n", f"**{inline(info.title)}**\n"]
    if info.description:
        out.append(prose(info.description, resolve, 3))
    state = badge(info.state) + f" profile {code(data.profile)}"
    if not info.registered:
        state += " · not registered in `analysis/registry.yaml`"
    elif data.project.registry is not None:
        state += " · module " + code(f"analysis/{data.project.registry.entries[name].module.replace('.', '/')}.py")
    out.append(state + "\n")
    if info.result is None:
        out.append(f"No {inline(data.profile)} result yet; run: {code(f'litrec run {name} --profile {data.profile}')}\n")
    elif info.why_stale:
        out.append(f'<p class="lr-reason">stale: {inline(info.why_stale)}</p>\n')
    if info.claims:
        out.append("## Claims it checks\n\n| Claim | Verdict | Statement |\n|---|---|---|")
        for ref in info.claims:
            rec, c = data.project.claim(ref)
            out.append(f"| {ref_link(data, page, ref)} | {badge(verdict_of(data, ref))} | "
                       f"{inline(c.title)} |")
        out.append("")
    if info.discrepancies:
        out.append("## Discrepancies it measures\n")
        for rid, did in info.discrepancies:
            d = next(x for x in data.project.records[rid].discrepancies if x.id == did)
            url = rel_url(page, data.record_page(rid), f"discrepancy-{did.lower()}")
            out.append(f"- [{inline(rid)} {inline(did)}]({url}): {inline(d.topic)} "
                       f"(metrics: {', '.join(code(m) for m in d.metrics) or '—'})")
        out.append("")
    if info.result is not None:
        res = info.result
        figs = data.figures(name)
        if figs:
            out.append("## Figures\n")
            for fig, path in figs:
                out.append(f"![{inline(fig)}]({rel_url(page, path)}){{ .lr-figure loading=lazy }}\n\n"
                           f"{code(fig)}\n")
        rows = flatten(res.get("metrics", {}))
        out.append("## Metrics\n")
        if rows:
            out.append("| Metric | Value |\n|---|---|")
            out.extend(f"| {code(k)} | {inline(fmt(v))} |" for k, v in rows)
            out.append("")
        if res.get("notes"):
            out.append("## Notes\n")
            out.extend(f"- {inline(n)}" for n in res["notes"])
            out.append("")
        out.append("## Provenance\n")
        prov = {k: res.get(k) for k in ("code_hash", "versions", "platform", "device", "seed",
                                        "started", "wall_time_s", "litrec") if k in res}
        out.append(provenance(prov))
        files = res.get("code_files") or {}
        if files:
            out.append("| File | SHA-256 |\n|---|---|")
            out.extend(f"| {code(f)} | {code(str(h)[:16])} |" for f, h in files.items())
            out.append("")
        cfg = res.get("config")
        if isinstance(cfg, dict) and cfg:
            out.append("**Configuration**\n\n| Setting | Value |\n|---|---|")
            out.extend(f"| {code(k)} | {inline(fmt(v))} |" for k, v in flatten(cfg))
            out.append("")
    return "\n".join(out)


# ------------------------------------------------------------------ graph


def graph_page(data: SiteData) -> str:
    fence, full = whole_graph(data)
    n, m = len(data.project.records), len(data.project.edges)
    out = [WIDE + "# Graph\n"]
    if full:
        out.append(f"All {n} records and their {m} typed links; each arrow is a link as written "
                   "on its source record. Each record's page draws its own neighbourhood.\n")
    else:
        out.append(f"The record has {n} records and {m} typed links: too many to draw at once, so "
                   "this graph shows the kinds of record and how many links of each relation join "
                   "them. Each record's page draws its own neighbourhood.\n")
    out.append(fence)
    return "\n".join(out)
