"""A claim's rows, and the one way a row is judged against a stored result.

A claim checked by an analysis is read in up to two rows: its own (`""`: the
paper's expectations, the official code's, and every precondition) and, where
litrec adds tests of its own, `+ext` (`litrec.records.criteria.EXTENSION`),
judged beside it without touching its verdict (`claim_rows`, `is_extension`).

`judge(expect, result)` is the judgement every surface reaches: `litrec status`,
`litrec run`, the export and the site through `litrec.verdicts.claims` (a row
against its current result, and against the expectations that result stored
when its expectations changed since), and `litrec diff` (each side against the
expectations its result stored). It evaluates each expectation on the result's
per-seed metrics and evaluation noise (`litrec.verdicts.judge.evaluate`) and
decides the row's verdict from the outcomes (`claim_verdict`); what the row's
expectations are, and what a caller does with a result that cannot be judged
(stale, missing, lacking a metric), stays with the caller.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from litrec.records.criteria import EXTENSION
from litrec.verdicts.judge import Outcome, claim_verdict, evaluate


def is_extension(e) -> bool:
    """Judged in the claim's extension row: litrec's own test. A precondition never is, whatever
    its source: it says whether the run tested the claim at all, so it stays with the claim."""
    return e.extension and not e.precondition


def claim_rows(judged: list) -> list[tuple[str, list]]:
    """A claim's rows from its expectations judged in a profile: `("", its own)` (the paper's,
    the official code's, and any precondition), then `("+ext", litrec's extensions)` if any."""
    ext = [e for e in judged if is_extension(e)]
    return [("", [e for e in judged if not is_extension(e)])] + ([(EXTENSION, ext)] if ext else [])


def row_share(expect: list, extension: bool) -> list:
    """The share of `expect` (e.g. the expectations a result stored) that belongs to one row:
    litrec's extensions with `extension`, the others without. Each goes by its own row, as its
    criterion says (`litrec.records.criteria.criterion`), not by whether the claim still has
    it: an extension whose tolerance was edited since stays in the extension row, where the
    edit is shown, and never reaches the claim's own."""
    return [e for e in expect if is_extension(e) == extension]


def seed_metrics(result: dict) -> tuple[list[dict], list | None]:
    """The per-seed metrics a result's expectations are judged on, and the seeds.

    A result whose sweep varies only the seed is judged seed by seed; any other
    result (one run, or a sweep over other settings) on its stored metrics.
    """
    sweep = result.get("sweep")
    points = result.get("points")
    if isinstance(sweep, dict) and list(sweep) == ["seed"] and isinstance(points, list) \
            and points and all(isinstance(p, dict) and isinstance(p.get("metrics"), dict)
                               for p in points):
        return [p["metrics"] for p in points], list(sweep["seed"])
    return [result.get("metrics", {})], None


@dataclass
class Judgement:
    """One row's expectations judged against one result."""

    outcomes: list[Outcome]
    verdict: str
    reason: str | None           # why, for anything but reproduced and not reproduced
    direction: str | None        # inconclusive: likely reproduced, likely not reproduced, undecided
    seeds_needed: int | None     # inconclusive: about how many seeds would decide it


def judge(expect: list, result: dict, where: Callable[[Outcome], str] | None = None) -> Judgement:
    """The verdict `result` gives the expectations `expect` (one row of a claim): each judged on
    the interval over the result's seeds, with its evaluation noise; `where(outcome)` locates a
    refused outcome's metric for the reason (default: the metric's name). Raises
    `litrec.verdicts.judge.MissingMetric` when the result lacks a metric an expectation names.
    """
    seeds, _ = seed_metrics(result)
    noise: Any = result.get("noise")
    outcomes = [evaluate(e, seeds, noise if isinstance(noise, dict) else {}) for e in expect]
    verdict, reason, direction, needed = claim_verdict(outcomes, where or (lambda o: o.metric))
    return Judgement(outcomes, verdict, reason, direction, needed)
