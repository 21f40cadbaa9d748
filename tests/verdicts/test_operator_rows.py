"""What the site's interval plot and the JSON Schema read of an operator's row
(`litrec.records.operators`): where the threshold is drawn and how the rule is written, the name
of the quantity judged, and the operators a boolean value may be compared with; and what the TeX
export writes for each (in text, TeX's default OT1 fonts print `<` and `>` as `¡` and `¿`)."""

from __future__ import annotations

import jsonschema
import pytest

from litrec.export.texescape import escape
from litrec.records.expectation import Expectation
from litrec.records.operators import COMPARISONS, OPERATORS, boolean_ops, operator
from litrec.records.schema import schema_for
from litrec.site.plots import interval_plot, row_of
from litrec.verdicts.judge import evaluate
from tests.support.models import validates

SEEDS = [{"a": 0.1 + 0.01 * i, "b": 0.5} for i in range(3)]


def E(**kw) -> Expectation:
    return Expectation.model_validate(kw)


@pytest.mark.parametrize("name", ["<", "<=", ">", ">="])
def test_a_threshold_is_one_line_and_its_rule_names_it(name):
    rule = COMPARISONS[name]
    assert rule.lines(0.25) == (0.25,) and rule.lines(-3.0) == (-3.0,)
    assert rule.text(0.25) == f"{name} 0.25" and rule.text(1e-10) == f"{name} 1e-10"


def test_a_band_is_drawn_at_both_edges_whatever_the_threshold():
    band = COMPARISONS["band"]
    assert band.lines(0.0) == band.lines(0.25) == (-1.0, 1.0)
    assert band.text(0.0) == band.text(0.25) == "|q| ≤ 1"


def test_a_plot_names_the_paired_difference_or_the_metric_and_writes_the_rule():
    paired, against = E(metric="a", op="<", ref="b"), E(metric="a", op="<", value=0.5)
    assert operator("<").plot_label(paired) == "paired difference"
    assert operator("<").plot_label(against) == "a"
    svg = interval_plot([row_of(paired, evaluate(paired, SEEDS))])
    assert "paired difference = -0.39 [" in svg and "rule &lt; 0;" in svg
    svg = interval_plot([row_of(against, evaluate(against, SEEDS))])
    assert "paired difference" not in svg and "rule &lt; 0.5;" in svg
    band = E(metric="a", op="≈", value=0.5, abs_tol=0.1)
    svg = interval_plot([row_of(band, evaluate(band, SEEDS))])
    assert "rule |q| ≤ 1" in svg and svg.count('class="lr-plot-threshold"') == 2


@pytest.mark.parametrize("written, tex", [
    ("a < b", r"a \ensuremath{<} b"), ("a <= b", r"a \ensuremath{\le} b"), ("a > b", r"a \ensuremath{>} b"),
    ("a >= b", r"a \ensuremath{\ge} b"), ("a ≈ b", r"a \ensuremath{\approx} b"), ("a == b", "a = b"),
    ("a between b", "a between b"),
])
def test_each_operator_is_written_in_tex_as_maths(written, tex):
    assert escape(written) == tex


def claim_with(expectation: dict) -> dict:
    return {"id": "ARXIV-2212.07677", "kind": "literature", "title": "t",
            "claims": [{"id": "F1", "kind": "finding", "title": "t", "statement": "s",
                        "check": {"analysis": "a", "expect": [expectation]}}]}


@pytest.mark.parametrize("name", [o.name for o in OPERATORS if not o.positional])
def test_a_boolean_value_is_compared_only_with_equality_and_approximately(name):
    """The schema is generated here, in the test: what an editor is given refuses what the model
    refuses."""
    editor = jsonschema.Draft202012Validator(schema_for("literature"))
    tolerance = {f: 0.1 for f in operator(name).needs_one_of[:1]}
    for value in (True, False):
        exp = {"metric": "m", "op": name, "value": value, **tolerance}
        takes = name in ("==", "≈")
        assert validates(Expectation, exp) is takes, exp
        assert editor.is_valid(claim_with(exp)) is takes, exp
    number = {"metric": "m", "op": name, "value": 1.0, **tolerance}
    assert validates(Expectation, number) and editor.is_valid(claim_with(number))
    assert boolean_ops() == ["==", "≈"]  # in code point order, as the schema's message lists them
