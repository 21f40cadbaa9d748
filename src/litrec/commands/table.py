"""The claims table that `litrec run` and `litrec status` print: one line per claim.

Each line holds the claim, its verdict and the numbers that decided it (the
first expectation that fails, else the first that is inconclusive, else the
first); a summary line follows. `--verbose` adds every outcome under its claim:
per-seed values, the interval, the evaluation noise, and an expectation that
changed since the run. Lines are cut to the terminal's width, never wrapped.
"""

from __future__ import annotations

from collections import Counter

from rich.text import Text

from litrec.commands.common import console
from litrec.formatting import fmt
from litrec.judge import Outcome, leaning
from litrec.verdicts import VERDICTS, ClaimStatus

_STYLE = {"reproduced": "green", "not reproduced": "red", "inconclusive": "yellow",
          "expectation changed": "yellow",
          "stale": "yellow", "missing": "dim", "unchecked": "dim", "modified": "red", "error": "red"}
_MARK = {"holds": "✓", "fails": "✗", "inconclusive": "?", "refused": "!"}


def _value(o: Outcome) -> str:
    """`0.2051` for one seed; `0.2051 [0.2043, 0.2059] n=3` over seeds."""
    if o.interval and o.n > 1:
        return f"{fmt(o.measured, True)} [{fmt(o.interval[0], True)}, {fmt(o.interval[1], True)}] n={o.n}"
    return fmt(o.measured, True)


def _deciding(s: ClaimStatus) -> Outcome | None:
    """The outcome that decided: refused, then an unmet precondition, then fails, inconclusive."""
    order = [("refused", None), ("fails", True), ("inconclusive", True), ("fails", False),
             ("inconclusive", False)]
    for decision, precondition in order:
        for o in s.outcomes:
            if o.decision == decision and precondition in (None, o.precondition):
                return o
    return s.outcomes[0] if s.outcomes else None


def _numbers(s: ClaimStatus) -> str:
    """The numbers that decided the verdict, or why there are none."""
    o = _deciding(s)
    if o is None or s.verdict in ("missing", "modified", "unchecked", "error",
                                  "expectation changed"):
        return s.reason or ""
    text = f"{o.metric} {_value(o)}; expected {o.expectation}"
    if o.precondition and o.decision in ("fails", "inconclusive") and s.verdict == "inconclusive":
        text = f"{s.reason}; {o.metric} {_value(o)}"
    elif o.judged and s.verdict in ("not reproduced", "inconclusive"):
        j = o.judged
        text = (f"{j['quantity']} = {fmt(j['mean'], True)} [{fmt(j['interval'][0], True)}, "
                f"{fmt(j['interval'][1], True)}]; expected {o.expectation}")
    if s.verdict == "stale":
        text = f"{s.reason} (last: {text})"
    if s.expectation_changed:
        text = "expectation changed after the run; " + text
    return text


def summary_line(statuses: list[ClaimStatus], profile: str) -> str:
    """`7 claims: 5 reproduced, 1 not reproduced, 1 unchecked (profile paper)`."""
    counts = Counter(s.verdict for s in statuses)
    parts = [f"{counts[v]} {v}" for v in VERDICTS if counts[v]]
    n = len(statuses)
    return f"{n} claim{'s' * (n != 1)}: {', '.join(parts) or 'none'} (profile {profile})"


def print_table(statuses: list[ClaimStatus], profile: str, verbose: bool = False) -> None:
    """One line per claim, then the summary; with `verbose`, every outcome under its claim."""
    out = console()
    width = max(len(s.claim) for s in statuses) if statuses else 5
    for s in statuses:
        line = Text(f"{s.claim:<{width}}  ")
        line.append(f"{s.verdict:<14}", style=_STYLE.get(s.verdict) or None)
        line.append(f"  {_numbers(s)}")
        out.print(line, no_wrap=True, overflow="ellipsis", highlight=False)
        if s.rests_on_it:
            out.print(f"{'':<{width}}  rests on it: {', '.join(s.rests_on_it)}", no_wrap=True,
                      overflow="ellipsis", highlight=False)
        if verbose:
            _outcomes(out, s, width)
    out.print(summary_line(statuses, profile), no_wrap=True, overflow="ellipsis", highlight=False)


def _outcomes(out, s: ClaimStatus, width: int) -> None:
    pad = " " * (width + 2)
    if s.seeds:
        out.print(f"{pad}seeds: {', '.join(map(str, s.seeds))}", highlight=False)
    if not s.outcomes:
        for text in s.expected:  # no result to judge them on yet
            out.print(f"{pad}  {text}", markup=False, highlight=False, soft_wrap=True)
    for o in s.outcomes:
        line = f"{pad}{_MARK.get(o.decision, ' ')} {o.expectation}: {_value(o)}"
        if o.interval and o.n > 1:
            line += f" ({o.method})"
        if o.values and o.n > 1:
            line += f"; per seed {fmt(o.values, True)}"
        if o.noise is not None:
            line += f"; evaluation noise ±{fmt(o.noise, True)}"
        if o.judged:
            j = o.judged
            line += (f"; judged on {j['quantity']} = {fmt(j['mean'], True)} "
                     f"[{fmt(j['interval'][0], True)}, {fmt(j['interval'][1], True)}]")
        if o.decision == "inconclusive":
            line += f"; {o.direction}: {leaning(o)}"
        if o.reason:
            line += f"; {o.reason}"
        out.print(line, markup=False, highlight=False, soft_wrap=True)
        if o.expectation_changed:
            out.print(f"{pad}  expectation changed after the run: was "
                      f"{o.stored_expectation or '(none)'}, now {o.expectation}",
                      markup=False, highlight=False, soft_wrap=True)
