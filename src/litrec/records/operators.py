"""The operators an expectation may use, one row each, and the comparisons they are judged by.

An expectation (`litrec.records.expectation`) names an operator (`op`). Its row here says
how a record writes it, which fields it reads beside the metric, the JSON Schema rule its
expectations obey beyond those fields (`litrec.records.schema`), its TeX symbol
(`litrec.export.texescape`), the quantity judged at each seed and its name, and the rule the
mean of that quantity is decided by on its interval over seeds (`litrec.verdicts.judge`),
whose threshold the site draws (`litrec.site.plots`). The rule is one of `COMPARISONS`:
`mean(q) < t` and its siblings, or the band `|q| <= 1` of a tolerance. An operator without a
rule (`==`) is judged seed by seed for equality. A new operator is a row here plus its maths.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol, cast

from litrec.util.formatting import fmt

# every operator's name, in the order of `OPERATORS` (a test holds the two together)
Op = Literal["<", "<=", ">", ">=", "≈", "==", "between"]

RIGHT_HAND = ("value", "ref")  # one of them: the other side (times `factor`)
POSITIONAL = ("low", "high", "position")  # where the metric sits between two others
POSITION_RE = re.compile(r"^\s*(<=|>=|<|>)\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*$")


class ExpectationFields(Protocol):
    """What an operator reads of an expectation (`litrec.records.expectation.Expectation`)."""

    metric: str
    op: Op
    value: float | bool | None
    ref: str | None
    factor: float
    rel_tol: float | None
    abs_tol: float | None
    low: str | None
    high: str | None

    def bound(self) -> tuple[str, float]:
        """The position's comparison and number (a positional operator)."""
        ...


@dataclass(frozen=True)
class Comparison:
    """`mean(q) name t`, decided on q's 95% interval `[low, high]`: `holds` when the whole
    interval satisfies it, `fails` when the whole interval violates it, else `inconclusive`.

    `side` is where q satisfies it: `below` or `above` the threshold `t`, or `inside` the band
    `[-1, 1]` (q in units of a tolerance; `t` is then unused)."""

    name: str
    holds: Callable[[float, float, float], bool]  # (low, high, t): the whole interval satisfies it
    fails: Callable[[float, float, float], bool]  # (low, high, t): the whole interval violates it
    side: Literal["below", "above", "inside"]

    def decide(self, low: float, high: float, t: float) -> str:
        """holds, fails or inconclusive."""
        return "holds" if self.holds(low, high, t) else "fails" if self.fails(low, high, t) \
            else "inconclusive"

    def edge(self, mean: float, t: float) -> float:
        """The threshold the mean is measured against: `t`, or the band's edge nearer the mean."""
        return (1.0 if mean >= 0 else -1.0) if self.side == "inside" else t

    def lines(self, t: float) -> tuple[float, ...]:
        """Where a plot draws the threshold: `t`, or both edges of the band."""
        return (-1.0, 1.0) if self.side == "inside" else (t,)

    def lean(self, mean: float, t: float) -> str:
        """Which way the mean leans: `likely holds`, `likely fails` or `undecided` (on the line)."""
        if self.side == "inside":
            return "likely holds" if abs(mean) < 1 else "likely fails" if abs(mean) > 1 else "undecided"
        if mean == t:
            return "undecided"
        return "likely holds" if (mean < t) == (self.side == "below") else "likely fails"

    def text(self, t: float) -> str:
        """The rule in words, as the site writes it: `< 0.1`, `|q| ≤ 1`."""
        return "|q| ≤ 1" if self.side == "inside" else f"{self.name} {fmt(t)}"


COMPARISONS: dict[str, Comparison] = {c.name: c for c in (
    Comparison("<", lambda lo, hi, t: hi < t, lambda lo, hi, t: lo >= t, "below"),
    Comparison("<=", lambda lo, hi, t: hi <= t, lambda lo, hi, t: lo > t, "below"),
    Comparison(">", lambda lo, hi, t: lo > t, lambda lo, hi, t: hi <= t, "above"),
    Comparison(">=", lambda lo, hi, t: lo >= t, lambda lo, hi, t: hi < t, "above"),
    Comparison("band", lambda lo, hi, t: lo >= -1 and hi <= 1,
               lambda lo, hi, t: hi < -1 or lo > 1, "inside"),
)}


# ------------------------------------------------------------- the maths of each form


def _against(exp: ExpectationFields) -> tuple[str, float]:
    """Against a number: the metric itself, compared with the value times `factor`; against
    another metric: the paired difference, compared with 0."""
    if exp.ref is not None:
        return exp.op, 0.0
    return exp.op, float(cast("float | bool", exp.value)) * exp.factor  # then value is given


def _difference(exp: ExpectationFields, a: float, other: tuple[float, ...]) -> float:
    """The metric (against a number), or the paired difference `metric − factor × ref`."""
    return a - other[0] if exp.ref is not None else a


def _difference_name(exp: ExpectationFields) -> str:
    if exp.ref is None:
        return exp.metric
    factor = "" if exp.factor == 1 else f"{exp.factor:g} × "
    return f"{exp.metric} − {factor}{exp.ref} (paired)"


def _paired(exp: ExpectationFields) -> str:
    return "paired difference" if exp.ref is not None else exp.metric


def _band(exp: ExpectationFields) -> tuple[str, float]:
    return "band", 0.0


def _in_tolerance(exp: ExpectationFields, a: float, other: tuple[float, ...]) -> float:
    """`(metric − expected) / tolerance`, the larger of `abs_tol` and `rel_tol × |expected|`
    (no tolerance: 0 where equal, an infinity with the difference's sign where not)."""
    b = other[0]
    tol = max(exp.abs_tol or 0.0, (exp.rel_tol or 0.0) * abs(b))
    return (a - b) / tol if tol > 0 else (0.0 if a == b else math.inf * (a - b))


def _position_rule(exp: ExpectationFields) -> tuple[str, float]:
    return exp.bound()


def _position(exp: ExpectationFields, a: float, other: tuple[float, ...]) -> float | None:
    """`(metric − low) / (high − low)`: 0 at `low`, 1 at `high` (None where they coincide)."""
    low, high = other
    return None if high == low else (a - low) / (high - low)


@dataclass(frozen=True)
class Operator:
    """One operator: how it is written and checked, and how it is judged and drawn.

    `fields`: what an expectation with it reads beside `metric` (`RIGHT_HAND`: exactly one of
    value and ref, then `factor`; `POSITIONAL`: low, high and position). `needs_one_of`: of
    these, at least one is given (`needs` says so, in the validator's error and the JSON
    Schema's description). `booleans`: a boolean value may be compared with it. `tex`: its
    symbol in TeX (None: its name is a word). `rule(exp)`: the comparison (`COMPARISONS`) the
    mean of the judged quantity is decided by and the threshold it is compared with (drawn
    by the site); None for an operator judged seed by seed for equality. `quantity(exp, a,
    other)`: the judged quantity at one seed from the metric `a` and the other side (the
    right-hand side times `factor`, or low and high), `judged_name(exp)` its name in the judge's
    words and `plot_label(exp)` in a plot's."""

    name: str
    fields: tuple[str, ...]
    tex: str | None
    rule: Callable[[ExpectationFields], tuple[str, float]] | None = None
    quantity: Callable[[ExpectationFields, float, tuple[float, ...]], float | None] | None = None
    judged_name: Callable[[ExpectationFields], str] = lambda e: e.metric
    plot_label: Callable[[ExpectationFields], str] = lambda e: e.metric
    booleans: bool = False
    needs_one_of: tuple[str, ...] = ()
    needs: str = ""

    @property
    def positional(self) -> bool:
        """Whether it places the metric between two others (`POSITIONAL`), not against one side."""
        return self.fields == POSITIONAL


def _comparing(name: str, tex: str) -> Operator:
    """A comparison of the metric with a number or with another metric (`_against`)."""
    return Operator(name, (*RIGHT_HAND, "factor"), tex, _against, _difference, _difference_name,
                    _paired)


OPERATORS: tuple[Operator, ...] = (
    _comparing("<", r"\ensuremath{<}"),
    _comparing("<=", r"\ensuremath{\le}"),
    _comparing(">", r"\ensuremath{>}"),
    _comparing(">=", r"\ensuremath{\ge}"),
    Operator("≈", (*RIGHT_HAND, "factor", "rel_tol", "abs_tol"), r"\ensuremath{\approx}",
             rule=_band, quantity=_in_tolerance,
             judged_name=lambda e: f"({e.metric} − expected) / tolerance",
             plot_label=lambda e: "q = (measured − expected)/tol", booleans=True,
             needs_one_of=("rel_tol", "abs_tol"), needs="op '≈' needs a tolerance: rel_tol or abs_tol"),
    Operator("==", (*RIGHT_HAND, "factor"), "=", booleans=True),  # no rule: equal at every seed
    Operator("between", POSITIONAL, None, rule=_position_rule, quantity=_position,
             judged_name=lambda e: f"position of {e.metric} between {e.low} and {e.high}",
             plot_label=lambda e: "position"),
)

BY_NAME: dict[str, Operator] = {o.name: o for o in OPERATORS}


def operator(name: str) -> Operator:
    """The row of the operator `name` (KeyError for none: the model admits only `Op`)."""
    return BY_NAME[name]


def boolean_ops() -> list[str]:
    """The operators a boolean value may be compared with, in code point order (`==` first)."""
    return sorted(o.name for o in OPERATORS if o.booleans)

