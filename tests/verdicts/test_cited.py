"""Stored numbers cited in prose (`{{ANALYSIS/PROFILE: METRIC}}`, `litrec.verdicts.cited`): the
site and `export json` show the number read from the result, a visible marker where it cannot
be read, and `litrec validate` warns where the result lacks the metric.

The toy project's analysis runs three seeds; its results are sealed by the test with the
values it checks (`tests.support.results.sealed_result`), never run.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from tests.support.records import write_record
from tests.support.results import sealed_result
from tests.support.seeds_toy import TOY, site_pages
from tests.support.toy import write_analysis

PAPER = "literature/ARXIV-0000.00003.yaml"
# mean 0.102, sample std 0.001, t(2) = 4.303: half-width 4.303 × 0.001 / √3 = 0.002484
SEEDS = [{"loss_trained": 0.101, "loss_gd": 0.121, "tag": "a"},
         {"loss_trained": 0.102, "loss_gd": 0.122, "tag": "a"},
         {"loss_trained": 0.103, "loss_gd": 0.123, "tag": "a"}]
MEAN = "0.102 [0.09952, 0.1045] (95%, 3 seeds)"
PER_SEED = "0.101, 0.102, 0.103 (seeds 0-2)"


def _project(root: Path, note: str, statement: str = "A statement.", body: str = "") -> Path:
    write_analysis(root, TOY)
    write_record(root, PAPER, textwrap.dedent(f"""\
        id: ARXIV-0000.00003
        kind: literature
        title: A toy paper
        body: {body or "A body."}
        claims:
          - id: F1
            kind: finding
            title: Claim F1
            statement: "{statement}"
            check:
              analysis: toy
              expect:
                - metric: loss_trained
                  op: "<"
                  ref: loss_gd
                  source: {{kind: extension, reason: a toy}}
                  note: >-
                    measured
        """) + "".join(f"{' ' * 12}{line}\n" for line in note.split("\n")))
    return root


def _page(root: Path) -> str:
    return site_pages(root)["records/ARXIV-0000.00003.md"]


def test_the_record_page_shows_the_stored_mean_and_the_values_per_seed(tmp_path):
    root = _project(tmp_path, "<b>{{toy/quick: loss_trained}}</b>, per seed "
                              "{{toy/quick: loss_trained per seed}}",
                    statement="the gap is {{toy/quick: loss_gd}}",
                    body="'{{ toy/quick : tag }} in the body'")
    sealed_result(root, "toy", SEEDS, profile="quick")
    page = _page(root)
    assert f"measured &lt;b&gt;{MEAN}&lt;/b&gt;, per seed {PER_SEED}" in page  # still escaped
    assert "the gap is 0.122 [0.1195, 0.1245] (95%, 3 seeds)" in page
    assert "a in the body" in page  # a name the seeds agree on: itself
    assert "{{" not in page and "&#123;&#123;" not in page


def test_a_missing_result_a_missing_metric_and_a_stale_result_are_marked(tmp_path):
    root = _project(tmp_path, "{{toy/paper: loss_trained}}; {{toy/quick: no_such.metric}}; "
                              "{{toy/quick: loss_trained per seed}}")
    sealed_result(root, "toy", SEEDS, profile="quick")
    page = _page(root)
    assert f"[no result: toy/paper]; [no metric no_such.metric in toy/quick]; {PER_SEED}" in page
    assert "[stale]" not in page  # the result is current
    source = root / "analysis" / "toy.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert f"{PER_SEED} [stale]" in _page(root)


def test_export_json_keeps_the_written_text_and_adds_the_rendered(tmp_path):
    from litrec.export.document import graph_document
    from litrec.records.load import load_project

    root = _project(tmp_path, "{{toy/quick: loss_trained}} against {{toy/paper: loss_gd}}")
    sealed_result(root, "toy", SEEDS, profile="quick")
    doc = graph_document(load_project(root / "records", root / "analysis"), root / "results",
                         "quick")
    rec = next(r for r in doc["records"] if r["id"] == "ARXIV-0000.00003")
    written = "measured {{toy/quick: loss_trained}} against {{toy/paper: loss_gd}}"
    assert rec["data"]["claims"][0]["check"]["expect"][0]["note"] == written
    assert rec["rendered"] == {
        "claims[0].check.expect[0].note": f"measured {MEAN} against [no result: toy/paper]"}


def _validate(root: Path) -> list:
    from litrec.verdicts.report import validation_report

    report = validation_report(root / "records", root / "analysis", root / "results",
                               use_cache=False, record_baseline=False)
    return [d for d in report.checked.diagnostics if d.code.startswith("placeholder")]


def test_validate_warns_at_the_placeholder_whose_result_lacks_the_metric(tmp_path):
    root = _project(tmp_path, "{{toy/quick: loss_trained}} and\n"
                              "then {{toy/quick: loss_trainde per seed}}")
    sealed_result(root, "toy", SEEDS, profile="quick")
    found = _validate(root)
    assert [(d.severity, d.line, d.col, d.field, d.code) for d in found] == [
        ("warning", 20, 18, "claims[0].check.expect[0].note", "placeholder-metric")]
    assert found[0].path.endswith("ARXIV-0000.00003.yaml")
    assert ("placeholder '{{toy/quick: loss_trainde per seed}}': the stored result toy/quick has "
            "no metric 'loss_trainde'. Did you mean 'loss_trained'?") in found[0].message
