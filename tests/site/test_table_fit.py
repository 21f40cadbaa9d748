"""An expectation table can be as narrow as its page's column: a file path in Source may break
after each `/`, a metric name after each `_` or `.` where the column is narrow (never inside
a number), and the site's
stylesheet lets the table wrap, then scroll in its own box (tests/site/test_fit_in_browser.py
lays it out in Chromium)."""

from __future__ import annotations

import html
import re

from litrec.records.expectation import Source
from litrec.site.claim_pieces import name_breaks, path_code, source_cell
from litrec.site.stored_html import words
from tests.conftest import REPO

PATH = "transformers_learn_icl_by_gd/src/train.py"


def text_of(stored: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", stored))


def test_a_file_path_may_break_after_each_slash_and_reads_the_same():
    cell = source_cell({"source": Source(kind="official", file=PATH, line=343, threshold="official"),
                        "registration": {}})
    assert path_code(PATH) in cell
    assert path_code(PATH) == ("<code>transformers_learn_icl_by_gd/<wbr>src/<wbr>train.py</code>")
    assert text_of(cell).startswith(f"official code, {PATH} line 343")


def test_a_metric_name_may_break_at_its_parts_and_a_number_never():
    stored = name_breaks(words("k2.loss_trained < 0.15 × k2.loss_gd (±0.01 rel)"))
    assert stored.count('<span class="lr-brk"></span>') == 4  # k2.|loss_|trained, k2.|loss_|gd
    assert '0.<span class="lr-brk">' not in stored and text_of(stored) == "k2.loss_trained < 0.15 × k2.loss_gd (±0.01 rel)"


def test_the_stylesheet_lets_the_table_wrap_then_scroll():
    css = (REPO / "site" / "assets" / "extra.css").read_text(encoding="utf-8")
    found = re.findall(r"([^{}]+)\{([^{}]*)\}", re.sub(r"/\*.*?\*/", "", css, flags=re.S))
    rules = [(" ".join(k.split()), v) for k, v in found]

    def has(selector: str, declaration: str) -> bool:
        return any(k == selector and declaration in v for k, v in rules)

    assert has(".md-typeset .lr-outcomes", "overflow-x: auto")
    assert has(".md-typeset .lr-outcomes td:last-child, .md-typeset .lr-outcomes tr.lr-note > td, "
               ".md-typeset .lr-outcomes td:last-child code", "overflow-wrap: anywhere")
    assert has(".md-typeset .lr-outcomes table :is(th, td)", "min-width: 0")  # not Material's 5rem
    # a metric name's marks are places to break only in a narrow column, a zero-width space there
    narrow = re.search(r"@container \(max-width: \d+px\) \{((?:[^{}]*\{[^{}]*\})*)[^{}]*\}", css).group(1)
    assert '.lr-brk::after { content: "\\200b"; }' in narrow
    assert css.count("lr-brk") == narrow.count("lr-brk")
