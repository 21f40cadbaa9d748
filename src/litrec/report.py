"""Terminal output of `litrec run` and `litrec status`: the claims table and JSON rows.

`console()` gives every command the same rich Console: colour and styles follow
the terminal, and `NO_COLOR` (https://no-color.org) turns all of them off.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from litrec.verdicts import ClaimStatus, claim_statuses


def console(stderr: bool = False):
    from rich.console import Console

    plain = bool(os.environ.get("NO_COLOR"))
    return Console(stderr=stderr, color_system=None if plain else "auto", no_color=plain,
                   highlight=not plain)


def _fmt(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return str(v).lower()
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, list):
        if len(v) > 4:
            return "[" + ", ".join(_fmt(x) for x in v[:3]) + f", … ({len(v)})]"
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    return str(v)


def _measured(value: Any, spread: dict | None) -> str:
    """`0.2052 ± 0.0003 (n=3)` for a sweep's mean; the plain value otherwise."""
    if not spread:
        return _fmt(value)
    return f"{_fmt(value)} ± {_fmt(spread.get('std'))} (n={spread.get('n')})"


def row(s: ClaimStatus) -> dict:
    return {
        "claim": s.claim,
        "title": s.title,
        "analysis": s.analysis,
        "profile": s.profile,
        "verdict": s.verdict,
        "measured": s.measured,
        "expected": s.expected,
        "outcomes": [o.__dict__ for o in s.outcomes],
        "reason": s.reason,
        "rests_on_it": s.rests_on_it,
        "spread": s.spread,
        "provenance": s.provenance,
    }


def print_table(statuses: list[ClaimStatus]) -> None:
    from rich.table import Table

    out = console()
    table = Table(title=None, show_lines=False)
    for col in ("claim", "analysis", "verdict", "measured", "expected"):
        table.add_column(col, overflow="fold")
    style = {"reproduced": "green", "not_reproduced": "red", "stale": "yellow",
             "not_run": "dim", "error": "red"}
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
        table.add_row(s.claim, s.analysis or "", f"[{style.get(s.verdict, '')}]{verdict}",
                      measured, expected)
    out.print(table)


def cmd_status(args) -> int:
    from litrec.cli import load_valid_project

    proj = load_valid_project(args)
    if proj is None:
        return 1
    statuses = claim_statuses(proj, args.results, args.profile)
    if args.format == "json":
        print(json.dumps([row(s) for s in statuses], indent=2, default=str))
    else:
        print_table(statuses)
    if args.check_current:
        behind = [s for s in statuses if s.verdict in ("stale", "not_run", "error")]
        for s in behind:
            print(f"litrec status: {s.claim} is {s.verdict.replace('_', ' ')}: {s.reason}",
                  file=sys.stderr)
        return 1 if behind else 0
    return 0
