"""Placeholders of stored numbers in prose (`litrec.records.placeholders`): the syntax, and
`litrec validate`'s errors for a malformed one and for one naming no registered analysis, each
at the line and column of the placeholder inside its (long, folded) text."""

from __future__ import annotations

import textwrap

import pytest

from litrec.records.placeholders import scan_placeholders
from tests.support.records import error_lines, write_record
from tests.support.seeds_toy import TOY
from tests.support.toy import write_analysis

NOTE = textwrap.dedent("""\
    id: NOTE-7
    kind: note
    title: A note
    summary: "the loss is {{toy/quick: loss_trained}}"
    body: |
      First line.
      Then {{toy/quick loss_trained}} and {{toi/quick: loss_trained per seed}}.
      Last {{toy/quick: loss_trained per run}}
    """)


@pytest.mark.parametrize("text, got", [
    ("a {{single-layer-lsa/paper_full: k5.cos_vs_gd}} b",
     ("single-layer-lsa", "paper_full", "k5.cos_vs_gd", False)),
    ("{{ deeper-gdpp / paper :\n loss per  seed }}", ("deeper-gdpp", "paper", "loss", True)),
])
def test_a_placeholder_names_an_analysis_a_profile_and_a_dotted_metric(text, got):
    found, = scan_placeholders(text)
    assert (found.analysis, found.profile, found.metric, found.per_seed) == got
    assert found.problem is None and text[found.start:found.end] == found.text


@pytest.mark.parametrize("text, why", [
    ("{{toy/quick loss}}", "has no ':' before the metric"),
    ("{{toy: loss}}", "names no profile"),
    ("{{toy/quick: }}", "names no metric after ':'"),
    ("{{toy/quick: loss per run}}", "ends in 'per run': only 'per seed' may follow the metric"),
    ("{{toy/quick: k-5}}", "names 'k-5', not a metric name"),
    ("{{toy/quick: loss", "opens a placeholder that is not closed with '}}'"),
    ("$x^{{2}}$", "has no ':' before the metric"),  # two braces of LaTeX: written `{ {`
])
def test_a_malformed_placeholder_says_what_is_wrong_and_the_form(text, why):
    found, = scan_placeholders(text)
    assert why in found.problem
    assert "write {{ANALYSIS/PROFILE: METRIC}} or {{ANALYSIS/PROFILE: METRIC per seed}}" in found.problem
    assert scan_placeholders("$x^{ {2} }$ and { {a/b: c} }") == []


def test_validate_reports_malformed_and_unregistered_placeholders_where_they_are(
        tmp_path, monkeypatch, cli):
    write_analysis(tmp_path, TOY)
    write_record(tmp_path, "notes/NOTE-7.yaml", NOTE)
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli("validate", "--no-cache")
    assert code == 1
    assert error_lines(out) == [
        "records/notes/NOTE-7.yaml:7:8: body: placeholder '{{toy/quick loss_trained}}' has no ':' "
        "before the metric; write {{ANALYSIS/PROFILE: METRIC}} or {{ANALYSIS/PROFILE: METRIC "
        "per seed}}",
        "records/notes/NOTE-7.yaml:7:39: body: placeholder '{{toi/quick: loss_trained per seed}}' "
        "names no registered analysis 'toi'. Did you mean 'toy'? Name an analysis of "
        "analysis/registry.yaml (known: toy)",
        "records/notes/NOTE-7.yaml:8:8: body: placeholder '{{toy/quick: loss_trained per run}}' "
        "ends in 'per run': only 'per seed' may follow the metric; write {{ANALYSIS/PROFILE: "
        "METRIC}} or {{ANALYSIS/PROFILE: METRIC per seed}}",
    ]
