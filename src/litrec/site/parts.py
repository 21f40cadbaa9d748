"""Small pieces shared by the page generators: badges, outcome tables, link lists."""

from __future__ import annotations

from typing import Any

from litrec.model import RELATIONS
from litrec.site.data import SiteData, anchor
from litrec.site.text import code, fmt, inline

VERDICT_TEXT = {
    "reproduced": "reproduced", "not_reproduced": "not reproduced", "stale": "stale",
    "not_run": "not run", "error": "error", "unchecked": "not checked",
    "current": "current",
}


def badge(value: str, family: str = "v") -> str:
    """A small coloured label; `value` is one of a fixed set, its class derived from it."""
    text = VERDICT_TEXT.get(value, value) if family == "v" else value
    cls = "".join(c if c.isalnum() else "-" for c in value.lower())
    return f'<span class="lr-badge lr-{family}-{cls}">{inline(text)}</span>'


def verdict_of(data: SiteData, ref: str) -> str:
    st = data.statuses.get(ref)
    return st.verdict if st is not None else "unchecked"


def rel_text(rel: str) -> str:
    return rel.replace("_", " ")


def ref_link(data: SiteData, page: str, ref: str, text: str | None = None) -> str:
    url = data.url(page, ref)
    label = inline(text if text is not None else ref)
    return f"[{label}]({url})" if url else label


def analysis_link(data: SiteData, page: str, name: str) -> str:
    url = data.analysis_url(page, name)
    return f"[{code(name)}]({url})" if url else code(name)


def title_of(data: SiteData, rid: str) -> str | None:
    rec = data.project.records.get(rid)
    return getattr(rec, "title", None) if rec is not None else None


def edge_note(data: SiteData, e) -> str | None:
    """The note written on the link (or bibliography entry) an edge comes from."""
    rec = data.project.records.get(e.source)
    try:
        field, idx = e.loc[0], e.loc[1]
        if field in ("links", "bibliography"):
            return getattr(rec, field)[idx].note
    except (IndexError, TypeError, AttributeError):
        pass
    return None


def cell(lines: list[str]) -> str:
    """Several lines in one table cell."""
    return "<br>".join(lines) if lines else "—"


def outcome_rows(data: SiteData, ref: str, claim) -> list[dict[str, Any]]:
    """One row per expectation: its text, measured, expected, paper, official, holds, note."""
    st = data.statuses.get(ref)
    judged = st is not None and st.verdict in ("reproduced", "not_reproduced")
    rows = []
    expects = claim.check.expect if claim.check else []
    outcomes = st.outcomes if st is not None else []
    for i, exp in enumerate(expects):
        o = outcomes[i] if i < len(outcomes) else None
        rows.append({
            "expectation": exp.describe(),
            "metric": exp.metric,
            "measured": None if o is None else o.measured,
            "expected": None if o is None else o.expected,
            "has_result": o is not None,
            "holds": o.holds if (o is not None and judged) else None,
            "paper": exp.paper,
            "official": exp.official,
            "note": exp.note,
        })
    return rows


def mark(holds: bool | None) -> str:
    if holds is None:
        return ""
    return '<span class="lr-ok">✓</span> ' if holds else '<span class="lr-fail">✗</span> '


def outcome_table(data: SiteData, ref: str, claim) -> str:
    rows = outcome_rows(data, ref, claim)
    if not rows:
        return ""
    out = ["| Expectation | Measured | Expected | Paper | Official code | Note |",
           "|---|---|---|---|---|---|"]
    for r in rows:
        out.append("| " + " | ".join([
            mark(r["holds"]) + code(r["expectation"]),
            inline(fmt(r["measured"])) if r["has_result"] else "—",
            inline(fmt(r["expected"])) if r["has_result"] else "—",
            inline(fmt(r["paper"])),
            inline(fmt(r["official"])),
            inline(r["note"]) if r["note"] else "",
        ]) + " |")
    return "\n".join(out) + "\n"


def provenance(prov: dict, indent: str = "") -> str:
    """A two-column table of a result's provenance."""
    rows = []
    if prov.get("code_hash"):
        rows.append(("code hash", code(str(prov["code_hash"])[:16])))
    versions = prov.get("versions") or {}
    if versions:
        rows.append(("versions", inline(", ".join(f"{k} {v}" for k, v in versions.items()))))
    if "seed" in prov:
        rows.append(("seed", inline(fmt(prov.get("seed")))))
    if prov.get("started"):
        rows.append(("run started", inline(prov["started"])))
    if prov.get("wall_time_s") is not None:
        rows.append(("wall time", inline(f"{fmt(prov['wall_time_s'])} s")))
    dev = prov.get("device") or {}
    if dev:
        rows.append(("device", inline(f"{dev.get('platform', '')} {', '.join(dev.get('devices') or [])}")))
    plat = prov.get("platform") or {}
    if plat:
        rows.append(("platform", inline(" ".join(str(plat.get(k, "")) for k in
                                                 ("system", "machine", "python")))))
    if prov.get("litrec"):
        rows.append(("litrec", inline(prov["litrec"])))
    if not rows:
        return ""
    lines = ["| | |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows]
    return "\n".join(indent + line for line in lines) + "\n"


def links_list(data: SiteData, page: str, groups: dict[str, list], incoming: bool) -> str:
    """Bullets of links grouped by relation (outgoing) or inverse relation (incoming)."""
    order = [r.inverse if incoming else r.name for r in RELATIONS.values()]
    out = []
    for name in sorted(groups, key=lambda n: order.index(n) if n in order else len(order)):
        items = []
        for e in groups[name]:
            if incoming:
                target = ref_link(data, page, e.source)
                t = title_of(data, e.source)
                item = target + (f" ({inline(t)})" if t else "")
                if e.claim:
                    item += " → " + f"[{inline(e.claim)}](#{anchor(e.claim)})"
            else:
                item = ref_link(data, page, e.ref)
                t = title_of(data, e.target)
                if t and not e.claim:
                    item += f" ({inline(t)})"
            note = edge_note(data, e)
            if note:
                item += f": *{inline(note)}*"
            items.append(item)
        out.append(f"- **{rel_text(name)}**: " + "; ".join(items))
    return "\n".join(out) + "\n" if out else ""


def indent(text: str, by: str = "    ") -> str:
    return "\n".join(by + line if line.strip() else "" for line in text.split("\n"))
