"""Verdicts: each claim's expectations evaluated against its analysis's result.

A sweep's result stores the mean over its points as `metrics`, so expectations
are judged on the aggregate; each status carries the spread of the metrics it
evaluated (`spread`: std, min, max, n).

Verdicts are `reproduced` (every expectation holds), `not_reproduced` (one
fails), `stale` (a result exists but its code, profile or package versions
changed since; the stored numbers are shown but not judged), `not_run` (no
result yet) and `error` (the result lacks a metric the claim names, or its file
is damaged). Whether a result may be judged is asked of `litrec.state`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from litrec.model import Expectation
from litrec.project import Project
from litrec.results import json_line, result_path
from litrec.state import ResultState, result_states


class MissingMetric(KeyError):
    """A claim names a metric its analysis's result does not hold."""


def get_metric(metrics: dict, name: str) -> Any:
    """A metric by dotted name (`k2.loss_trained`); MissingMetric when absent."""
    cur: Any = metrics
    for part in name.split("."):
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            raise MissingMetric(name)
    return cur


class Incomparable(ValueError):
    """A metric whose value cannot be compared as the claim asks (text or a boolean against a number)."""


def _what(v: Any) -> str:
    if isinstance(v, bool):
        return f"the boolean {str(v).lower()}"
    if isinstance(v, str):
        return f"the text {v[:40]!r}"
    if isinstance(v, (int, float)):
        return f"the number {v:g}" if isinstance(v, float) else f"the number {v}"
    return "a list" if isinstance(v, list) else "a mapping"


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _compare(op: str, a: Any, b: Any, exp: Expectation) -> bool:
    """Whether `a op b` holds; Incomparable when the two are not of kinds that compare."""
    if a is None or b is None:  # a NaN, stored as null, or a metric a sweep could not average
        return False
    if isinstance(a, bool) and isinstance(b, bool) and op in ("==", "≈"):
        return a == b
    if isinstance(a, str) and isinstance(b, str) and op == "==":
        return a == b
    if not (_number(a) and _number(b)):
        raise Incomparable(f"{_what(a)} cannot be compared with {_what(b)} by '{op}' "
                           f"(the claim expects {exp.describe()}); the claim and the analysis "
                           "disagree on the metric's type", exp.metric)
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return False
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    if op == ">=":
        return a >= b
    if op == "==":
        return a == b
    tol = max(exp.abs_tol or 0.0, (exp.rel_tol or 0.0) * abs(b))
    return abs(a - b) <= tol


@dataclass
class Outcome:
    """One expectation against one result."""

    expectation: str
    metric: str
    measured: Any
    expected: Any
    holds: bool | None
    paper: Any = None
    official: Any = None
    note: str | None = None
    rel_diff: float | None = None


def evaluate(exp: Expectation, metrics: dict) -> Outcome:
    """Evaluate one expectation; a list-valued metric must hold at every element."""
    measured = get_metric(metrics, exp.metric)
    rhs = get_metric(metrics, exp.ref) if exp.ref is not None else exp.value
    if isinstance(rhs, list) or isinstance(measured, list):
        ms = measured if isinstance(measured, list) else [measured] * len(rhs)
        rs = rhs if isinstance(rhs, list) else [rhs] * len(ms)
        if len(ms) != len(rs):
            raise Incomparable(f"a list of {len(ms)} values cannot be compared element by "
                               f"element with a list of {len(rs)} (the claim expects "
                               f"{exp.describe()})", exp.metric)
        scaled = [r * exp.factor if _number(r) else r for r in rs]
        holds = all(_compare(exp.op, a, b, exp) for a, b in zip(ms, scaled))
        expected: Any = scaled
    else:
        expected = rhs * exp.factor if _number(rhs) else rhs
        holds = _compare(exp.op, measured, expected, exp)
    rel = None
    if isinstance(measured, (int, float)) and isinstance(expected, (int, float)) \
            and not isinstance(measured, bool) and expected:
        rel = (float(measured) - float(expected)) / abs(float(expected))
    return Outcome(exp.describe(), exp.metric, measured, expected, holds,
                   exp.paper, exp.official, exp.note, rel)


@dataclass
class ClaimStatus:
    """One claim's verdict with the outcomes and provenance behind it."""

    claim: str
    title: str
    analysis: str | None
    profile: str
    verdict: str
    measured: dict[str, Any] = field(default_factory=dict)
    expected: list[str] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    reason: str | None = None
    provenance: dict[str, Any] = field(default_factory=dict)
    rests_on_it: list[str] = field(default_factory=list)
    spread: dict[str, dict] = field(default_factory=dict)  # metric -> {std, min, max, n} of a sweep
    warnings: list[str] = field(default_factory=list)  # about its result: a figure missing on disk

    def row(self) -> dict:
        """The status as `litrec status --format json` and `litrec run --format json` print it."""
        return {
            "claim": self.claim,
            "title": self.title,
            "analysis": self.analysis,
            "profile": self.profile,
            "verdict": self.verdict,
            "measured": self.measured,
            "expected": self.expected,
            "outcomes": [o.__dict__ for o in self.outcomes],
            "reason": self.reason,
            "rests_on_it": self.rests_on_it,
            "spread": self.spread,
            "provenance": self.provenance,
            "warnings": self.warnings,
        }


def _provenance(result: dict) -> dict:
    keys = ("code_hash", "versions", "platform", "device", "seed", "started", "wall_time_s",
            "config", "sweep", "litrec")
    return {k: result.get(k) for k in keys if k in result}


def claim_statuses(proj: Project, results_dir: Path, profile: str,
                   only: set[str] | None = None,
                   states: dict[str, ResultState] | None = None) -> list[ClaimStatus]:
    """A status for every checked claim (or those in `only`), in record order.

    `states` holds results whose state is already known (the runner's); the
    rest are decided here, once per analysis.
    """
    checked = [(rec, claim) for rec, claim in proj.claims() if claim.check is not None
               and (only is None or f"{rec.id}#{claim.id}" in only)]
    names = {claim.check.analysis for _, claim in checked}
    known = dict(states or {})
    known.update(result_states(proj.registry, results_dir, sorted(names - set(known)), profile))
    out = [_status(rec, claim, known[claim.check.analysis], profile, Path(results_dir))
           for rec, claim in checked]
    _flag_dependents(proj, out)
    return out


def _metric_at(results_dir: Path, name: str, profile: str, metric: str | None) -> str:
    """`results/a/p.json:LINE: metrics.NAME`: where a stored metric is (None: the metrics)."""
    path = result_path(results_dir, name, profile)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    if metric is None:
        return f"{path}:{json_line(text, ('metrics',))}: metrics"
    return f"{path}:{json_line(text, ('metrics', *metric.split('.')))}: metrics.{metric}"


def _status(rec, claim, state: ResultState, profile: str, results_dir: Path) -> ClaimStatus:
    ref, name = f"{rec.id}#{claim.id}", claim.check.analysis
    st = ClaimStatus(ref, claim.title, name, profile, "not_run",
                     expected=[e.describe() for e in claim.check.expect],
                     warnings=list(state.warnings))
    if state.state == "missing":
        st.reason = f"{state.reason}; run: litrec run {ref} --profile {profile}"
        return st
    if state.state == "damaged":
        st.verdict, st.reason = "error", state.reason
        return st
    result = state.result or {}
    st.provenance = _provenance(result)
    metrics = result.get("metrics", {})
    try:
        st.outcomes = [evaluate(e, metrics) for e in claim.check.expect]
    except MissingMetric as exc:
        st.verdict = "error"
        st.reason = (f"{_metric_at(results_dir, name, profile, None)}: the result of '{name}' "
                     f"has no metric {exc.args[0]!r}; rename the claim's metric, or rerun the "
                     "analysis with --force if it should have it")
        return st
    except Incomparable as exc:
        st.verdict = "error"
        st.reason = f"{_metric_at(results_dir, name, profile, exc.args[1])}: {exc.args[0]}; not judged"
        return st
    st.measured = {o.metric: o.measured for o in st.outcomes}
    spread = result.get("spread") or {}
    st.spread = {o.metric: spread[o.metric] for o in st.outcomes if o.metric in spread}
    if not state.current:
        st.verdict, st.reason = "stale", state.reason
    else:
        st.verdict = "reproduced" if all(o.holds for o in st.outcomes) else "not_reproduced"
    return st


def _flag_dependents(proj: Project, statuses: list[ClaimStatus]) -> None:
    """Records resting on a claim that is not reproduced: users, and theories they source."""
    for st in statuses:
        if st.verdict != "not_reproduced":
            continue
        rid, _, cid = st.claim.partition("#")
        users = sorted({e.source for e in proj.edges
                        if e.target == rid and e.claim == cid and e.rel in ("uses", "supports")})
        theories = sorted({e.target for e in proj.edges
                           if e.source in users and e.rel == "source_of"})
        st.rests_on_it = users + [t for t in theories if t not in users]


def result_problems(statuses: list[ClaimStatus]) -> tuple[list[str], list[str]]:
    """The distinct errors (a damaged or incomparable result) and warnings behind the verdicts."""
    errors = [s.reason for s in statuses if s.verdict == "error" and s.reason]
    warnings = [w for s in statuses for w in s.warnings]
    return list(dict.fromkeys(errors)), list(dict.fromkeys(warnings))
