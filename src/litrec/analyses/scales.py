"""The scales a project's claims are read at: profiles, smallest first, the last the paper's own.

`litrec status`, the export and the site show each claim's verdict at every
scale side by side; the headline is the last scale (the paper's own number of
steps and seeds) where any analysis has a result at it, else the first. The
project declares its scales; litrec knows no profile name of any one paper.

- `scales:` in `analysis/registry.yaml` names them, smallest first
  (`scales: [paper, paper_full]`): a non-empty list of distinct profile names,
  each one some analysis's `PROFILES` declares (checked where every analysis's
  PROFILES can be read from its source, a non-empty literal mapping; `declared`);
  a problem is a located error of the registry, and the rule below applies instead.
- Without it, the scales are the profiles that two analyses or more declare
  (the one analysis's, in a project of one), `quick` excepted: the
  contract's profile for the tests, never a scale of the paper. A profile only
  one analysis of several declares is that analysis's variant (another token
  format, another data family), not a scale. They are ordered as the analyses
  declare them, each `PROFILES` smallest first: a profile comes after every
  profile an analysis declares before it; where that leaves a choice, or two
  analyses disagree (a warning, `contrary`), the one declared first, in
  registry order, comes first.
- A project where neither gives one (no analysis, or none shares a profile)
  reads its claims at `paper`, the profile the contract asks of every analysis.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

KEY = "scales"  # the registry's key for them: not an analysis name
TESTS = "quick"  # the contract's profile for the tests (seconds on a CPU)
FALLBACK = ("paper",)  # the contract's profile with the paper's settings
NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_]*$")  # as `litrec run --profile` takes them


def default_scales(orders: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The scales of a project whose analyses declare `orders` (each analysis's PROFILES in
    the order it lists them, in registry order), as the module docstring says."""
    counts: dict[str, int] = {}
    for order in orders:
        for name in dict.fromkeys(order):
            counts[name] = counts.get(name, 0) + 1
    least = 1 if len(orders) == 1 else 2
    chosen = [n for n in counts if counts[n] >= least and n != TESTS]  # first declaration order
    before: dict[str, set[str]] = {n: set() for n in chosen}
    for order in orders:
        mine = [n for n in order if n in before]
        for i, name in enumerate(mine):
            before[name].update(m for m in mine[:i] if m != name)
    out: list[str] = []
    while len(out) < len(chosen):
        left = [n for n in chosen if n not in out]
        ready = [n for n in left if before[n] <= set(out)]
        out.append((ready or left)[0])  # a disagreement: the first declared goes first
    return tuple(out) or FALLBACK


def contrary(orders: Mapping[str, Sequence[str]], scales: Iterable[str]) -> list[tuple[str, str, str, str]]:
    """`(analysis, other, a, b)`, at most one for each analysis, that declares scale `a` before
    `b` where an earlier one (`other`, in registry order) declares `b` before `a`."""
    wanted = set(scales)
    first: dict[tuple[str, str], str] = {}
    out: list[tuple[str, str, str, str]] = []
    for name, order in orders.items():
        mine = [n for n in dict.fromkeys(order) if n in wanted]
        pairs = [(a, b) for i, a in enumerate(mine) for b in mine[i + 1:]]
        clash = next(((a, b) for a, b in pairs if (b, a) in first), None)
        if clash is not None:
            out.append((name, first[clash[1], clash[0]], *clash))
        for pair in pairs:
            first.setdefault(pair, name)
    return out


def declared(value: Any, profiles: set[str] | None) -> tuple[tuple[str, ...] | None, list[tuple[tuple, str]]]:
    """The scales the registry's `scales:` value names, and its problems as `(loc, message)`,
    `loc` the place under `scales` (`()` the key itself, `(1,)` its second item); `profiles`:
    every profile the analyses declare (None: some analysis's are not known, so names go
    unchecked). Scales with a problem are None: the default applies."""
    example = "(scales: [small, full], smallest first, the paper's own last)"
    if not isinstance(value, list) or not value:
        found = "an empty list" if isinstance(value, list) else f"{type(value).__name__} {value!r:.60}"
        return None, [((), f"must be a list of the analyses' profile names {example}; found {found}. "
                           f"'{KEY}' is the registry's list of scales, not an analysis name")]
    problems: list[tuple[tuple, str]] = []
    seen: set[str] = set()
    for i, name in enumerate(value):
        if not isinstance(name, str) or not NAME_RE.match(name):
            problems.append(((i,), f"{name!r:.60} is not a profile name (lower-case letters, digits "
                                   "and '_', as the analyses' PROFILES name them)"))
        elif name in seen:
            problems.append(((i,), f"'{name}' is named twice; name each scale once, smallest first"))
        elif profiles is not None and name not in profiles:
            close = difflib.get_close_matches(name, sorted(profiles), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            problems.append(((i,), f"no analysis declares the profile '{name}' (their PROFILES: "
                                   f"{', '.join(sorted(profiles)) or 'none'}){hint}"))
        if isinstance(name, str):
            seen.add(name)
    return (None if problems else tuple(value)), problems
