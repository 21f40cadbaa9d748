"""A verdict's reason on the site: one plain sentence, the statistics behind it apart."""

from __future__ import annotations

from collections import Counter

from litrec.site.claim_pieces import badge
from litrec.site.stored_html import esc, span
from litrec.util.formatting import fmt
from litrec.verdicts.judge import JUDGED_VERDICTS, deciding


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def plain_reason(st) -> tuple[str, str]:
    """A verdict's reason as (one plain sentence, the statistics behind it).

    The sentence says what a researcher needs: which expectation decided it (the one the judge
    marked, as the terminal and the export name it) and, for an unsettled one, which way it
    leans. The second part (shown folded) keeps the judge's own wording: intervals, the judged
    quantity, how many seeds would likely decide it, and the count of expectations by outcome,
    named as such.
    """
    if st is None:
        return "", ""
    if st.verdict not in JUDGED_VERDICTS or not st.outcomes:
        return (st.reason or ""), ""
    outs = st.outcomes
    seeds = max((o.n for o in outs), default=1)
    over = f", over {_plural(seeds, 'seed')}" if seeds > 1 else ", from one run"
    tally = Counter(o.decision for o in outs)
    counted = ", ".join(f"{tally[d]} {w}" for d, w in (("holds", "hold"), ("fails", "fail"),
                                                        ("inconclusive", "unsettled"),
                                                        ("refused", "refused")) if tally.get(d))
    detail = f"Per expectation: {counted} (of {len(outs)})."
    decided = deciding(outs)
    why = decided.deciding if decided is not None else None
    if decided is not None and why in ("precondition failed", "precondition undecided"):
        said = f"The run did not reach the set-up the claim needs ({decided.expectation} " + (
            "fails" if why == "precondition failed" else "is unsettled") + \
            "), so this scale cannot judge the claim."
        return said, " ".join(x for x in (detail, st.reason or "") if x)
    if st.verdict == "reproduced":
        return (f"Its one expectation holds{over}." if len(outs) == 1
                else f"All {len(outs)} expectations hold{over}."), ""
    if st.verdict == "not reproduced":
        failed = [o for o in outs if o.decision == "fails"]
        if decided is None or why != "failed":
            return (st.reason or ""), detail
        o = decided
        more = f" ({_plural(len(failed) - 1, 'other expectation')} also fail)" if len(failed) > 1 \
            else ""
        said = f"{o.expectation} fails: {fmt(o.measured)} measured{over}{more}."
        stats = [f"{x.expectation}: {fmt(x.measured)}" + (
            f", 95% interval [{fmt(x.interval[0])}, {fmt(x.interval[1])}] over {x.n} seeds"
            if x.interval and x.n > 1 else "") + (f"; {x.reason}" if x.reason else "")
            for x in failed]
        return said, " ".join([detail] + [f"{t}." for t in stats])
    unsure = [o for o in outs if o.decision == "inconclusive"]
    lean = {"likely reproduced": "; it leans towards reproduced",
            "likely not reproduced": "; it leans towards not reproduced",
            "undecided": "; it leans neither way"}.get(st.direction or "", "")
    names = ", ".join(o.expectation for o in unsure[:2]) + (
        f" and {_plural(len(unsure) - 2, 'other')}" if len(unsure) > 2 else "")
    said = (f"Not settled{over}: {names} {'is' if len(unsure) == 1 else 'are'} too close to "
            f"{'its threshold' if len(unsure) == 1 else 'their thresholds'} to call{lean}.")
    return said, " ".join(x for x in (detail, st.reason or "") if x)


def reason_cell(st) -> str:
    """A verdict's badge, its plain reason under it, and the statistics folded under "how it was
    decided" (`plain_reason`)."""
    if st is None:
        return badge("unchecked")
    said, stats = plain_reason(st)
    out = badge(st.verdict)
    if said:
        out += "<br>" + span("lr-reason", esc(said))
    if stats:
        out += ('<details class="lr-more"><summary>how it was decided</summary>'
                + span("lr-reason", esc(stats)) + "</details>")
    return out + how_cell(st)


def how_cell(st) -> str:
    """How the verdict was reached, where anything but pre-registration stands behind it
    (`litrec.verdicts.events`): the line saying an event changed the verdict, the marks (post
    hoc criteria, seeds added after looking) and the events folded under them; empty otherwise."""
    out = ""
    if getattr(st, "through", None):
        out += "<br>" + span("lr-reason", esc(st.through))
    post_hoc = getattr(st, "post_hoc", [])
    if post_hoc:
        out += "<br>" + badge("post hoc", "r") + " " + span("lr-reason", esc(
            f"{len(post_hoc)} of {len(st.outcomes)} criteria committed after the claim was first judged"))
    if getattr(st, "seeds_after_looking", False):
        out += "<br>" + badge("seeds added after looking", "r")
    events = getattr(st, "events", [])
    if events:
        items = "".join(f"<li>{esc(e['text'])}</li>" for e in events)
        out += (f'<details class="lr-more"><summary>{_plural(len(events), "event")} of its protocol'
                f"</summary><ul>{items}</ul></details>")
    return out
