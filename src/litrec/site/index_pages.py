"""Generated index pages: home dashboard, records, anthology, analyses, graph.

Record pages stay out of the navigation (see mkdocs.yml, `not_in_nav`); these
pages, which are in it, reach every record through tables.
"""

from __future__ import annotations

from collections import Counter

from litrec.records.kinds import KIND, KINDS
from litrec.results.resume import kept_summary
from litrec.site.claim_counts import count_rows
from litrec.site.claim_pieces import (
    PROBLEM_ORDER,
    analysis_link,
    badge,
    lines,
    provenance,
    ref_link,
    rel_text,
    scale_head,
    scale_words,
    site_scales,
    verdict_of,
)
from litrec.site.pagedata import SiteData, anchor
from litrec.site.reasons import reason_cell
from litrec.site.safe_markdown import flatten, inline, prose
from litrec.site.stored_html import (
    a,
    admonition,
    block,
    code,
    esc,
    linked,
    p,
    span,
    table,
    ul,
)
from litrec.util.formatting import fmt
from litrec.verdicts.claims import EXTENSION, VERDICTS

VERDICT_ORDER = VERDICTS
NOTES_LIMIT = 200
# Generated pages are single pages (record pages are not in the nav at all): the left sidebar
# would be empty, so it is hidden and tables get the width.
WIDE = "---\nhide:\n  - navigation\n---\n\n"


def _count(n: int, kind: str) -> str:
    return f"{n} {KIND[kind].noun[n != 1]}"


# ------------------------------------------------------------------ home


def home(data: SiteData, intro: str) -> str:
    """The dashboard: every claim at each scale side by side, problems first, and the record at
    a glance (the owner's records, the entries known by reference only, validation notes)."""
    proj = data.project
    page = "index.md"
    kinds = Counter(r.kind for r in proj.records.values())
    out = ["---\nhide:\n  - navigation\n  - toc\n---\n\n"  # the dashboard takes the whole width
           + (intro.rstrip() + "\n" if intro.strip() else "# litrec\n")]
    summary = ", ".join(
        a(data.link(page, "anthology/index.md") if k == "anthology"
          else data.link(page, "records/index.md", k), esc(_count(n, k)))
        for k in KINDS if (n := kinds.get(k)))
    out.append(block(p(f"This record holds {len(proj.records)} records: {summary or 'none yet'}.")))
    out.append("## Claims { #claims }\n")
    rows = list(proj.claims())
    if not rows:
        out.append(block(p("No record states a claim yet.")))
    else:
        scales = site_scales(data)
        heads = ["Claim"] + [f"at {code(s)}" + (f"<br>{span('lr-reason', esc(scale_words(data, s)))}"
                                                 if scale_words(data, s) else "") for s in scales]
        out.append(block(p(f"Every claim of the record, judged on the results in {code('results/')}"
                           f" at each scale side by side, the <strong>{esc(data.profile)}</strong>"
                           " one first; claims with a problem at any scale come first. Under each "
                           "verdict, why in a sentence; the statistics behind it are folded under "
                           "<em>how it was decided</em>. Each claim's page shows every expectation "
                           "with its interval. First, what each paper's claims came to, apart from "
                           "the owner's own (the claims of the owner's notes, theories and works)."),
                         table(["Whose claims"] + heads[1:], count_rows(data, page, rows, scales)),
                         table(heads, _dashboard_rows(data, page, rows, scales),
                               cls="lr-dashboard")))
    out.append("## The owner's records { #owners }\n")
    owned = sorted(rid for rid, r in proj.records.items() if r.kind in OWNERS_KINDS)
    if owned:
        out.append(block(
            p("The notes, theories, decisions and works of the record's owner, with what each "
              "links to."),
            table(["Record", "Kind", "Title or summary", "Links out and in"],
                  (_owner_row(data, page, rid) for rid in owned))))
    else:
        out.append(block(p("The record holds no note, theory, decision or work yet.")))
    out.append("## Known by reference only { #partial }\n")
    partial = sorted(rid for rid, r in proj.records.items()
                     if r.partial and r.kind not in OWNERS_KINDS)
    if partial:
        resolve = data.href_resolver(page)
        out.append(block(
            p("Entries the record holds only as their source describes them."),
            table(["Record", "Kind", "Named in"], (
                [ref_link(data, page, rid), esc(proj.records[rid].kind),
                 linked(proj.records[rid].known_from or "", resolve)] for rid in partial))))
    else:
        out.append(block(p("None: every entry holds its own content.")))
    out.append("## Validation notes { #validation }\n")
    notes = [d for d in proj.diagnostics if d.code not in ("partial", "quotes-unchecked")]  # alike anywhere
    errors = [d for d in notes if d.severity == "error"]
    parts = []
    if errors:
        parts.append(admonition(f"litrec validate reports {len(errors)} error{'s' * (len(errors) != 1)}",
                                p("A record that fails its schema is left out of this site; the "
                                  "others are shown as they are."), "failure"))
    items = [f"{badge(d.severity, 's')} {code(d.format())}" for d in notes[:NOTES_LIMIT]]
    if len(notes) > NOTES_LIMIT:
        items.append(f"… and {len(notes) - NOTES_LIMIT} more ({code('litrec validate')})")
    parts.append(ul(items) if items else p(f"{code('litrec validate')} reports no problems."))
    out.append(block(*parts))
    return "\n".join(out)


# The kinds the record's owner writes (the literature is the papers' own, and the anthology is a
# collection of its own, with its own section): shown on the home page as records.
OWNERS_KINDS = tuple(k for k in KINDS if k not in ("literature", "anthology"))


def _dashboard_rows(data: SiteData, page: str, rows, scales: list[str]):
    """One table row per claim, its verdict at each scale in a column of its own (with the reason
    in a sentence and the statistics folded), and a row beneath for litrec's extensions; claims
    with a problem first: by the headline verdict, then by the worst verdict at any scale."""
    order = {v: i for i, v in enumerate(PROBLEM_ORDER)}

    def rank(ref: str) -> tuple[int, int]:
        seen = [st.verdict if (st := data.status_at(s, r)) else "unchecked"
                for s in scales for r in (ref, ref + EXTENSION)
                if r == ref or data.status_at(s, r) is not None]
        return order.get(verdict_of(data, ref), len(order)), min(order.get(v, len(order))
                                                                for v in seen)

    keyed = sorted(((rank(f"{r.id}#{c.id}"), i, r, c) for i, (r, c) in enumerate(rows)),
                   key=lambda k: k[:2])
    for _, _, rec, c in keyed:
        ref = f"{rec.id}#{c.id}"
        cells = []
        for scale in scales:
            st = data.status_at(scale, ref)
            cell = reason_cell(st)
            if scale == data.profile and st is not None:
                if st.rests_on_it:
                    cell += "<br>" + span("lr-reason", "rests on it: " + ", ".join(
                        ref_link(data, page, r) for r in st.rests_on_it))
            cells.append(cell)
        yield [f"{ref_link(data, page, ref)}<br>{esc(c.title)}"] + cells
        if any(data.status_at(s, ref + EXTENSION) is not None for s in scales):
            yield ([span("lr-reason", f"↳ {esc(c.id)}'s extensions: litrec's own tests, judged "
                         "beside it; never its verdict")]
                   + [reason_cell(data.status_at(s, ref + EXTENSION)) for s in scales])


def _owner_row(data: SiteData, page: str, rid: str) -> list[str]:
    """One of the owner's records: its id, kind, title (and its claims' verdicts), its links."""
    rec = data.project.records[rid]
    title = esc(rec.title or " ".join(str(data.cited(rec.summary) or "").split()))
    claims = " ".join(f"{esc(c.id)} {badge(verdict_of(data, f'{rid}#{c.id}'))}"
                      for c in getattr(rec, "claims", []) or [])
    if claims:  # the verdicts' scale named before them, as over the dashboard's columns
        title += ("<br>" if title else "") + span("lr-reason", f"at {code(data.profile)}: ") + claims
    by_rel: dict[str, list[str]] = {}
    for e in data.out_edges.get(rid, []):
        by_rel.setdefault(e.rel, []).append(ref_link(data, page, e.ref))
    links = [f"{esc(rel_text(rel))} {', '.join(targets)}" for rel, targets in by_rel.items()]
    links += [f"{esc(rel_text(inv))} {', '.join(ref_link(data, page, e.source) for e in es)}"
              for inv, es in data.project.incoming(rid).items() if es]
    return [ref_link(data, page, rid), esc(rec.kind), title or "—", lines(links)]


# ------------------------------------------------------------------ records


def records_index(data: SiteData) -> str:
    """Every record of the owner's collection, by kind."""
    proj = data.project
    page = "records/index.md"
    out = [WIDE + "# Records\n",
           block(p("Every record of the owner's collection, by kind. The anthology has "
                   + a(data.link(page, "anthology/index.md"), "its own section") + "."))]
    by_kind: dict[str, list[str]] = {}
    for rid in sorted(proj.records):
        by_kind.setdefault(proj.records[rid].kind, []).append(rid)
    for kind in KINDS:
        if kind == "anthology" or kind not in by_kind:
            continue
        out.append(f"## {KIND[kind].label} {{ #{kind} }}\n")
        rows = []
        for rid in by_kind[kind]:
            r = proj.records[rid]
            status = getattr(r, "status", None)
            st = (badge(status, "s") if status else "") + (" " + badge("partial", "s") if r.partial else "")
            claims = " ".join(a(data.link(page, data.record_page(rid), anchor(c.id)), esc(c.id)) + " "
                              + badge(verdict_of(data, f"{rid}#{c.id}"))
                              for c in getattr(r, "claims", []) or [])
            n_in = sum(len(v) for v in proj.incoming(rid).values())
            rows.append([ref_link(data, page, rid), esc(r.title or ""), st, claims,
                         f"{len(data.out_edges.get(rid, []))} / {n_in}"])
        out.append(block(table(["Record", "Title", "Status", scale_head(data, "Claims"),
                                "Links out / in"], rows)))
    return "\n".join(out)


# ------------------------------------------------------------------ anthology

STANCES = (("kept", "Kept"), ("rejected", "Rejected"), ("held", "Held"), ("open", "Open"),
           (None, "No stance recorded"))


def anthology_index(data: SiteData) -> str:
    """The anthology's entries, by stance."""
    proj = data.project
    page = "anthology/index.md"
    entries = sorted(rid for rid, r in proj.records.items() if r.kind == "anthology")
    out = [WIDE + "# Anthology\n",
           block(p("The anthology is the second collection the owner keeps: entries on papers and "
                   "theories, each with a stance (kept, rejected, held, open). Its entries keep or "
                   f"reject claims and other entries; {code('litrec validate')} fails when a note "
                   "uses a claim that the anthology's entry for its paper rejects."))]
    if not entries:
        out.append(block(p("The record has no anthology entries yet.")))
        return "\n".join(out)
    counts = Counter(proj.records[e].stance for e in entries)
    out.append(block(p(", ".join(f"{counts[s]} {badge(s or 'none', 's')}"
                                 for s, _ in STANCES if counts.get(s)))))
    for stance, heading in STANCES:
        members = [e for e in entries if proj.records[e].stance == stance]
        if members:
            out.append(f"## {heading} {{ #{stance or 'none'} }}\n")
            out.append(block(table(["Entry", "Read for", "Keeps / rejects", "Kept or rejected by",
                                    "Owner's records pointing here"],
                                   (_anthology_row(data, page, rid) for rid in members))))
    return "\n".join(out)


def _anthology_row(data: SiteData, page: str, rid: str) -> list[str]:
    proj = data.project
    r = proj.records[rid]
    entry = ref_link(data, page, rid) + (f"<br>{esc(r.title)}" if r.title else "")
    stances = [f"{esc(rel_text(e.rel))} {ref_link(data, page, e.ref)}"
               for e in data.out_edges.get(rid, []) if e.rel in ("keeps", "rejects")]
    incoming = proj.incoming(rid)
    by = [f"{esc(rel_text(inv))} {ref_link(data, page, e.source)}"
          for inv in ("kept_by", "rejected_by") for e in incoming.get(inv, [])]
    # each owner's record with what it does: "NOTE-621 (uses ARXIV-2212.07677#P1)"
    owners = [f"{ref_link(data, page, e.source)} ({esc(rel_text(e.rel))})"
              for es in incoming.values() for e in es
              if proj.records[e.source].kind != "anthology"]
    for e in data.out_edges.get(rid, []):
        if e.rel == "entry_for":
            owners.append(f"entry for {ref_link(data, page, e.target)}")
            owners += [f"{ref_link(data, page, b.source)} ({esc(rel_text(b.rel))} "
                       f"{ref_link(data, page, b.ref)})"
                       for es in proj.incoming(e.target).values() for b in es
                       if proj.records[b.source].kind != "anthology"]
    return [entry, esc(r.read_for or ""), lines(stances), lines(by), lines(owners)]


# ------------------------------------------------------------------ analyses


def analyses_index(data: SiteData) -> str:
    """Every analysis with its result's state and the claims it checks."""
    page = "analyses/index.md"
    out = [WIDE + "# Analyses\n",
           block(p(f"Each analysis reruns a claimed result; shown here are its <strong>"
                   f"{esc(data.profile)}</strong> results. See "
                   + a(data.link(page, "writing-analyses.md"), "Writing an analysis") + "."))]
    if not data.analyses:
        out.append(block(p(f"No analysis is registered yet ({code('analysis/registry.yaml')}).")))
        return "\n".join(out)
    rows = []
    for name, info in data.analyses.items():
        claims = " ".join(f"{ref_link(data, page, ref)} {badge(verdict_of(data, ref))}"
                          for ref in info.claims)
        ran = ""
        if info.result is not None:
            ran = esc(f"{info.result.get('started', '')} ({fmt(info.result.get('wall_time_s'))} s)")
        rows.append([analysis_link(data, page, name), esc(info.title), badge(info.state), claims, ran])
    out.append(block(table(["Analysis", "Title", "Result",
                                 scale_head(data, "Claims it checks, verdicts"), "Run"], rows)))
    return "\n".join(out)


def analysis_page(data: SiteData, name: str) -> str:
    """One analysis: its state, claims, figures, metrics and provenance."""
    info = data.analyses[name]
    page = info.page
    out = [WIDE + f"# {inline(name)}\n"]
    state = badge(info.state) + f" profile {code(data.profile)}"
    if not info.registered:
        state += f" · not registered in {code('analysis/registry.yaml')}"
    elif data.project.registry is not None:
        module = data.project.registry.entries[name].module.replace(".", "/")
        state += " · module " + code(f"analysis/{module}.py")
    head = [p(f"<strong>{esc(info.title)}</strong>"), p(state)]
    if info.state == "modified":
        head.append(p(f"modified: {esc(info.why_stale)}", "lr-reason"))
    elif info.result is None:
        rerun = info.result_state.rerun if info.result_state else None
        head.append(p(f"No {esc(data.profile)} result yet; "
                      + (f"a run of the present inputs is under way: {esc(rerun)}" if rerun else
                         "run: " + code(f"litrec run {name} --profile {data.profile}"))))
    elif info.why_stale:
        head.append(p(f"stale: {esc(info.why_stale)}", "lr-reason"))
    for warning in info.result_state.warnings if info.result_state else ():
        head.append(p(f"warning: {esc(warning)}", "lr-reason"))
    out.append(block(*head))
    if info.description:
        out.append(prose(info.description, data.resolver(page), 3))
    if info.claims:
        out.append("## Claims it checks\n" + block(table(["Claim", scale_head(data, "Verdict"), "Statement"], (
            [ref_link(data, page, ref), badge(verdict_of(data, ref)), esc(_claim_title(data, ref))]
            for ref in info.claims))))
    if info.discrepancies:
        items = []
        for rid, did in info.discrepancies:
            d = next(x for x in data.project.records[rid].discrepancies if x.id == did)
            url = data.link(page, data.record_page(rid), f"discrepancy-{did.lower()}")
            items.append(a(url, esc(f"{rid} {did}")) + f": {esc(d.topic)} (metrics: "
                         + (", ".join(code(m) for m in d.metrics) or "—") + ")")
        out.append("## Discrepancies it measures\n" + block(ul(items)))
    if info.result is None:
        return "\n".join(out)
    res = info.result
    figs = data.figures(name)
    if figs:
        out.append("## Figures\n" + block(*(
            p(f'<img src="{esc(data.link(page, path))}" alt="{esc(fig)}" class="lr-figure" '
              f'loading="lazy"><br>{code(fig)}') for fig, path in figs)))
    rows = flatten(res.get("metrics", {}))
    out.append("## Metrics\n" + block(table(["Metric", "Value"], ([code(k), esc(fmt(v))] for k, v in rows))
                                     if rows else p("The result holds no metrics.")))
    if res.get("notes"):
        out.append("## Notes\n" + block(ul(esc(n) for n in res["notes"])))
    prov = {k: res.get(k) for k in ("code_hash", "git", "versions", "platform", "device", "seed",
                                    "seeds", "started", "wall_time_s", "litrec", "hermetic") if k in res}
    kept = kept_summary(res)  # points computed in an earlier, interrupted sitting
    if kept is not None:
        prov["kept"] = kept
    parts = [provenance(prov)]
    files = res.get("code_files") or {}
    if files:
        parts.append(table(["File", "SHA-256"], ([code(f), code(str(h)[:16])] for f, h in files.items())))
    cfg = res.get("config")
    if isinstance(cfg, dict) and cfg:
        swept = set(res.get("sweep") or {}) if isinstance(res.get("sweep"), dict) else set()
        settings = [(k, v) for k, v in flatten(cfg) if k not in swept]  # a swept one: its points
        others = "; ".join(f"{code(k)}: {esc(', '.join(map(fmt, _values(res['sweep'][k]))))}"
                           for k in sorted(swept - {"seed"}))
        note = " (a point per " + ", ".join(code(k) for k in sorted(swept)) + (
            "; the seeds are listed above" if "seed" in swept else "") + (
            f"; {others}" if others else "") + ")" if swept else ""
        parts.append(p("<strong>Configuration</strong>" + note)
                     + table(["Setting", "Value"], ([code(k), esc(fmt(v))] for k, v in settings)))
    out.append("## Provenance\n" + block(*parts))
    return "\n".join(out)


def _values(points) -> list:
    """A swept field's values as stored (a list), or the one value a damaged result holds."""
    return points if isinstance(points, list) else [points]


def _claim_title(data, ref: str) -> str:
    """A claim's title, or its ref where the project has no such claim (an analysis's registry
    may name one that a record no longer holds)."""
    found = data.project.claim(ref)
    return found[1].title if found is not None else ref
