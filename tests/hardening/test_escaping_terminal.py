"""Hardening: text from a record reaches the terminal through one escaper
(`litrec.util.safetext.safe_text`), whatever prints it: `print` (standard output and error are
`SafeStream`s) and rich (`commands.common.console`, whose every segment of text is made safe,
a `Text` built from record text included). An ESC sequence or a C1 control (`\\x9b`, CSI) in a
title, a metric's name, an expectation or a reason shows as `\\u001b` and `\\u009b`, never raw:
before, the claims table of `status` and `run` wrote them raw, colouring or clearing the
terminal."""

from __future__ import annotations

import json

from rich.text import Text

from litrec.commands.common import console
from litrec.verdicts.claims import ClaimStatus
from litrec.verdicts.judge import Outcome
from litrec.verdicts.terminal import print_table
from tests.support.files import write
from tests.support.toy import analysis, write_project

EVIL = "Red\x1b[31m alert\x9b2J\x1b]0;owned\x07 end"
RAW = ("Red\x1b[31m", "\x9b", "\x1b]0;", "\x07")  # rich's own colours aside (`\x1b[31m` is its red)
SHOWN = ("Red\\u001b[31m alert", "\\u009b2J", "\\u001b]0;owned")  # rich itself drops the BEL


def _assert_escaped(text: str) -> None:
    for raw in RAW:
        assert raw not in text, repr(raw)
    for shown in SHOWN:
        assert shown in text, (shown, text)


def test_a_rich_text_of_a_title_prints_escaped(capsys, monkeypatch):
    """A `Text` built from record text never passed through `render_str`: it was written raw."""
    monkeypatch.setenv("FORCE_COLOR", "1")  # as on a terminal: rich writes its own colours
    monkeypatch.delenv("NO_COLOR", raising=False)
    out = console()
    line = Text("title: ")
    line.append(EVIL, style="green")
    out.print(line, Text(EVIL), no_wrap=True, crop=False)
    text = capsys.readouterr().out
    _assert_escaped(text)
    assert "\x1b[32m" in text  # rich's own colour still reaches the terminal


def test_the_claims_table_prints_metric_expectation_and_reason_escaped(capsys, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    o = Outcome(expectation=f"{EVIL} >= 10", metric=EVIL, measured=5.0, expected=10.0,
                holds=False, decision="fails")
    st = ClaimStatus("ARXIV-0000.00001#F1", EVIL, "toy", "quick", "not reproduced",
                     outcomes=[o], reason=EVIL)
    print_table([st], "quick", verbose=True)
    _assert_escaped(capsys.readouterr().out)


HOSTILE_PAPER = f'''
id: ARXIV-0000.00001
kind: literature
title: {json.dumps(EVIL)}
authors: [Ada Lovelace]
year: 2023
claims:
  - id: F1
    kind: finding
    title: {json.dumps(EVIL)}
    statement: {json.dumps(EVIL)}
    check:
      analysis: toy
      expect:
        - {{metric: {json.dumps(EVIL)}, op: ">=", value: 10, source: {{kind: paper, where: {json.dumps("§1 " + EVIL)}, quote: a test claim, threshold: paper}}}}
'''


def test_status_run_and_graph_print_record_text_escaped(tmp_path, litrec):
    """The whole way, as a user on a colour terminal runs it: the analysis reports a metric
    whose name (and the claim's expectation) holds the sequences; `run` and `status` print the
    claims table, `graph` the title."""
    root = write_project(tmp_path / "project", analysis(
        metrics={EVIL: 10.0}, profiles='{"quick": Config(), "paper": Config()}'),
        {"literature/ARXIV-0000.00001.yaml": HOSTILE_PAPER}, title="Toy")
    write(root, "pyproject.toml", "[project]\nname = 'toy'\n")
    colour = {"NO_COLOR": "", "FORCE_COLOR": "1"}
    for args in (["run", "--profile", "quick"], ["status", "--profile", "quick"],
                 ["status", "--profile", "quick", "--verbose"]):
        res = litrec(*args, cwd=root, env=colour)
        assert res.code == 0, (args, res.text)
        _assert_escaped(res.out)
        assert "reproduced" in res.out
    res = litrec("graph", cwd=root, env=colour)
    assert res.code == 0, res.text
    for raw in RAW:
        assert raw not in res.text
    assert "Red\\u001b[31m alert" in res.out
