"""Every operator is one row (`litrec.records.operators`), read alike by the model, the JSON
Schema, the judge, the site's plots and the TeX export."""

from __future__ import annotations

import typing

import pytest
from pydantic import ValidationError

from litrec.export.texescape import escape
from litrec.records.expectation import Expectation
from litrec.records.operators import COMPARISONS, OPERATORS, POSITIONAL, RIGHT_HAND, Op, operator
from litrec.records.schema import schema_for
from litrec.site.plots import row_of
from litrec.verdicts.judge import evaluate
from tests.support.models import validates
from tests.support.schema import VALIDATORS

NAMES = [o.name for o in OPERATORS]


def sample(op: str, **extra) -> dict:
    """A well-formed expectation with `op`: the fields its row reads, and no other."""
    row = operator(op)
    if row.positional:
        return {"metric": "m", "op": op, "low": "lo", "high": "hi", "position": "< 0.5", **extra}
    return {"metric": "m", "op": op, "value": 1.0,
            **{f: 0.1 for f in row.needs_one_of[:1]}, **extra}


def schema_valid(expectation: dict) -> bool:
    """What an editor says of a paper's claim with this one expectation (the literature schema)."""
    record = {"id": "ARXIV-2212.07677", "kind": "literature", "title": "t",
              "claims": [{"id": "F1", "kind": "finding", "title": "t", "statement": "s",
                          "check": {"analysis": "a", "expect": [expectation]}}]}
    return VALIDATORS["literature"].is_valid(record)


def test_the_rows_are_the_operators_the_model_and_the_schema_accept():
    assert tuple(NAMES) == typing.get_args(Op)  # in the same order: the schema's enum is Op's
    exp = schema_for("literature")["$defs"]["Expectation"]
    assert exp["properties"]["op"]["enum"] == NAMES
    for name in NAMES:
        assert Expectation.model_validate(sample(name)).op == name
        assert schema_valid(sample(name)), name
    with pytest.raises(ValidationError):
        Expectation.model_validate({**sample("<"), "op": "~"})
    assert not schema_valid({**sample("<"), "op": "~"})


def variants(name: str):
    """The sample of `name`, then each way of stretching it: a boolean value, a second (or a
    first) right-hand side, another low, and without each field it needs."""
    base = sample(name)
    yield base
    yield {**base, "value": True}
    yield {**base, "ref": "r"}
    yield {**base, "low": "x"}
    row = operator(name)
    for f in (*row.needs_one_of, *(POSITIONAL if row.positional else ())):
        yield {k: v for k, v in base.items() if k != f}


@pytest.mark.parametrize("name", NAMES)
def test_the_model_and_the_schema_agree_on_each_rows_fields(name):
    for case in variants(name):
        assert schema_valid(case) == validates(Expectation, case), case
    if not operator(name).positional:
        assert validates(Expectation, {**sample(name), "value": True}) == operator(name).booleans


@pytest.mark.parametrize("name", NAMES)
def test_each_rows_symbol_renders_in_tex_and_its_name_in_words(name):
    row = operator(name)
    assert escape(f"m {name} 1") == f"m {row.tex if row.tex is not None else name} 1"
    assert f" {name} " in Expectation.model_validate(sample(name)).describe()
    assert set(row.fields) <= set(Expectation.model_fields)
    assert set(row.fields) & set(RIGHT_HAND) or set(row.fields) == set(POSITIONAL)


@pytest.mark.parametrize("name", [o.name for o in OPERATORS if o.rule is not None])
def test_each_rule_is_a_comparison_that_the_judge_decides_and_the_plot_draws(name):
    exp = Expectation.model_validate(sample(name))
    comparison, threshold = operator(name).rule(exp)
    assert comparison in COMPARISONS
    seeds = [{"m": 0.9 + 0.01 * i, "lo": 0.0, "hi": 2.0} for i in range(3)]
    o = evaluate(exp, seeds)
    assert o.decision in ("holds", "fails", "inconclusive")
    row = row_of(exp, o)
    assert row is not None and (row.op, row.threshold) == (comparison, threshold)
    assert o.threshold == COMPARISONS[comparison].edge(row.mean, threshold)


def test_each_comparison_holds_on_its_side_and_fails_on_the_other():
    for c in COMPARISONS.values():
        inside, outside = {"below": ((-2, -1), (1, 2)), "above": ((1, 2), (-2, -1)),
                           "inside": ((-0.5, 0.5), (2, 3))}[c.side]
        assert c.decide(*inside, 0.0) == "holds" and c.decide(*outside, 0.0) == "fails", c.name
        assert c.lean(sum(inside) / 2, 0.0) == "likely holds", c.name
        assert c.lean(sum(outside) / 2, 0.0) == "likely fails", c.name
        assert c.decide(-3, 3, 0.0) == "inconclusive"
