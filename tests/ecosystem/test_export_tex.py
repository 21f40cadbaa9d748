"""`litrec export tex`: one macro per claim verdict and number, named from the claim's id; the
example manuscript (docs-examples/manuscript/paper.tex) uses only macros the export defines,
and compiles where a TeX engine is installed."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from litrec.tex import DIGITS, NameClash, claim_name, escape, macros, metric_name, number
from litrec.verdicts.claims import ClaimStatus
from tests.conftest import REPO
from tests.verdicts.test_status_width import _result
from tests.verdicts.test_suspect import GOOD

MANUSCRIPT = REPO / "docs-examples" / "manuscript" / "paper.tex"


def test_names_are_letters_and_stable():
    assert claim_name("ARXIV-2212.07677#F1") == "ARXIVTwoTwoOneTwoZeroSevenSixSevenSevenFOne"
    assert claim_name("NOTE-621#C1") == "NOTESixTwoOneCOne"
    assert claim_name("what-survives-translation#Conj12") == "WhatSurvivesTranslationConjOneTwo"
    assert metric_name("ood.max_rel_gap") == "OodMaxRelGap"
    assert all(re.fullmatch(r"[A-Za-z]+", claim_name(f"DOI-10.1002_rsa.1007{d}#P{d}"))
               for d in range(10)) and len(DIGITS) == 10


def test_the_page_gives_the_names_litrec_makes():
    page = (REPO / "site" / "manuscript.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([^`]+)` \| `\\litrec(\w+)` \|$", page, re.M)
    assert rows and all(claim_name(ref) == name for ref, name in rows), rows
    assert "`ood.max_rel_gap` | `OodMaxRelGap`" in page and metric_name("ood.max_rel_gap") == "OodMaxRelGap"
    example = (REPO / "docs-examples" / "manuscript" / "paper.tex").read_text(encoding="utf-8")
    for line in re.findall(r"```latex\n(.*?)```", page, re.S)[0].splitlines():
        if line.startswith("\\") and "..." not in line:
            assert line in example, line


def test_a_clash_is_refused_never_renumbered():
    statuses = [ClaimStatus("NOTE-1#P1", "t", None, "paper", "unchecked"),
                ClaimStatus("NOTE.1#P1", "t", None, "paper", "unchecked")]
    with pytest.raises(NameClash, match=r"NOTE-1#P1 and NOTE.1#P1 would both be"):
        macros(statuses)


def test_numbers_and_text_are_tex():
    # maths that works in running text and inside $...$ alike
    assert number(0.20671) == r"\ensuremath{0.2067}"
    assert number(4.441e-16) == r"\ensuremath{4.441\times10^{-16}}"
    assert escape("loss_trained ≈ loss_gd (±0.01 rel)") == \
        r"loss\_trained \ensuremath{\approx} loss\_gd (\ensuremath{\pm}0.01 rel)"
    assert escape("a <= 0.1 × b") == r"a \ensuremath{\le} 0.1 \ensuremath{\times} b"
    assert escape("50% & #1") == r"50\% \& \#1"


@pytest.fixture
def numbers(project, cli):
    _result(project, "single-layer-lsa", [GOOD, {**GOOD, "loss_trained": 0.2001},
                                          {**GOOD, "loss_trained": 0.2002}])
    _result(project, "conditioning-vs-parameters", {
        "params_unchanged": True, "max_abs_pred_error": 0.0, "max_abs_dW_error": 0.0,
        "implied_model_distance": 1.0, "min_cross_distance": 1.0})
    out = project / "litrec-numbers.tex"
    code, _, err = cli("export", "tex", "--out", out)
    assert code == 0 and "macros (profile paper)" in err
    return out.read_text(encoding="utf-8")


def test_the_export_defines_what_the_manuscript_uses(numbers):
    defined = re.findall(r"\\newcommand\{\\(\w+)\}\{(.*)\}%", numbers)
    names = [n for n, _ in defined]
    assert len(names) == len(set(names))
    values = dict(defined)
    f1 = "litrecARXIVTwoTwoOneTwoZeroSevenSixSevenSevenF"
    assert values[f1 + "OneVerdict"] == "reproduced"
    assert values[f1 + "OneLossTrained"] == \
        r"\ensuremath{0.2001} [\ensuremath{0.1999}, \ensuremath{0.2003}]"
    assert values[f1 + "OneLossTrainedN"] == "3"
    assert values["litrecNOTESixTwoOneCOneVerdict"] == "reproduced"
    assert values[f1 + "TwoVerdict"] == "missing"
    used = set(re.findall(r"\\(litrec\w+)", MANUSCRIPT.read_text(encoding="utf-8")))
    assert used and used <= set(names), used - set(names)
    assert all(line.count("{") == line.count("}") for line in numbers.splitlines()
               if line.startswith("\\newcommand"))


ENGINES = [e for e in ("pdflatex", "lualatex") if shutil.which(e)]


@pytest.mark.skipif(not ENGINES, reason="no TeX engine (pdflatex, lualatex) on this machine")
def test_the_example_manuscript_compiles(numbers, tmp_path):
    (tmp_path / "litrec-numbers.tex").write_text(numbers, encoding="utf-8")
    shutil.copy(MANUSCRIPT, tmp_path / "paper.tex")
    done = subprocess.run([ENGINES[0], "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:]
    assert (tmp_path / "paper.pdf").stat().st_size > 1000


def test_a_damaged_result_writes_no_macros_and_exits_1(project, cli):
    """A manuscript never prints `modified` as a claim's verdict: the export refuses, saying why."""
    _result(project, "single-layer-lsa", [GOOD, {**GOOD, "loss_trained": 0.2001}])
    path = project / "results" / "single-layer-lsa" / "paper.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"loss_gd": 0.2', '"loss_gd": 0.3', 1),
                    encoding="utf-8")  # edited by hand: the seal no longer matches
    out = project / "litrec-numbers.tex"
    code, _, err = cli("export", "tex", "--out", out)
    assert code == 1 and "Traceback" not in err
    assert "no macros written" in err and "single-layer-lsa" in err
    assert not out.exists()
