"""The claims table that `litrec run` and `litrec status` print."""

from __future__ import annotations

from typing import Any

from litrec.commands.common import console
from litrec.formatting import fmt
from litrec.verdicts import ClaimStatus

_STYLE = {"reproduced": "green", "not_reproduced": "red", "stale": "yellow",
          "not_run": "dim", "error": "red"}


def _measured(value: Any, spread: dict | None) -> str:
    """`0.2052 ± 0.0003 (n=3)` for a sweep's mean; the plain value otherwise."""
    if not spread:
        return fmt(value, terminal=True)
    return f"{fmt(value, terminal=True)} ± {fmt(spread.get('std'), terminal=True)} (n={spread.get('n')})"


def print_table(statuses: list[ClaimStatus]) -> None:
    """One row per claim: verdict, measured values, expectations (✓/✗)."""
    from rich.markup import escape
    from rich.table import Table

    out = console()
    table = Table(title=None, show_lines=False)
    for col in ("claim", "analysis", "verdict", "measured", "expected"):
        table.add_column(col, overflow="fold")
    for s in statuses:
        if s.outcomes:
            measured = "\n".join(f"{o.metric} = {_measured(o.measured, s.spread.get(o.metric))}"
                                 for o in s.outcomes)
            expected = "\n".join(
                ("✓ " if o.holds else "✗ ") + o.expectation for o in s.outcomes)
        else:
            measured, expected = "—", "\n".join(s.expected)
        verdict = s.verdict.replace("_", " ")
        if s.rests_on_it:
            verdict += "\nrests on it: " + ", ".join(s.rests_on_it)
        if s.reason and s.verdict != "reproduced":
            verdict += f"\n({s.reason})"
        table.add_row(escape(s.claim), escape(s.analysis or ""),  # record text is not markup
                      f"[{_STYLE.get(s.verdict, '')}]{escape(verdict)}", escape(measured),
                      escape(expected))
    out.print(table)
