"""Pieces shared by the page generators, as stored HTML: badges, outcome tables, link lists."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from litrec.records.model import RELATIONS
from litrec.site.pagedata import SiteData, anchor
from litrec.site.plots import interval_plot, row_of
from litrec.site.stored_html import a, code, esc, inline_md, p, span, table, ul, words
from litrec.util.formatting import fmt
from litrec.verdicts.claims import project_scales
from litrec.verdicts.judge import JUDGED_VERDICTS, leaning
from litrec.verdicts.rows import claim_rows
from litrec.verdicts.stored import judged_in
from litrec.verdicts.words import threshold_words, word


def badge(value: str, family: str = "v") -> str:
    """A small coloured label in the command line's words (`litrec.verdicts.words`: `missing`, not
    "not run"); its class derives from `value` (`lr-v-not-run`)."""
    text = word(value) if family == "v" else value
    cls = "".join(c if c.isalnum() else "-" for c in value.lower())
    return span(f"lr-badge lr-{family}-{cls}", esc(text))


# Problems first: what needs the owner's attention, then what is merely behind, then what holds.
PROBLEM_ORDER = ("error", "not reproduced", "modified", "inconclusive", "expectation changed",
                 "stale", "missing", "unchecked", "reproduced")


def worst(verdicts) -> str | None:
    """The verdict among `verdicts` that comes first in PROBLEM_ORDER (None for none)."""
    order = {v: i for i, v in enumerate(PROBLEM_ORDER)}
    return min(verdicts, key=lambda v: order.get(v, len(order)), default=None)


def verdict_of(data: SiteData, ref: str) -> str:
    """The verdict of a claim ref for this site's profile."""
    st = data.statuses.get(ref)
    return st.verdict if st is not None else "unchecked"


def other_scales(data: SiteData, ref: str) -> str:
    """The claim's verdict at each scale other than the site's profile, under its headline badge."""
    st = data.statuses.get(ref)
    if st is None or not st.verdicts:
        return ""
    return "".join("<br>" + span("lr-reason", f"at {code(scale)}: ") + badge(v or "unchecked")
                   for scale, v in st.verdicts.items() if scale != data.profile)


def scale_verdicts(data: SiteData, ref: str) -> str:
    """A claim's (or extension row's) headline badge named by its scale, then its verdict at each
    other scale, on one line: `at paper_full: [reproduced] · at paper: [stale]`."""
    head = f"at {code(data.profile)}: " + badge(verdict_of(data, ref))
    return head + other_scales(data, ref).replace("<br>", " · ")


def scale_head(data: SiteData, head: str) -> str:
    """A table heading over verdicts at the site's profile, naming it: `Claims at paper_full`."""
    return f"{head} at {code(data.profile)}"


def scale_words(data: SiteData, scale: str) -> str:
    """What a scale is, from its place among the project's scales (`project_scales`: the last
    is the paper's own): words, or ""."""
    scales = project_scales(data.project)
    if scale not in scales:
        return ""
    return ("the paper's own scale: its number of steps and seeds" if scale == scales[-1]
            else "reduced: fewer steps or seeds than the paper")


def scales_note(data: SiteData) -> str:
    """Which scales are shown beside the headline verdict, in words (ends with a space)."""
    others = [s for s in project_scales(data.project) if s != data.profile]
    if not others:
        return ""
    return ("each claim's verdict at " + ", ".join(
        code(s) + (f" ({esc(scale_words(data, s))})" if scale_words(data, s) else "")
        for s in others) + " is shown under it. ")


def site_scales(data: SiteData) -> list[str]:
    """The scales a page shows side by side: the site's own profile first, then each other
    scale of the project in the order it declares them (`project_scales`)."""
    return [data.profile] + [s for s in project_scales(data.project) if s != data.profile]


def rel_text(rel: str) -> str:
    """A relation's name for reading: `held_under` -> `held under`."""
    return rel.replace("_", " ")


def ref_link(data: SiteData, page: str, ref: str, text: str | None = None) -> str:
    """A link to a record or claim, its id as the text."""
    return a(data.href(page, ref), esc(text if text is not None else ref))


def analysis_link(data: SiteData, page: str, name: str) -> str:
    """A link to an analysis's page, its name as the text."""
    return a(data.analysis_href(page, name), code(name))


def title_of(data: SiteData, rid: str) -> str | None:
    """A record's title for display, or its id."""
    rec = data.project.records.get(rid)
    return getattr(rec, "title", None) if rec is not None else None


def edge_note(data: SiteData, e) -> str | None:
    """The note written on the link (or bibliography entry) an edge comes from."""
    rec = data.project.records.get(e.source)
    try:
        field, idx = e.loc[0], e.loc[1]
        if field in ("links", "bibliography"):
            return data.cited(getattr(rec, field)[idx].note)
    except (IndexError, TypeError, AttributeError):
        pass
    return None


def lines(items: list[str]) -> str:
    """Several lines in one table cell."""
    return "<br>".join(items) if items else "—"


def row_expectations(data: SiteData, claim, suffix: str = "") -> list:
    """The expectations of one row of a claim at this site's profile: its own (`suffix` "") or
    litrec's extensions (`+ext`), in the order its status judged them."""
    judged = judged_in(claim.check.expect, data.profile) if claim.check else []
    return dict(claim_rows(judged)).get(suffix, [])


def outcome_rows(data: SiteData, ref: str, claim, suffix: str = "") -> list[dict[str, Any]]:
    """One row per expectation of the claim's row `suffix`: its text, measured, expected, paper,
    official, holds, note, source and registration."""
    st = data.statuses.get(ref + suffix)
    judged = st is not None and st.verdict in JUDGED_VERDICTS
    rows = []
    outcomes = st.outcomes if st is not None else []
    for i, exp in enumerate(row_expectations(data, claim, suffix)):
        o = outcomes[i] if i < len(outcomes) else None
        rows.append({
            "expectation": exp.describe(), "metric": exp.metric,
            "measured": None if o is None else o.measured,
            "expected": None if o is None else o.expected,
            "has_result": o is not None,
            "holds": o.holds if (o is not None and judged) else None,
            "decision": o.decision if (o is not None and judged) else None,
            "outcome": o,
            "paper": exp.paper, "official": exp.official, "note": data.cited(exp.note),
            "source": exp.source, "registration": (o.registration or {}) if o is not None else {},
        })
    return rows


def source_cell(r: dict) -> str:
    """Where an expectation comes from (paper, official code, litrec's extension), whose its
    threshold is, and a mark when it was committed after the first result it judges."""
    src = r["source"]
    if src is None:
        text = "—"
    elif src.kind == "paper":
        said = src.quote and f"“{src.quote}”" or src.states or ""
        text = f"paper, {esc(src.where)}" + (f"<br>{span('lr-reason', esc(said))}" if said else "")
    elif src.kind == "official":
        line = str(src.line)
        text = f"official code, {path_code(src.file)}" + (
            f" line {esc(line)}" if line[:1].isdigit() else f", {esc(line)}")
    else:
        text = "litrec's extension<br>" + span("lr-reason", esc(src.reason or ""))
    if src is not None:  # whose the threshold is: the paper's, the official code's or litrec's
        text += "<br>" + span("lr-reason lr-threshold", esc(threshold_words(src.model_dump(exclude_none=True))))
    if src is not None and src.todo():  # `litrec upgrade`'s placeholder: not yet said
        text += "<br>" + badge("to-do", "r") + " " + span(
            "lr-reason", esc(f"{', '.join(src.todo())} still TODO (litrec upgrade)"))
    reg = r["registration"]
    if reg.get("state") == "post hoc":
        after = (f"after {reg['seen']} {reg.get('why') or ''}".rstrip() if reg.get("seen") else
                 f"after the first judgement ({(reg.get('first_result') or '')[:16].replace('T', ' ')})")
        text += ("<br>" + badge("post hoc", "r") + " " + span(
            "lr-reason", esc(f"committed {(reg.get('committed') or '')[:16].replace('T', ' ')}, {after}")))
    elif reg.get("state") == "uncommitted":
        text += "<br>" + badge("uncommitted", "r")
    return text


def path_code(path: str) -> str:
    """A file path as code that may break after each `/`, so a long one wraps in its table cell
    instead of widening the table past the page's column."""
    return "<code>" + "/<wbr>".join(esc(part) for part in str(path).split("/")) + "</code>"


def name_breaks(text: str) -> str:
    """Stored HTML with a mark (`<span class="lr-brk"></span>`) after each `_` or `.` that a
    letter follows (`k2.loss_gd`): in a column too narrow for a whole metric name the site's
    stylesheet makes each mark a place to break (a zero-width space, generated, so never
    copied); elsewhere the mark is nothing and names stay whole (a `<wbr>` would break them
    at any width)."""
    return re.sub(r"(?<=[_.])(?=[A-Za-z])", '<span class="lr-brk"></span>', text)


def mark(holds: bool | None, decision: str | None = None) -> str:
    """✓ or ✗ for an outcome that holds or fails, ? when its interval straddles the threshold."""
    if decision == "inconclusive":
        return span("lr-unsure", "?") + " "
    if holds is None:
        return ""
    return span("lr-ok", "✓") + " " if holds else span("lr-fail", "✗") + " "


def measured_cell(o) -> str:
    """The measured mean, its 95% interval under it (n seeds), then what decided it; the rest
    (evaluation noise, the judged quantity, per-seed values) folded away under "details"."""
    if o is None:
        return "—"
    text = span("lr-num", esc(fmt(o.measured)))
    if o.interval and o.n > 1:
        text += ("<br>" + span("lr-num", esc(f"[{fmt(o.interval[0])}, {fmt(o.interval[1])}]"))
                 + " " + span("lr-reason", esc(f"95%, {o.n} seeds")))
    if o.decision == "inconclusive":
        text += "<br>" + span("lr-reason", esc(f"{o.direction}: {leaning(o, terminal=False)}"))
    if o.reason:
        text += "<br>" + span("lr-reason", esc(o.reason))
    more = []
    if o.interval and o.n > 1:
        more.append(esc(f"interval: {o.method}"))
    if o.noise is not None:
        more.append(esc(f"evaluation noise ±{fmt(o.noise)}"))
    if o.judged:
        j = o.judged
        more.append(esc(f"judged on {j['quantity']} = {fmt(j['mean'])} "
                        f"[{fmt(j['interval'][0])}, {fmt(j['interval'][1])}]"))
    if o.values and o.n > 1:
        more.append(esc(f"per seed: {fmt(o.values)}"))
    if more:
        text += ('<details class="lr-more"><summary>details</summary>'
                 + "<br>".join(span("lr-reason", m) for m in more) + "</details>")
    return text


def outcome_table(data: SiteData, ref: str, claim, page: str | None = None, suffix: str = "") -> str:
    """A claim's expectations (of its row `suffix`): measured (interval under the mean), expected,
    paper, official code, where each comes from; each note in a row of its own beneath."""
    rows = outcome_rows(data, ref, claim, suffix)
    if not rows:
        return ""
    resolve = data.href_resolver(page) if page else (lambda _ref: None)
    out = ['<div class="lr-outcomes">\n<table>\n<thead><tr><th>Expectation</th> <th>Measured</th> '
           "<th>Expected</th> <th>Paper</th> <th>Official code</th> <th>Source</th></tr></thead>\n"
           "<tbody>\n"]
    for r in rows:
        cells = [mark(r["holds"], r["decision"]) + f"<code>{name_breaks(words(r['expectation']))}</code>"
                 + _changed(r["outcome"]),
                 measured_cell(r["outcome"]) if r["has_result"] else "—",
                 span("lr-num", esc(fmt(r["expected"]))) if r["has_result"] else "—",
                 span("lr-num", esc(fmt(r["paper"]))), span("lr-num", esc(fmt(r["official"]))),
                 source_cell(r)]
        note = bool(r["note"])
        out.append(("<tr class=\"lr-has-note\">" if note else "<tr>")
                   + " ".join(f"<td>{c}</td>" for c in cells) + "</tr>\n")
        if note:
            out.append(f'<tr class="lr-note"><td colspan="6">{inline_md(r["note"], resolve)}'
                       "</td></tr>\n")
    out.append("</tbody>\n</table>\n</div>\n")
    return "".join(out)


def outcome_plot(data: SiteData, ref: str, claim, suffix: str = "") -> str:
    """The claim's interval plot (`litrec.site.plots`): each judged outcome against its threshold."""
    st = data.statuses.get(ref + suffix)
    if st is None or not st.outcomes or st.verdict not in JUDGED_VERDICTS:
        return ""
    rows, left = [], 0
    for exp, o in zip(row_expectations(data, claim, suffix), st.outcomes):
        row = row_of(exp, o)
        if row is None:
            left += 1
        else:
            rows.append(row)
    return interval_plot(rows, left, f"{ref + suffix}: each expectation's interval against its threshold")


def _changed(o) -> str:
    if o is None or not o.expectation_changed:
        return ""
    was = o.stored_expectation or "(none: the claim was not checked when the analysis ran)"
    return "<br>" + span("lr-changed", esc(f"expectation changed after the run: was {was}"))


def provenance(prov: dict) -> str:
    """A two-column table of a result's provenance."""
    rows = []
    if prov.get("code_hash"):
        rows.append(("code hash", code(str(prov["code_hash"])[:16])))
    versions = prov.get("versions") or {}
    if versions:
        rows.append(("versions", esc(", ".join(f"{k} {v}" for k, v in versions.items()))))
    git = prov.get("git")
    if isinstance(git, dict) and git.get("commit"):
        dirty = " (with uncommitted changes to analysis/)" if git.get("dirty") else ""
        rows.append(("git commit", code(str(git["commit"])[:12]) + esc(dirty)))
    seeds = prov.get("seeds")
    if isinstance(seeds, list) and seeds:  # the seeds run; `seed` is then the same list again
        rows.append(("seeds", esc(", ".join(fmt(s) for s in seeds))))
    elif "seed" in prov:
        rows.append(("seed", esc(fmt(prov.get("seed")))))
    kept = prov.get("kept")
    if isinstance(kept, dict) and kept.get("summary"):  # not computed by the run that wrote it
        rows.append(("kept", esc(kept["summary"])))
    if prov.get("started"):
        rows.append(("run started", esc(prov["started"])))
    if prov.get("wall_time_s") is not None:
        rows.append(("wall time", esc(f"{fmt(prov['wall_time_s'])} s")))
    dev = prov.get("device") or {}
    plat = prov.get("platform") or {}
    if dev:
        rows.append(("device", esc(device_text(dev, plat))))
    if plat:
        rows.append(("platform", esc(" ".join(str(plat.get(k, "")) for k in ("system", "machine", "python")))))
    if isinstance(prov.get("hermetic"), bool):  # litrec.runs.sandbox
        rows.append(("hermetic", esc("yes: each point in a sandbox of its inputs" if prov["hermetic"]
                                     else "no: not hermetic on this machine (see the notes)")))
    if prov.get("litrec"):
        rows.append(("litrec", esc(prov["litrec"])))
    if prov.get("commit"):
        rows.append(("git commit", code(str(prov["commit"])[:12])
                     + (" (records or code uncommitted)" if prov.get("dirty") else "")))
    if prov.get("signature"):
        sig = {"signed": f"signed by {prov.get('signer') or 'a key'}", "unsigned": "unsigned",
               "bad": f"bad signature: {prov.get('signature_problem') or ''}"}[prov["signature"]]
        rows.append(("signature", esc(sig)))
    return table(["", ""], ([k, v] for k, v in rows)) if rows else ""


def device_text(dev: dict, plat: dict) -> str:
    """The device a result ran on, named once: `cpu (AMD EPYC 7B13)`, `gpu: 2 × NVIDIA H100`."""
    backend = str(dev.get("platform") or "")
    kinds = Counter(str(d) for d in dev.get("devices") or [])
    if any(name.lower() != backend.lower() for name in kinds):  # an accelerator's own name
        named = ", ".join(f"{n} × {name}" if n > 1 else name for name, n in kinds.items())
        return f"{backend}: {named}" if backend else named
    model = str(plat.get("processor") or "").strip()
    backend = backend or "cpu"
    return f"{backend} ({model})" if model and backend == "cpu" else backend


def links_list(data: SiteData, page: str, groups: dict[str, list], incoming: bool,
               claim_targets: bool = True) -> str:
    """Links grouped by relation (outgoing) or inverse relation (incoming), one line per group."""
    order = [r.inverse if incoming else r.name for r in RELATIONS.values()]
    out = []
    for name in sorted(groups, key=lambda n: order.index(n) if n in order else len(order)):
        items = []
        for e in groups[name]:
            if incoming:
                item = ref_link(data, page, e.source)
                t = title_of(data, e.source)
                if t:
                    item += f" ({esc(t)})"
                if e.claim and claim_targets:
                    item += " → " + a(f"#{anchor(e.claim)}", esc(e.claim))
            else:
                item = ref_link(data, page, e.ref)
                t = title_of(data, e.target)
                if t and not e.claim:
                    item += f" ({esc(t)})"
            note = edge_note(data, e)
            if note:
                item += f": <em>{esc(note)}</em>"
            items.append(item)
        out.append(f"<strong>{esc(rel_text(name))}</strong>: " + "; ".join(items))
    return ul(out)


def stored_outcomes(st) -> str:
    """A claim whose expectations changed since the run: the stored ones, as judged."""
    if st is None or st.verdict != "expectation changed" or not st.stored_outcomes:
        return ""
    items = [mark(o.holds, o.decision) + code(o.expectation) + ": " + esc(fmt(o.measured))
             for o in st.stored_outcomes]
    return p(f"Judged against the expectations stored with the result when it ran "
             f"({badge(st.stored_verdict or 'unchecked')}):") + ul(items)
