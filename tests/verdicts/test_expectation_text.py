"""An expectation in words (as status, the site and a result's stored expectations show it)."""

from __future__ import annotations

import pytest

from litrec.records.model import Expectation


def E(**kw) -> Expectation:
    return Expectation.model_validate(kw)


@pytest.mark.parametrize("kw, text", [
    ({"metric": "loss", "op": "<", "value": 0.3}, "loss < 0.3"),
    ({"metric": "loss", "op": "<=", "value": 1e-10}, "loss <= 1e-10"),
    ({"metric": "a", "op": ">", "ref": "b"}, "a > b"),
    ({"metric": "a", "op": ">=", "ref": "b", "factor": 0.8}, "a >= 0.8 × b"),
    ({"metric": "a", "op": "<", "value": 2.0, "factor": 1.05}, "a < 1.05 × 2"),
    ({"metric": "a", "op": "<", "value": 2.0, "factor": 2.0}, "a < 2 × 2"),
    ({"metric": "ok", "op": "==", "value": True}, "ok == true"),
    ({"metric": "a", "op": "≈", "ref": "b", "rel_tol": 0.01}, "a ≈ b (±0.01 rel)"),
    ({"metric": "a", "op": "≈", "value": 0.5, "abs_tol": 0.002}, "a ≈ 0.5 (±0.002 abs)"),
    ({"metric": "a", "op": "≈", "ref": "b", "rel_tol": 0.05, "abs_tol": 1e-4},
     "a ≈ b (±0.05 rel, 0.0001 abs)"),
    ({"metric": "a", "op": "≈", "ref": "b", "rel_tol": 0.012345}, "a ≈ b (±0.0123 rel)"),
    ({"metric": "t", "op": "between", "low": "gdpp", "high": "gd", "position": "< 0.15"},
     "t between gdpp (0) and gd (1): position < 0.15"),
    ({"metric": "t", "op": "between", "low": "l", "high": "h", "position": ">= 5e-1"},
     "t between l (0) and h (1): position >= 0.5"),
    ({"metric": "drop", "op": ">", "value": 0.9, "precondition": True}, "drop > 0.9 (precondition)"),
    ({"metric": "a", "op": "<", "ref": "b", "profiles": ["paper_full"]}, "a < b (paper_full)"),
    ({"metric": "a", "op": "<", "ref": "b", "profiles": ["x", "y"], "precondition": True},
     "a < b (precondition) (x, y)"),
])
def test_describe(kw, text):
    assert E(**kw).describe() == text


@pytest.mark.parametrize("position, bound", [
    ("< 0.15", ("<", 0.15)), ("<=0.5", ("<=", 0.5)), ("  > -1e-2 ", (">", -0.01)),
    (">= .25", (">=", 0.25)), ("< 1", ("<", 1.0)),
])
def test_bound_reads_the_position(position, bound):
    e = E(metric="t", op="between", low="l", high="h", position=position)
    assert e.bound() == bound and isinstance(e.bound()[1], float)


def test_bound_of_an_expectation_without_position_is_a_programming_error():
    e = E(metric="t", op="<", value=1.0)
    with pytest.raises(AssertionError):
        e.bound()
    e = e.model_copy(update={"position": "about 1"})
    with pytest.raises(AssertionError, match="about 1"):
        e.bound()


@pytest.mark.parametrize("kw, message", [
    ({"metric": "a", "op": "<"}, "give exactly one right-hand side"),
    ({"metric": "a", "op": "<", "value": 1.0, "ref": "b"}, "give exactly one right-hand side"),
    ({"metric": "a", "op": "≈", "value": 1.0}, "op '≈' needs a tolerance"),
    ({"metric": "a", "op": "<", "value": True}, "a boolean value can only be compared with '=='"),
    ({"metric": "a", "op": "<", "value": 1.0, "low": "l"}, "low, high and position belong to op 'between'"),
    ({"metric": "a", "op": "between", "low": "l", "high": "h"}, "op 'between' needs low"),
    ({"metric": "a", "op": "between", "low": "l", "high": "h", "position": "x"}, "position 'x' must be"),
    ({"metric": "a", "op": "between", "low": "l", "high": "h", "position": "< 1", "ref": "b"},
     "not value or ref"),
    ({"metric": "a", "op": "<", "value": None}, "null is not a right-hand side; give a number"),
    ({"metric": "a", "op": "<", "ref": None}, "null is not a right-hand side; give a metric name"),
    ({"metric": "a", "op": "≈", "value": 1.0, "rel_tol": -0.1}, "greater than or equal to 0"),
])
def test_a_malformed_expectation_is_refused_with_why(kw, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        E(**kw)


def test_only_the_right_hand_side_it_has_is_dumped():
    assert "ref" not in E(metric="a", op="<", value=1.0).model_dump()
    assert "value" not in E(metric="a", op="<", ref="b").model_dump()
    d = E(metric="t", op="between", low="l", high="h", position="< 1").model_dump()
    assert "value" not in d and "ref" not in d and d["position"] == "< 1"


@pytest.mark.parametrize("kw, message", [
    ({"metric": "a", "op": "<"},
     "give exactly one right-hand side: 'value: <number>' or 'ref: <metric>'"),
    ({"metric": "a", "op": ">=", "value": 1.0, "ref": "b"},
     "give exactly one right-hand side: 'value: <number>' or 'ref: <metric>'"),
    ({"metric": "a", "op": "≈", "value": 1.0}, "op '≈' needs a tolerance: rel_tol or abs_tol"),
    ({"metric": "a", "op": "<=", "value": True},
     "a boolean value can only be compared with '==', not '<='; write a number, or use op: '=='"),
    ({"metric": "a", "op": "<", "value": 1.0, "high": "h"},
     "low, high and position belong to op 'between'"),
    ({"metric": "a", "op": "<", "value": 1.0, "position": "< 1"},
     "low, high and position belong to op 'between'"),
    ({"metric": "a", "op": "between", "low": "l", "position": "< 1"},
     "op 'between' needs low: <metric>, high: <metric> and position: '< 0.15' (0 at low, 1 at high)"),
    ({"metric": "a", "op": "between", "high": "h", "position": "< 1"},
     "op 'between' needs low: <metric>, high: <metric> and position: '< 0.15' (0 at low, 1 at high)"),
    ({"metric": "a", "op": "between", "low": "l", "high": "h", "position": "= 1"},
     "position '= 1' must be an operator and a number, e.g. '< 0.15' or '>= 0.5'"),
    ({"metric": "a", "op": "between", "low": "l", "high": "h", "position": "< 1", "value": 1.0},
     "op 'between' takes low, high and position, not value or ref"),
    ({"metric": "a", "op": "<", "value": None},
     "null is not a right-hand side; give a number or remove the field"),
    ({"metric": "a", "op": "<", "ref": None},
     "null is not a right-hand side; give a metric name or remove the field"),
])
def test_each_refusal_says_exactly_why(kw, message):
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as exc:
        E(**kw)
    (err,) = exc.value.errors()
    assert err["msg"] == f"Value error, {message}"


@pytest.mark.parametrize("kw", [
    {"metric": "a", "op": "==", "value": True},
    {"metric": "a", "op": "≈", "value": False, "abs_tol": 0.0},
    {"metric": "a", "op": "between", "low": "l", "high": "h", "position": ">=0.5"},
    {"metric": "a", "op": "≈", "ref": "b", "abs_tol": 0.1},
    {"metric": "a", "op": "≈", "ref": "b", "rel_tol": 0.1},
])
def test_a_well_formed_expectation_is_accepted(kw):
    assert E(**kw).op == kw["op"]


def test_the_dump_leaves_out_what_is_at_its_default_or_absent():
    assert E(metric="a", op="<", value=1.0).model_dump(mode="json") == {
        "metric": "a", "op": "<", "value": 1.0, "factor": 1.0, "rel_tol": None, "abs_tol": None,
        "low": None, "high": None, "position": None, "paper": None, "official": None,
        "note": None}
    assert E(metric="a", op="<", ref="b", profiles=["p"], precondition=True).model_dump() == {
        "metric": "a", "op": "<", "ref": "b", "factor": 1.0, "rel_tol": None, "abs_tol": None,
        "low": None, "high": None, "position": None, "paper": None, "official": None,
        "note": None, "profiles": ["p"], "precondition": True}


@pytest.mark.parametrize("profiles, profile, applies", [
    (None, "paper", True), (None, "anything", True), (["paper_full"], "paper", False),
    (["paper_full"], "paper_full", True), (["a", "b"], "b", True),
])
def test_an_expectation_applies_in_its_profiles(profiles, profile, applies):
    assert E(metric="a", op="<", value=1.0, profiles=profiles).applies(profile) is applies
