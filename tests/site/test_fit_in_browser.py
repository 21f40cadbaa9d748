"""Record pages fit their column in a real browser, at 1400 and 800 px: headless Chromium lays
out a built record page (Material's CSS and JavaScript, the site's extra.css) with an
expectation table of the longest kind added (a metric name and a file path longer than a
column), and renders the graph with the site's Mermaid, whose edge labels must stand apart.

Skips, saying why, where no Chromium can be found. Slow: `make test-all` runs it."""

from __future__ import annotations

import html
import itertools
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from litrec.records.expectation import Source
from litrec.site.claim_pieces import name_breaks, source_cell
from litrec.site.stored_html import words
from tests.support.browser import CHROMIUM, FLAGS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG_PATH = "transformers_learn_icl_by_gd/src/experiments/deeper_models/train_and_evaluate_recurrent.py"
LONG_EXPECTATION = ("k5.loss_trained_with_separate_layers between k5.loss_gdpp_matched_per_step (0) "
                    "and k5.loss_gd_shared_eta_across_layers (1): position < 0.5")

MEASURE = """<script>
window.addEventListener('load', () => setTimeout(() => {
  const col = document.querySelector('.md-content__inner').getBoundingClientRect();
  const over = [...document.querySelectorAll('article table')].map(
    t => t.getBoundingClientRect().right - col.right);
  document.body.setAttribute('data-over', JSON.stringify(over));
  const broken = [...document.querySelectorAll('article .lr-outcomes:not(#widest) .lr-w')]
    .filter(w => new Set([...w.getClientRects()].map(r => Math.round(r.top))).size > 1)
    .map(w => w.textContent);  // on more than one line
  document.body.setAttribute('data-broken', JSON.stringify(broken));
}, 300));
</script>"""

LABELS = """<!doctype html><html><body><div id="out"></div>
<script src="assets/vendor/mermaid/mermaid.min.js"></script><script>
mermaid.initialize({startOnLoad: false});
mermaid.render('g', SOURCE).then(r => {
  document.getElementById('out').innerHTML = r.svg;
  const boxes = [...document.querySelectorAll('#out g.edgeLabel')].map(e => e.getBoundingClientRect())
    .filter(b => b.width > 0).map(b => [b.left, b.top, b.right, b.bottom]);
  document.body.setAttribute('data-boxes', JSON.stringify(boxes));
});
</script></body></html>"""


def chromium_dom(page: Path, width: int, tmp_path: Path) -> str:
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH (apt-get install chromium); the browser test needs one")
    flags = [f for f in FLAGS if not f.startswith("--window-size")]
    run = subprocess.run([CHROMIUM, *flags, f"--user-data-dir={tmp_path / 'profile'}",
                          f"--window-size={width},2000", "--virtual-time-budget=8000",
                          "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "<html" in run.stdout, run.stderr[-2000:]
    return run.stdout


def attribute(dom: str, name: str):
    found = re.search(rf'{name}="([^"]*)"', dom)
    assert found, f"the page's script did not run: no {name}"
    return json.loads(html.unescape(found.group(1)))


def widest_table() -> str:
    """An expectation table whose first and last cells are longer than any column is wide."""
    source = source_cell({"source": Source(kind="official", file=LONG_PATH, line="120-180",
                                           threshold="official"), "registration": {}})
    cells = [f"<code>{name_breaks(words(LONG_EXPECTATION))}</code>",
             '<span class="lr-num">0.02644</span><br><span class="lr-num">[0.008915, 0.04397]</span>',
             '<span class="lr-num">0.1</span>', '<span class="lr-num">0.0959</span>',
             '<span class="lr-num">0.076–0.099</span>', source]
    head = ["Expectation", "Measured", "Expected", "Paper", "Official code", "Source"]
    return ('<div class="lr-outcomes" id="widest">\n<table>\n<thead><tr>'
            + " ".join(f"<th>{h}</th>" for h in head) + "</tr></thead>\n<tbody>\n<tr>"
            + " ".join(f"<td>{c}</td>" for c in cells) + "</tr>\n</tbody>\n</table>\n</div>\n")


@pytest.mark.parametrize("width", [1400, 800])
def test_every_table_of_a_record_page_fits_its_column(built, tmp_path, width):
    site = tmp_path / "site"
    shutil.copytree(built.out, site)
    page = site / "records" / "ARXIV-2212.07677.html"
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"(</h1>)", lambda m: m.group(1) + widest_table(), text, count=1)
    page.write_text(text.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    dom = chromium_dom(page, width, tmp_path)
    over = attribute(dom, "data-over")
    assert len(over) >= 3  # the added table and the page's own
    assert max(over) <= 1, over  # no table's right edge past the column's
    if width == 1400:  # a column wide enough: every metric name and number of the page's own whole
        assert attribute(dom, "data-broken") == []


def test_the_graph_s_edge_labels_stand_apart(built, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(built.out, site)
    source = html.unescape(re.search(r'<pre class="mermaid"[^>]*><code>(.*?)</code></pre>',
                                     (site / "graph.html").read_text(encoding="utf-8"), re.S).group(1))
    page = site / "labels.html"
    page.write_text(LABELS.replace("SOURCE", json.dumps(source)), encoding="utf-8")
    boxes = {tuple(b) for b in attribute(chromium_dom(page, 1400, tmp_path), "data-boxes")}
    assert len(boxes) >= 10  # a label per link of the fixture project
    for a, b in itertools.combinations(boxes, 2):
        clear = max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])
        assert clear >= 12, (a, b)  # the layout keeps 20 px between labels; a moved one had 6
