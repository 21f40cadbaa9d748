"""An expectation: what one metric of an analysis result must satisfy for a claim to hold.

It compares the metric with a number (`value`) or another metric of the same
result (`ref`), times `factor`, or says where the metric sits between two
others (`op: between`, `low`, `high`, `position`). How it is judged over seeds
is `litrec.verdicts.judge`.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator, model_serializer, model_validator

from litrec.util.formatting import fmt
from litrec.records.strict import Strict

Op = Literal["<", "<=", ">", ">=", "≈", "==", "between"]
POSITION_RE = re.compile(r"^\s*(<=|>=|<|>)\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*$")


class Expectation(Strict):
    """What one metric of an analysis result must satisfy for the claim to hold."""

    metric: str = Field(description="metric name in the result, dotted for nested: ood.min_cos")
    op: Op
    value: float | bool | None = Field(None, description="a number to compare with")
    ref: str | None = Field(None, description="another metric to compare with")
    factor: float = Field(1.0, description="the right side is factor * value (or * ref)")
    rel_tol: float | None = Field(None, ge=0, description="relative tolerance for ≈")
    abs_tol: float | None = Field(None, ge=0, description="absolute tolerance for ≈")
    low: str | None = Field(None, description="op between: the metric at position 0")
    high: str | None = Field(None, description="op between: the metric at position 1")
    position: str | None = Field(
        None, description="op between: where the metric must sit, 0 at low and 1 at high: '< 0.15'")
    paper: float | str | None = Field(None, description="the paper's own number, where it states one")
    official: float | str | None = Field(None, description="the official code's number")
    note: str | None = None
    profiles: list[str] | None = Field(
        None, min_length=1, description="the profiles this expectation is judged in (default: "
        "every profile), e.g. [paper_full] for a test of the paper's own scale only")
    precondition: bool = Field(
        False, description="a precondition of the run (e.g. the baseline converged), not the "
        "claim itself: when it fails, the claim is inconclusive, never not reproduced")

    @model_serializer(mode="wrap")
    def _dump(self, handler):
        data = handler(self)
        for name in ("value", "ref"):  # only the right-hand side it has: null is refused in a record
            if data.get(name) is None:
                data.pop(name, None)
        if data.get("profiles") is None:  # the default is left out: older expectations hash alike
            data.pop("profiles", None)
        if not data.get("precondition"):  # the default is left out: older expectations hash alike
            data.pop("precondition", None)
        return data

    def applies(self, profile: str) -> bool:
        """Whether this expectation is judged in `profile` (every profile unless `profiles` says)."""
        return self.profiles is None or profile in self.profiles

    @field_validator("value", "ref", mode="before")
    @classmethod
    def _not_null(cls, v, info):
        if v is None:  # runs only for a value written out: `value: null`, `ref: ~`
            what = "a number" if info.field_name == "value" else "a metric name"
            raise ValueError(f"null is not a right-hand side; give {what} or remove the field")
        return v

    @model_validator(mode="after")
    def _one_side(self) -> "Expectation":
        if self.op == "between":
            if self.value is not None or self.ref is not None:
                raise ValueError("op 'between' takes low, high and position, not value or ref")
            if not (self.low and self.high and self.position):
                raise ValueError("op 'between' needs low: <metric>, high: <metric> and "
                                 "position: '< 0.15' (0 at low, 1 at high)")
            if not POSITION_RE.match(self.position):
                raise ValueError(f"position {self.position!r} must be an operator and a number, "
                                 "e.g. '< 0.15' or '>= 0.5'")
            return self
        if self.low is not None or self.high is not None or self.position is not None:
            raise ValueError("low, high and position belong to op 'between'")
        if isinstance(self.value, bool) and self.op not in ("==", "≈"):
            raise ValueError(f"a boolean value can only be compared with '==', not '{self.op}'; "
                             "write a number, or use op: '=='")
        if (self.value is None) == (self.ref is None):
            raise ValueError("give exactly one right-hand side: 'value: <number>' or 'ref: <metric>'")
        if self.op == "≈" and self.rel_tol is None and self.abs_tol is None:
            raise ValueError("op '≈' needs a tolerance: rel_tol or abs_tol")
        return self

    def bound(self) -> tuple[str, float]:
        """op between: the position's operator and number."""
        match = POSITION_RE.match(self.position or "")
        assert match, self.position
        return match.group(1), float(match.group(2))

    def describe(self) -> str:
        """The expectation in words: `loss_trained <= 1.05 × loss_gd (±0.01 rel)`.

        A precondition says so at its end: `loss_gd_drop > 0.9 (precondition)`, and an
        expectation of some profiles only names them: `k5.loss_trained < k5.loss_gd (paper_full)`.
        """
        text = self._relation()
        text = f"{text} (precondition)" if self.precondition else text
        return f"{text} ({', '.join(self.profiles)})" if self.profiles else text

    def _relation(self) -> str:
        if self.op == "between":
            op, x = self.bound()
            return f"{self.metric} between {self.low} (0) and {self.high} (1): position {op} {fmt(x, terminal=True)}"
        rhs = self.ref if self.ref is not None else fmt(self.value, terminal=True)
        if self.factor != 1.0:
            rhs = f"{fmt(self.factor, terminal=True)} × {rhs}"
        tol = ""
        if self.op == "≈":
            parts = []
            if self.rel_tol is not None:
                parts.append(f"{self.rel_tol:.3g} rel")
            if self.abs_tol is not None:
                parts.append(f"{self.abs_tol:.3g} abs")
            tol = f" (±{', '.join(parts)})"
        return f"{self.metric} {self.op} {rhs}{tol}"
