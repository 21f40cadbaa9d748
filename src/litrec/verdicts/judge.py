"""Judging one expectation on a result: on the interval over seeds, not on a point.

For each seed the judge computes the quantity the expectation's operator constrains (its row
in `litrec.records.operators`): the metric itself against a number (`loss < 0.3`); the paired
difference `loss_trained − 0.8 × loss_gd` against another metric, compared with 0; for `≈`
the difference in units of the tolerance, which must lie in [−1, 1]; for `between` where the
metric sits between two others, `(metric − low) / (high − low)`, 0 at `low` and 1 at `high`.

The 95% interval of that quantity's mean over seeds (`litrec.verdicts.stats`) decides:
`holds` when the whole interval satisfies the expectation, `fails` when the
whole interval violates it, `inconclusive` when it straddles, with the number
of seeds that would decide at the spread seen and which way they would likely
decide it (`direction`: the side of the threshold the mean sits on). One seed is a degenerate
interval: the point decides, as it always did. A comparison that makes no
sense (a boolean or a text against a number) is `refused`, with the reason. A row's verdict
(`claim_verdict`) marks the outcome that decided it and why (`Outcome.deciding`), which every
surface shows instead of choosing again.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from litrec.records.operators import COMPARISONS, Comparison, operator
from litrec.util.formatting import fmt
from litrec.verdicts.stats import Summary, few_seeds, few_seeds_short, seeds_needed, summarize

if TYPE_CHECKING:
    from litrec.records.expectation import Expectation

DECISIONS = ("holds", "fails", "inconclusive", "refused")
# the verdicts the judge reaches on a current result's numbers (`claim_verdict`, error aside)
JUDGED_VERDICTS = ("reproduced", "not reproduced", "inconclusive")


class MissingMetric(KeyError):
    """A claim names a metric its analysis's result does not hold."""


class Incomparable(ValueError):
    """A comparison that makes no sense (the outcome is `refused`); the message says why."""


def get_metric(metrics: dict, name: str) -> Any:
    """A metric by dotted name (`k2.loss_trained`); MissingMetric when absent."""
    cur: Any = metrics
    for part in name.split("."):
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            raise MissingMetric(name)
    return cur


@dataclass
class Outcome:
    """One expectation against one result, with the numbers that decided it."""

    expectation: str
    metric: str
    measured: Any                      # the mean over seeds (the value itself for one seed)
    expected: Any                      # the other side, in the metric's units (its mean)
    holds: bool | None                 # None: inconclusive or refused
    decision: str = "holds"            # holds, fails, inconclusive, refused
    values: list | None = None         # the metric, one value per seed
    mean: Any = None
    interval: list | None = None       # 95% interval of the metric's mean over seeds
    n: int = 1
    method: str = "single seed"
    judged: dict | None = None         # the paired quantity, when it is not the metric itself
    seeds_needed: int | None = None
    noise: Any = None                  # evaluation noise of the metric (standard error)
    reason: str | None = None
    paper: Any = None
    official: Any = None
    note: str | None = None
    rel_diff: float | None = None
    expectation_changed: bool = False
    stored_expectation: str | None = None
    precondition: bool = False         # a precondition of the run, not the claim itself
    direction: str | None = None       # inconclusive: likely holds, likely fails or undecided
    ref_values: list | None = None     # the other side (ref × factor), one value per seed
    ref: str | None = None             # what the other side is: `0.8 × k2.loss_gd`
    threshold: float | None = None     # what the judged quantity's mean is compared with
    source: dict | None = None         # where the expectation comes from (`Source`), as written
    registration: dict | None = None   # committed before its profile's first result? (`registration`)
    deciding: str | None = None        # why it decides its row's verdict (`DECIDING`); None: it does not


def _what(v: Any) -> str:
    """A value as a reader names it: `the text 'ten'`, `the boolean true`, `a mapping`."""
    if isinstance(v, bool):
        return f"the boolean {str(v).lower()}"
    if isinstance(v, str):
        return f"the text {v[:40]!r}"
    return "a list" if isinstance(v, list) else "a mapping" if isinstance(v, dict) else repr(v)


def _number(v: Any, what: str) -> float | None:
    """`v` as a float; None for a NaN or null; Incomparable for a boolean or a text."""
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise Incomparable(f"{what} is {_what(v)}, not a number; litrec does not compare it "
                           "with one (the claim and the analysis disagree on the metric's type)")
    x = float(v)
    return None if math.isnan(x) else x


DIRECTIONS = ("likely holds", "likely fails", "undecided")


def likely_direction(s: Summary, op: str, t: float, needed: int | None) -> str:
    """Which way more seeds would likely decide an inconclusive `mean(q) op t`, at the spread seen.

    The side of the threshold the mean sits on (`Comparison.lean`); `undecided` when it sits on
    the threshold or no number of seeds (up to `seeds_needed`'s limit) would clear it.
    """
    if needed is None:
        return "undecided"
    return _comparison(op).lean(s.mean, t)


def _comparison(op: str) -> Comparison:
    """The comparison `op` names; ValueError naming it for none (a programming error: the
    operators' rules name only comparisons)."""
    if op not in COMPARISONS:
        raise ValueError(op)
    return COMPARISONS[op]


def decide(s: Summary, op: str, t: float) -> tuple[str, int | None]:
    """holds / fails / inconclusive of `mean(q) op t` on the interval of q (`op` one of
    `litrec.records.operators.COMPARISONS`), and the seeds that would likely decide it."""
    rule = _comparison(op)
    d = rule.decide(s.low, s.high, t)
    return d, (seeds_needed(s, rule.edge(s.mean, t)) if d == "inconclusive" else None)


def _per_seed(exp: Expectation, seeds: list[dict]) -> tuple[list, list, str, str, float]:
    """(metric per seed, judged quantity per seed, its name, comparison, threshold) for scalar
    metrics: the quantity, its name and its rule are its operator's (`litrec.records.operators`)."""
    row = operator(exp.op)
    quantity, rule = cast(Callable, row.quantity), cast(Callable, row.rule)
    ms: list[float | None] = []
    qs: list[float | None] = []
    for metrics in seeds:
        a = _number(get_metric(metrics, exp.metric), f"metric '{exp.metric}'")
        ms.append(a)
        other = _other_side(exp, metrics, row.positional)
        qs.append(None if a is None or None in other else quantity(exp, a, other))
    op, t = rule(exp)
    return ms, qs, row.judged_name(exp), op, t


def _other_side(exp: Expectation, metrics: dict, positional: bool) -> tuple[float | None, ...]:
    """At one seed: low and high (a positional operator), else the right-hand side times `factor`."""
    if positional:  # then low and high are given (`Expectation._one_side`)
        return (_number(get_metric(metrics, cast(str, exp.low)), f"metric '{exp.low}'"),
                _number(get_metric(metrics, cast(str, exp.high)), f"metric '{exp.high}'"))
    rhs = get_metric(metrics, exp.ref) if exp.ref is not None else exp.value
    b = _number(rhs, f"metric '{exp.ref}'" if exp.ref is not None else "the expected value")
    return (None if b is None else b * exp.factor,)


def _ref_values(exp: Expectation, seeds: list[dict]) -> list | None:
    """The other side per seed (`ref` × `factor`) over several seeds, when it is a number."""
    if exp.ref is None or len(seeds) < 2:
        return None
    vals = [get_metric(m, exp.ref) for m in seeds]
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
        return [v * exp.factor for v in vals]
    return None


def _ref(exp: Expectation) -> str | None:
    if exp.ref is None:
        return None
    return exp.ref if exp.factor == 1 else f"{exp.factor:g} × {exp.ref}"


def _expected(exp: Expectation, seeds: list[dict]) -> Any:
    """The other side in the metric's units, as shown beside the measured value."""
    if operator(exp.op).positional:
        return exp.position
    if exp.ref is None:  # then value is given (`Expectation._one_side`)
        value = cast("float | bool", exp.value)
        return value * exp.factor if not isinstance(value, bool) else value
    vals = [get_metric(m, exp.ref) for m in seeds]
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
        return math.fsum(vals) / len(vals) * exp.factor
    first = vals[0]
    if isinstance(first, list) and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                       for v in first):
        return [v * exp.factor for v in first]
    return first


def _equality(exp: Expectation, seeds: list[dict]) -> tuple[str, list]:
    """op ==: every seed equal holds, none fails, some is inconclusive (booleans stay booleans)."""
    got, same = [], []
    for metrics in seeds:
        a = get_metric(metrics, exp.metric)
        b = get_metric(metrics, exp.ref) if exp.ref is not None else exp.value
        if isinstance(a, bool) != isinstance(b, bool):
            raise Incomparable(f"metric '{exp.metric}' is {_what(a)} and the expected value "
                               f"is {_what(b)}; litrec does not compare them")
        if not isinstance(b, bool) and exp.factor != 1:
            number = _number(b, "the expected value")
            b = b if number is None else number * exp.factor  # NaN or null: compared as it is
        got.append(a)
        same.append(a == b)
    return ("holds" if all(same) else "fails" if not any(same) else "inconclusive"), got


def evaluate(exp: Expectation, seeds: list[dict], noise: dict | None = None) -> Outcome:
    """Judge `exp` on the per-seed metrics `seeds` (one dict for a single run)."""
    out = Outcome(exp.describe(), exp.metric, None, None, None, paper=exp.paper,
                  official=exp.official, note=exp.note, n=len(seeds),
                  precondition=exp.precondition,
                  source=exp.source.model_dump(mode="json", exclude_none=True) if exp.source else None)
    out.noise = (noise or {}).get(exp.metric)
    try:
        out.expected = _expected(exp, seeds)
        out.ref_values, out.ref = _ref_values(exp, seeds), _ref(exp)
        if operator(exp.op).rule is None:  # judged seed by seed for equality
            out.decision, got = _equality(exp, seeds)
            out.direction = "undecided" if out.decision == "inconclusive" else None
            out.values = got
            out.measured = got[0] if len(set(map(repr, got))) == 1 else got
        elif any(isinstance(get_metric(m, exp.metric), list) for m in seeds):
            _judge_lists(exp, seeds, out)
        else:
            _judge_scalars(exp, seeds, out)
    except Incomparable as exc:
        out.decision, out.reason = "refused", str(exc)
    out.holds = {"holds": True, "fails": False}.get(out.decision)
    if isinstance(out.measured, (int, float)) and isinstance(out.expected, (int, float)) \
            and not isinstance(out.measured, bool) and not isinstance(out.expected, bool) \
            and out.expected:
        out.rel_diff = (float(out.measured) - float(out.expected)) / abs(float(out.expected))
    return out


def _judge_scalars(exp: Expectation, seeds: list[dict], out: Outcome) -> None:
    ms, qs, quantity, op, t = _per_seed(exp, seeds)
    if any(q is None or math.isinf(q) for q in qs):
        out.decision = "fails"
        out.reason = "a measured value is NaN or null (or its references coincide)"
        out.measured = ms[0] if len(ms) == 1 else ms
        return
    ms_sum, q_sum = summarize(ms), summarize(qs)
    out.values, out.mean, out.measured = list(ms), ms_sum.mean, ms_sum.mean
    out.interval, out.method = [ms_sum.low, ms_sum.high], ms_sum.method
    if quantity != exp.metric:
        out.judged = {"quantity": quantity, **q_sum.to_json()}
    out.decision, out.seeds_needed = decide(q_sum, op, t)
    out.threshold = _comparison(op).edge(q_sum.mean, t)
    if out.decision == "inconclusive":
        out.direction = likely_direction(q_sum, op, t, out.seeds_needed)
        if out.reason is None:
            out.reason = few_seeds(q_sum.n)


def _judge_lists(exp: Expectation, seeds: list[dict], out: Outcome) -> None:
    """A list-valued metric must hold at every element: any element failing fails."""
    lengths = {len(v) if isinstance(v, list) else None
               for v in (get_metric(m, exp.metric) for m in seeds)}
    length = next(iter(lengths)) if len(lengths) == 1 else None
    if length is None:  # None: a seed where it is not a list
        raise Incomparable(f"metric '{exp.metric}' is a list at some seeds and not at others, or "
                           "its length changes")
    decisions, needed, means, directions = [], [], [], []
    positional = operator(exp.op).positional
    for i in range(length):
        def pick(m: dict, name: str, i=i) -> Any:
            v = get_metric(m, name)
            return v[i] if isinstance(v, list) else v
        element = [{"_m": pick(m, exp.metric),
                    **({"_r": pick(m, exp.ref)} if exp.ref is not None else {}),
                    **({"_l": pick(m, cast(str, exp.low)), "_h": pick(m, cast(str, exp.high))}
                       if positional else {})}  # positional: low and high are given
                   for m in seeds]
        sub = exp.model_copy(update={"metric": "_m", "ref": "_r" if exp.ref is not None else None,
                                     "low": "_l" if positional else None,
                                     "high": "_h" if positional else None})
        one = Outcome(sub.describe(), "_m", None, None, None)
        _judge_scalars(sub, element, one)
        decisions.append(one.decision)
        needed.append(one.seeds_needed or 0)
        means.append(one.measured)
        directions.append(one.direction)
    out.measured, out.values = means, None
    out.decision = ("fails" if "fails" in decisions else
                    "inconclusive" if "inconclusive" in decisions else "holds")
    out.seeds_needed = max(needed) or None if out.decision == "inconclusive" else None
    if out.decision == "inconclusive":  # every element must hold: one likely to fail decides
        out.direction = next((d for d in ("likely fails", "undecided") if d in directions),
                             "likely holds")
        if out.reason is None:
            out.reason = few_seeds(len(seeds))
    out.expected = _expected(exp, seeds)


def leaning(o: Outcome, terminal: bool = True) -> str | None:
    """Where an inconclusive outcome's mean sits and which way more seeds would likely decide it.

    `mean 0.982 below 0.99: about 4 seeds would likely decide it fails (seeds added after this
    look are marked: optional stopping)`; None when decided.
    """
    if o.decision != "inconclusive":
        return None
    if o.mean is None and o.values is not None:  # op ==, judged seed by seed
        return "undecided: the metric equals the expected value at some seeds, not at others"
    where = ""
    mean = o.judged["mean"] if o.judged else o.mean
    if isinstance(mean, (int, float)) and o.threshold is not None:
        side = "below" if mean < o.threshold else "above" if mean > o.threshold else "at"
        what = "mean" if not o.judged else f"mean of {o.judged['quantity']}"
        where = f"{what} {fmt(mean, terminal)} {side} {fmt(o.threshold, terminal)}: "
    if o.direction == "undecided":
        return where + "undecided, no number of seeds would likely decide it at this spread"
    way = "holds" if o.direction == "likely holds" else "fails"
    # a forecast, not a plan: seeds added because of this look are optional stopping, and the
    # verdict they give is marked "seeds added after looking" (`litrec.verdicts.events`)
    return where + (f"about {o.seeds_needed} seeds would likely decide it {way} (seeds added "
                    "after this look are marked: optional stopping)")


# Why an outcome decides its row's verdict (`Outcome.deciding`), in the order the judge asks:
# the first outcome that matches decides, and every surface names that one.
DECIDING = ("refused", "precondition failed", "precondition undecided", "failed", "straddles",
            "all hold")
_ASKED = (("refused", lambda o: o.decision == "refused"),
          ("precondition failed", lambda o: o.precondition and o.decision == "fails"),
          ("precondition undecided", lambda o: o.precondition and o.decision == "inconclusive"),
          ("failed", lambda o: o.decision == "fails"),
          ("straddles", lambda o: o.decision == "inconclusive"))


def mark_deciding(outcomes: list[Outcome]) -> Outcome | None:
    """Mark the outcome that decides a row's verdict with why (`Outcome.deciding`), clearing the
    others, and return it: a refused comparison, then a precondition that fails, one that is
    undecided, an expectation that fails, one whose interval straddles its threshold; where
    every one holds, the first stands for them (`all hold`); None for no outcome."""
    for o in outcomes:
        o.deciding = None
    for why, asked in _ASKED:
        got = next((o for o in outcomes if asked(o)), None)
        if got is not None:
            got.deciding = why
            return got
    if outcomes:
        outcomes[0].deciding = "all hold"
    return outcomes[0] if outcomes else None


def deciding(outcomes: list[Outcome]) -> Outcome | None:
    """The outcome that decided its row's verdict, as the judge marked it (`mark_deciding`; by
    the same rule where outcomes kept from before it marked them have none): what every surface
    shows beside a verdict, never worked out again; None for no outcome."""
    return next((o for o in outcomes if o.deciding), None) or mark_deciding(outcomes)


def claim_verdict(outcomes: list[Outcome], where) -> tuple[str, str | None, str | None, int | None]:
    """(verdict, reason, direction, seeds needed) of a claim from its outcomes on a current result,
    the outcome that decides it marked (`mark_deciding`); `where(outcome)` locates an outcome's
    metric in the result for an error's message."""
    o = mark_deciding(outcomes)
    why = o.deciding if o is not None else "all hold"
    if o is not None and why == "refused":
        return "error", f"{where(o)}: {o.reason}; not judged", None, None
    if why in ("precondition failed", "precondition undecided"):  # the run cannot test the claim
        unmet = [o for o in outcomes if o.precondition and o.decision in ("fails", "inconclusive")]
        reason = "; ".join(
            f"precondition {'failed' if o.decision == 'fails' else 'undecided'}: {o.expectation}"
            for o in unmet)
        return "inconclusive", reason, "undecided", None  # more seeds cannot mend the run
    if why == "failed":
        return "not reproduced", None, None, None
    if why == "straddles":
        needed = max((o.seeds_needed or 0) for o in outcomes) or None
        open_ = [o for o in outcomes if o.decision == "inconclusive"]
        ways = {o.direction for o in open_}
        direction = ("likely not reproduced" if "likely fails" in ways else
                     "undecided" if "undecided" in ways else "likely reproduced")
        reason = f"an interval straddles its threshold, {direction}: " + "; ".join(
            f"{o.metric}: {leaning(o)}" for o in open_)
        few = few_seeds_short(max((o.n for o in open_), default=0))
        if few and any(o.reason and "seed count" in o.reason for o in open_):
            reason = f"an interval straddles its threshold, {few}; " + reason.removeprefix(
                "an interval straddles its threshold, ")
        return "inconclusive", reason, direction, needed
    return "reproduced", None, None, None
