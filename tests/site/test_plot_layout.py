"""The interval plot's text never overlaps: each text's box, worked out from its position, its
anchor and its font size (site/assets/extra.css) at 0.6 em a character (the common monospace
faces), is clear of every other and inside the drawing, however long a label or a note is."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import combinations

from litrec.records.expectation import Expectation
from litrec.site.plots import interval_plot, row_of
from litrec.verdicts.judge import evaluate
from tests.conftest import REPO

NS = "{http://www.w3.org/2000/svg}"
EM = 0.6  # a monospace character's width in em (DejaVu Sans Mono, Liberation Mono, Menlo)
LONG_A = "k5_loss_trained_on_the_longest_configuration_of_all"
LONG_B = "k5_loss_gdpp_matched_with_its_own_learning_rate"
SEEDS = [{LONG_A: 0.10 + d, LONG_B: 0.09, "k5_loss_gd_shared_eta_across_layers": 0.20, "err": e}
         for d, e in ((0.0, 1e-16), (0.004, 3e-16), (0.002, 2e-16))]


def css_sizes() -> dict[str, float]:
    """Font size in px of each plot text class, as the site's stylesheet sets it."""
    css = (REPO / "site" / "assets" / "extra.css").read_text(encoding="utf-8")
    return {cls: float(px) for cls, px in
            re.findall(r"\.lr-plot \.(lr-plot-(?:label|note)) \{ font-size: (\d+)px;", css)}


def boxes(html: str) -> tuple[list[tuple[str, float, float, float, float]], float, float]:
    """(text, left, top, right, bottom) of every line of text, and the drawing's width and height."""
    svg = ET.fromstring(re.search(r"<svg.*</svg>", html, re.S).group(0))
    _, _, width, height = map(float, svg.get("viewBox").split())
    sizes = css_sizes()
    out = []
    for t in svg.iter(f"{NS}text"):
        px = sizes["lr-plot-label" if "lr-plot-label" in t.get("class") else "lr-plot-note"]
        spans = t.findall(f"{NS}tspan") or [t]
        for s in spans:
            x, y, text = float(s.get("x")), float(s.get("y")), s.text or ""
            w = len(text) * px * EM
            left = x - w if t.get("text-anchor") == "end" else x
            out.append((text, left, y - 0.8 * px, left + w, y + 0.2 * px))
    return out, width, height


def rows():
    exps = [Expectation(metric=LONG_A, op="between", low=LONG_B,
                        high="k5_loss_gd_shared_eta_across_layers", position="< 0.5"),
            Expectation(metric="err", op="<", value=1e-10),
            Expectation(metric=LONG_A, op="≈", ref=LONG_B, rel_tol=0.5)]
    return [row_of(e, evaluate(e, SEEDS)) for e in exps]


def test_the_stylesheet_names_the_sizes_the_plot_is_laid_out_for():
    assert css_sizes() == {"lr-plot-label": 12, "lr-plot-note": 11}


def test_no_text_of_the_plot_overlaps_another_or_leaves_the_drawing():
    drawn = rows()
    assert all(r is not None for r in drawn)
    assert len(drawn[0].label) * 12 * EM > 640  # a label longer than the whole plot is wide
    found, width, height = boxes(interval_plot(drawn))
    for text, left, top, right, bottom in found:
        assert 0 <= left and right <= width and 0 <= top and bottom <= height, text
    for a, b in combinations(found, 2):
        apart = a[3] <= b[1] or b[3] <= a[1] or a[4] <= b[2] or b[4] <= a[2]
        assert apart, f"{a[0]!r} overlaps {b[0]!r}"
    assert len(found) > 3 * len(drawn)  # label, mark and note of each row, the long ones wrapped


def test_a_wrapped_label_keeps_every_word_and_its_row_grows():
    drawn = rows()
    one, _, h_one = boxes(interval_plot(drawn[1:2]))
    both, _, h_both = boxes(interval_plot(drawn[:2]))
    label = " ".join(t for t, *_ in both if t and not t.startswith(("holds", "fails")))
    assert all(word in label for word in drawn[0].label.split())
    assert h_both > 2 * h_one  # the first row is taller than a row of one line each
