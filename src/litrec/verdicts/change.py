"""What a number did between the two sides of `litrec diff`: the change and the change in percent.

For each metric a claim's expectations read that both sides measured, its mean on each side
(with n), the change (new − old) and that change in percent of the old value's magnitude
(none where the old value is 0, or either is not a finite number): in the JSON of
`litrec diff` (`metric_changes`), after each changed number of its text (`change_words`),
and as the rows of `--format csv|md` (`metric_table`).
"""

from __future__ import annotations

import json
import math
from typing import Any


def _numeric(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def change_of(old: Any, new: Any) -> tuple[float | None, float | None]:
    """(new − old, that change in percent of |old|) for two finite numbers; (None, None) where
    either is not one (a boolean, a list, missing), the percent None where old is 0."""
    if not (_numeric(old) and _numeric(new)):
        return None, None
    change = new - old
    return change, (100 * change / abs(old) if old else None)


def change_words(old: Any, new: Any) -> str:
    """`, change +0.298 (+148%)` between two numbers that differ; empty otherwise."""
    change, percent = change_of(old, new)
    if not change:
        return ""
    return f", change {change:+.4g}" + (f" ({percent:+.3g}%)" if percent is not None else "")


def metric_changes(old: list[dict], new: list[dict]) -> list[dict]:
    """Each metric both sides' outcomes measured (once, in the new side's order of
    expectations): its mean on each side with n, the change (new − old) and the change in
    percent of |old|."""
    before = {o["metric"]: o for o in reversed(old) if "mean" in o and "metric" in o}
    out, seen = [], set()
    for o in new:
        m = o.get("metric")
        if m in seen or m not in before or "mean" not in o:
            continue
        seen.add(m)
        was = before[m]
        change, percent = change_of(was["mean"], o["mean"])
        out.append({"metric": m, "old": was["mean"], "new": o["mean"], "old_n": was.get("n"),
                    "new_n": o.get("n"), "change": change, "percent": percent})
    return out


DIFF_TABLE = ("claim", "verdict", "metric", "old", "new", "change", "change %")


def metric_table(diffs: list, raw: bool = False, every: bool = False) -> list[list[str]]:
    """The rows of `litrec diff --format csv|md` (`DIFF_TABLE`) of `diffs` (a
    `litrec.verdicts.diff.ClaimDiff` each): a row per metric of each claim
    shown that both sides measured and that changed (`every`: each one), else one row for the
    claim's verdicts alone; numbers in full for a spreadsheet (`raw`), else as the terminal
    shows them."""
    def number(v: Any, sign: str = "") -> str:
        if v is None:
            return ""
        if raw or not isinstance(v, float):
            return (str(v).lower() if isinstance(v, bool) else
                    f"{v:{sign}}" if _numeric(v) else json.dumps(v, default=str))
        return f"{v:{sign}.4g}"

    rows = []
    for d in diffs:
        verdict = d.new.verdict if d.old.verdict == d.new.verdict else f"{d.old.verdict} → {d.new.verdict}"
        shown = [m for m in metric_changes(d.old.outcomes, d.new.outcomes) if every or m["old"] != m["new"]]
        rows += [[d.claim, verdict, m["metric"], number(m["old"]), number(m["new"]),
                  number(m["change"], "+"), number(m["percent"], "+")] for m in shown] \
            or [[d.claim, verdict, "", "", "", "", ""]]
    return rows
