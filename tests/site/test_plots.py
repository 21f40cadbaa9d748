"""The per-claim interval plot: each judged outcome's interval against its threshold."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from litrec.records.expectation import Expectation
from litrec.site.plots import WIDTH, interval_plot, row_of, rule
from litrec.verdicts.judge import evaluate

SEEDS = [{"err": 1e-16, "loss": 0.20, "gd": 0.201, "cos": 0.995, "lo": 0.1, "hi": 0.2, "xs": [1, 2]},
         {"err": 3e-16, "loss": 0.21, "gd": 0.2095, "cos": 0.985, "lo": 0.1, "hi": 0.2, "xs": [1, 2]},
         {"err": 2e-16, "loss": 0.205, "gd": 0.206, "cos": 0.991, "lo": 0.1, "hi": 0.2, "xs": [1, 2]}]


def _row(**exp):
    e = Expectation(**exp)
    return e, row_of(e, evaluate(e, SEEDS))


def test_each_rule_is_the_one_the_judge_applies():
    e, r = _row(metric="err", op="<", value=1e-10)
    assert rule(e) == ("<", 1e-10) and r.quantity == "err" and r.decision == "holds"
    assert len(r.values) == 3 and r.low <= r.mean <= r.high
    e, r = _row(metric="loss", op="≈", ref="gd", rel_tol=0.05)
    assert (r.op, r.threshold, r.quantity) == ("band", 0.0, "q = (measured − expected)/tol")
    assert -1 < r.low < r.high < 1
    e, r = _row(metric="loss", op=">", ref="gd", factor=0.5)
    assert (r.op, r.threshold, r.quantity) == (">", 0.0, "paired difference")
    e, r = _row(metric="loss", op="between", low="lo", high="hi", position="< 0.5")
    assert (r.op, r.threshold, r.quantity) == ("<", 0.5, "position")
    e, r = _row(metric="cos", op=">", value=0.99)
    assert r.decision == "inconclusive"  # 0.985 .. 0.995 straddles 0.99


def test_nothing_to_draw_is_left_out_and_said():
    for exp in ({"metric": "xs", "op": "<", "value": 3}, {"metric": "err", "op": "==", "value": 0}):
        assert _row(**exp)[1] is None
    assert interval_plot([]) == ""
    rows = [_row(metric="err", op="<", value=1e-10)[1]]
    assert "1 expectation not drawn" in interval_plot(rows, left_out=1)


def test_the_plot_is_svg_with_a_row_per_outcome_the_threshold_and_the_fail_side():
    rows = [_row(metric="err", op="<", value=1e-10)[1], _row(metric="cos", op=">", value=0.99)[1],
            _row(metric="loss", op="≈", ref="gd", rel_tol=0.05)[1]]
    html = interval_plot(rows, title="C1 <b>")
    svg = ET.fromstring(re.search(r"<svg.*</svg>", html, re.S).group(0))
    ns = "{http://www.w3.org/2000/svg}"
    groups = svg.findall(f"{ns}g")
    assert [g.get("class") for g in groups] == ["lr-plot-row lr-plot-holds",
                                                "lr-plot-row lr-plot-inconclusive",
                                                "lr-plot-row lr-plot-holds"]
    first = groups[0]
    threshold = first.find(f"{ns}line[@class='lr-plot-threshold']")
    fail = first.find(f"{ns}rect[@class='lr-plot-fail']")
    mean = first.find(f"{ns}circle[@class='lr-plot-mean']")
    # `< 1e-10`: the fail side is right of the threshold, the mean far left of it (log scale)
    assert float(fail.get("x")) == float(threshold.get("x1")) and float(mean.get("cx")) < 100
    texts = " ".join(t.text for t in first.iter(f"{ns}text"))
    assert "log scale" in texts and "from the threshold" in texts
    band = groups[2].findall(f"{ns}line[@class='lr-plot-threshold']")
    assert len(band) == 2  # |q| <= 1: a line at -1 and at +1, fail zones outside both
    assert len(groups[2].findall(f"{ns}rect[@class='lr-plot-fail']")) == 2
    for x in svg.iter():
        for k in ("x", "x1", "x2", "cx"):
            if x.get(k) is not None:
                assert 0 <= float(x.get(k)) <= WIDTH
    assert "<b>" not in html and "C1 &lt;b&gt;" in html
    assert "<script" not in html and " on" not in re.sub(r'"[^"]*"', "", html)
