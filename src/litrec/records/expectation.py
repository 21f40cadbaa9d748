"""An expectation: what one metric of an analysis result must satisfy for a claim to hold.

It compares the metric with a number (`value`) or another metric of the same
result (`ref`), times `factor`, or says where the metric sits between two
others (`op: between`, `low`, `high`, `position`). Each operator's row
(`litrec.records.operators`) says which fields it reads; how it is judged over
seeds is `litrec.verdicts.judge`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, field_validator, model_serializer, model_validator
from pydantic.json_schema import JsonDict

from litrec.records.criteria import criterion
from litrec.records.operators import OPERATORS, POSITION_RE, Op, operator
from litrec.records.strict import Strict
from litrec.util.formatting import fmt

SourceKind = Literal["paper", "official", "extension"]
ThresholdOrigin = Literal["paper", "official", "litrec"]
# What `litrec upgrade` writes where only the record's owner can say (a source's where, quote,
# threshold_reason): a to-do that `validate` warns of, never taken for a real value
PLACEHOLDER = "TODO"



_TEXT: JsonDict = {"type": "string", "pattern": "\\S"}  # text that is not only spaces (it is stripped)


def _given(name: str) -> JsonDict:
    return {"required": [name], "properties": {name: _TEXT}}


def _present(name: str) -> JsonDict:
    return {"required": [name], "properties": {name: {"not": {"type": "null"}}}}


class Source(Strict):
    """Where an expectation comes from (the paper's text, the official code, or litrec's own
    test), and whose its threshold is.

    `paper`: `where` (section, figure, table, appendix, equation, proposition) and `quote`, the
    paper's own words there (checked against the paper's text where the record names one:
    `Literature.text`); beside them `states`, what it states in the record's words, and
    `number`, the value it prints. `official`: `file` in the official code and `line` (a line,
    a range, or a notebook cell), `number` where it prints one. `extension`: `reason`, why
    litrec tests more than the paper states.

    `threshold` says whose the line the metric is judged against is (its value, factor,
    tolerance or position; for a bare comparison with another metric, the relation):
    `paper` (the paper prints that number or states that relation), `official` (the official
    code's output prints it) or `litrec` (litrec's own choice, `threshold_reason` saying why).
    A paper or official source must say it: a missing origin never reads as the paper's. An
    extension's threshold is litrec's unless it says otherwise, its `reason` standing for
    `threshold_reason` when that is not given. None of these fields changes what is judged
    (`litrec.records.criteria`): rewording them never makes a stored result stale.
    """

    # what `_complete` checks, said to JSON-schema validators too (editors, CI without litrec)
    model_config = ConfigDict(**Strict.model_config, json_schema_extra={"allOf": [
        {"if": {"properties": {"kind": {"const": "paper"}}},
         "then": {"required": ["where", "quote", "threshold"],
                  "properties": {"where": _TEXT, "quote": _TEXT},
                  "not": {"anyOf": [_present("file"), _present("reason")]}}},
        {"if": {"properties": {"kind": {"const": "official"}}},
         "then": {"required": ["file", "line", "threshold"],
                  "properties": {"file": _TEXT, "line": {"not": {"type": "null"}}},
                  "not": {"anyOf": [_present("reason"), _present("quote"), _present("states")]}}},
        {"if": {"properties": {"kind": {"const": "extension"}}},
         "then": {"required": ["reason"], "properties": {"reason": _TEXT},
                  "not": {"anyOf": [_present("quote"), _present("states"), _present("file")]}}},
        {"if": {"required": ["threshold"], "properties": {"threshold": {"const": "litrec"}}},
         "then": {"anyOf": [_given("threshold_reason"),
                            {"properties": {"kind": {"const": "extension"}}}]}},
    ]})

    kind: SourceKind = Field(description="paper, official (the authors' code) or extension (litrec's own)")
    where: str | None = Field(None, description="paper: its place: section, figure, table, "
                              "appendix, equation, proposition: '§3, Figure 2', 'Appendix A.10'")
    quote: str | None = Field(None, description="paper: its own words at `where`, verbatim "
                              "(required); checked against the paper's text where the literature "
                              "record names one (`text`)")
    states: str | None = Field(None, description="paper: what it states there, in the record's "
                               "words (a paraphrase beside the quote)")
    number: float | str | None = Field(None, description="paper or official: the number it prints")
    file: str | None = Field(None, description="official: the file in the official code")
    line: int | str | None = Field(None, description="official: the line(s) or notebook cell")
    reason: str | None = Field(None, description="extension: why litrec tests this")
    threshold: ThresholdOrigin | None = Field(
        None, description="whose the threshold is: paper (the paper prints that number or states "
        "that relation), official (the official code's output prints it) or litrec (litrec's "
        "choice: give threshold_reason); required for paper and official sources, litrec for an "
        "extension unless it says otherwise")
    threshold_reason: str | None = Field(
        None, description="why the threshold is what it is: required when it is litrec's (an "
        "extension's reason stands for it when not given)")

    @model_validator(mode="after")
    def _complete(self) -> Source:
        missing = []  # what a well-formed source still lacks: said together, each with its fix
        if self.kind == "paper":
            if not self.where:
                raise ValueError("a paper source needs where: its place in the paper (section, "
                                 "figure, table, appendix, equation or proposition), and quote: "
                                 "the paper's own words there")
            if not self.quote:
                has = ("only states: (a paraphrase)" if self.states else "only number:"
                       if self.number is not None else "none")
                missing.append(f"a paper source needs quote:, the paper's own words, and has "
                               f"{has}; add quote: the paper's own words at {self.where}; "
                               "keep states: for your paraphrase")
            if self.file is not None or self.reason is not None:
                raise ValueError("a paper source takes where, quote, states and number; file and "
                                 "line belong to kind official, reason to kind extension")
        elif self.kind == "official":
            if not self.file or self.line is None:
                raise ValueError("an official source needs file (in the official code) and line "
                                 "(a line, a range or a notebook cell)")
            if self.reason is not None or self.quote is not None or self.states is not None:
                raise ValueError("an official source takes file, line and number; quote and "
                                 "states belong to kind paper, reason to kind extension")
        else:
            if not self.reason:
                raise ValueError("an extension needs reason: why litrec tests more than the "
                                 "paper states")
            if self.quote is not None or self.states is not None or self.file is not None:
                raise ValueError("an extension takes reason (and where, if it refines a place in "
                                 "the paper); quote and states belong to kind paper, file and "
                                 "line to kind official")
        if self.threshold is None and self.kind != "extension":
            missing.append(f"a{'n' * (self.kind == 'official')} {self.kind} source needs "
                           "threshold: whose the threshold is: paper (the paper prints that "
                           "number or states that relation), official (the official code "
                           "prints it) or litrec (your choice, with threshold_reason: why)")
        elif self.origin() == "litrec" and not (self.threshold_reason or self.kind == "extension"):
            missing.append("threshold: litrec needs threshold_reason: why litrec chose this "
                           "threshold (a tolerance for noise, a margin over a measured value)")
        if missing:
            raise ValueError("; ".join(missing))
        return self

    def todo(self) -> list[str]:
        """The fields that still hold the placeholder `TODO` (`PLACEHOLDER`, as `litrec upgrade`
        writes it): a to-do, never a real place, quote or reason."""
        return [name for name in ("where", "quote", "states", "file", "reason", "threshold_reason")
                if isinstance(value := getattr(self, name), str) and value.strip() == PLACEHOLDER]

    def origin(self) -> str:
        """Whose the threshold is: `paper`, `official` or `litrec` (an extension's, unless said)."""
        return self.threshold or "litrec"


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
    source: Source | None = Field(
        None, description="where the expectation comes from: the paper, the official code or "
        "litrec's extension; required in a paper's (literature record's) claims")
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
        if data.get("source") is None:
            data.pop("source", None)
        return data

    @property
    def extension(self) -> bool:
        """Litrec's own test, judged beside the paper's claim (its `+ext` row), never in its verdict."""
        return self.source is not None and self.source.kind == "extension"

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
    def _one_side(self) -> Expectation:
        """The fields its operator reads, and only those (`litrec.records.operators`)."""
        row = operator(self.op)
        if row.positional:
            if self.value is not None or self.ref is not None:
                raise ValueError(f"op '{self.op}' takes low, high and position, not value or ref")
            if not (self.low and self.high and self.position):
                raise ValueError(f"op '{self.op}' needs low: <metric>, high: <metric> and "
                                 "position: '< 0.15' (0 at low, 1 at high)")
            if not POSITION_RE.match(self.position):
                raise ValueError(f"position {self.position!r} must be an operator and a number, "
                                 "e.g. '< 0.15' or '>= 0.5'")
            return self
        if self.low is not None or self.high is not None or self.position is not None:
            raise ValueError("low, high and position belong to " + " or ".join(
                f"op '{o.name}'" for o in OPERATORS if o.positional))
        if isinstance(self.value, bool) and not row.booleans:
            raise ValueError(f"a boolean value can only be compared with '==', not '{self.op}'; "
                             "write a number, or use op: '=='")
        if (self.value is None) == (self.ref is None):
            raise ValueError("give exactly one right-hand side: 'value: <number>' or 'ref: <metric>'")
        if row.needs_one_of and all(getattr(self, f) is None for f in row.needs_one_of):
            raise ValueError(row.needs)
        return self

    def criterion(self) -> dict:
        """What is judged, without its prose and provenance (`PROSE`): two expectations with equal
        criteria decide alike on every result."""
        return criterion(self.model_dump(mode="json"))

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
        if operator(self.op).positional:
            op, x = self.bound()
            return f"{self.metric} between {self.low} (0) and {self.high} (1): position {op} {fmt(x, terminal=True)}"
        rhs = self.ref if self.ref is not None else fmt(self.value, terminal=True)
        if self.factor != 1.0:
            rhs = f"{fmt(self.factor, terminal=True)} × {rhs}"
        tol = ""
        if "rel_tol" in operator(self.op).fields:  # a tolerance: said where its operator reads it
            parts = []
            if self.rel_tol is not None:
                parts.append(f"{self.rel_tol:.3g} rel")
            if self.abs_tol is not None:
                parts.append(f"{self.abs_tol:.3g} abs")
            tol = f" (±{', '.join(parts)})"
        return f"{self.metric} {self.op} {rhs}{tol}"

