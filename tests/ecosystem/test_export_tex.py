"""`litrec export tex`: one macro per claim verdict and number, named `\\litrec` + the claim's short
name + the profile + what it holds; numbers that work in text and in maths; no file where
`litrec status` would exit 1; the example manuscript (docs-examples/manuscript/paper.tex) uses only
macros the export defines, and compiles with pdflatex."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from types import SimpleNamespace

import pytest

from litrec.export.tex import (
    DIGITS,
    NameClash,
    claim_name,
    claim_names,
    escape,
    family_name,
    macros,
    metric_name,
    number,
    paper_names,
    profile_name,
    record_tag,
    short_name,
)
from litrec.verdicts.claims import ClaimStatus
from litrec.verdicts.events import how_judged
from tests.conftest import REPO
from tests.support.results import GOOD, sealed_result

MANUSCRIPT = REPO / "docs-examples" / "manuscript" / "paper.tex"
PAGE = REPO / "site" / "manuscript.md"
NO_PDFLATEX = "pdflatex not installed: apt-get install texlive-latex-base"


def _rec(rid: str, kind: str = "literature", authors: list[str] | None = None):
    return SimpleNamespace(id=rid, kind=kind, authors=authors or [])


def test_short_names_are_letters_and_follow_the_stated_scheme():
    oswald = _rec("ARXIV-2212.07677", authors=["Johannes von Oswald", "Eyvind Niklasson"])
    assert record_tag(oswald) == "Oswald"
    assert short_name("Oswald", "ARXIV-2212.07677#F1") == "OswaldFOne"
    assert short_name("Oswald", "ARXIV-2212.07677#P3+ext") == "OswaldPThreeExt"
    assert family_name("Sacramento, João") == "Sacramento" and family_name("João Núñez") == "Nunez"
    assert record_tag(_rec("NOTE-621", "note")) == "NoteSixTwoOne"
    assert record_tag(_rec("ARXIV-2301.00001")) == "ArxivTwoThreeZeroOneZeroZeroZeroZeroOne"
    assert profile_name("paper_full") == "PaperFull" and profile_name("paper") == "Paper"
    assert metric_name("ood.max_rel_gap") == "OodMaxRelGap"
    # the long name, for claims whose short names would be one: the whole id spelt as written
    assert claim_name("ARXIV-2212.07677#F1") == "ARXIVTwoTwoOneTwoZeroSevenSixSevenSevenFOne"
    assert all(re.fullmatch(r"[A-Za-z]+", claim_name(f"DOI-10.1002_rsa.1007{d}#P{d}"))
               for d in range(10)) and len(DIGITS) == 10


def test_the_page_gives_the_names_litrec_makes():
    page = PAGE.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([^`]+)` \| (.+?) \| `([a-z_]+)` \| `\\litrec(\w+)` \|$", page, re.M)
    assert len(rows) >= 3, rows
    for ref, authors, profile, name in rows:
        rid = ref.partition("#")[0]
        rec = _rec(rid, "literature" if rid.startswith("ARXIV") else "note",
                   re.findall(r"`([^`]+)`", authors))
        assert short_name(record_tag(rec), ref) + profile_name(profile) + "Verdict" == name, ref
    example = MANUSCRIPT.read_text(encoding="utf-8")
    for line in re.findall(r"```latex\n(.*?)```", page, re.S)[0].splitlines():
        if "..." not in line:
            assert line in example, line


def test_a_clash_of_long_names_is_refused_never_renumbered():
    statuses = [ClaimStatus("NOTE-1#P1", "t", None, "paper", "unchecked"),
                ClaimStatus("NOTE.1#P1", "t", None, "paper", "unchecked")]
    with pytest.raises(NameClash, match=r"NOTE-1#P1 and NOTE.1#P1 would both be"):
        macros(statuses)


def test_two_claims_whose_short_names_collide_both_take_their_long_names():
    proj = SimpleNamespace(records={
        "ARXIV-2212.07677": _rec("ARXIV-2212.07677", authors=["Johannes von Oswald"]),
        "ARXIV-2301.00001": _rec("ARXIV-2301.00001", authors=["Oswald, Anna"]),
        "NOTE-621": _rec("NOTE-621", "note")})
    refs = ["ARXIV-2212.07677#F1", "ARXIV-2212.07677#F1+ext", "ARXIV-2301.00001#F1",
            "ARXIV-2212.07677#P1", "NOTE-621#C1"]
    names, notes = claim_names(proj, refs)
    assert names == {"ARXIV-2212.07677#F1": "ARXIVTwoTwoOneTwoZeroSevenSixSevenSevenFOne",
                     "ARXIV-2212.07677#F1+ext": "ARXIVTwoTwoOneTwoZeroSevenSixSevenSevenFOneExt",
                     "ARXIV-2301.00001#F1": "ARXIVTwoThreeZeroOneZeroZeroZeroZeroOneFOne",
                     "ARXIV-2212.07677#P1": "OswaldPOne",  # no other Oswald has a P1
                     "NOTE-621#C1": "NoteSixTwoOneCOne"}
    assert len(set(names.values())) == len(names)
    (note,) = notes
    assert "ARXIV-2212.07677#F1 and ARXIV-2301.00001#F1 would share the short name " \
           "\\litrecOswaldFOne" in note


def test_two_papers_by_one_first_author_count_under_their_long_names():
    """A paper's counts are named by its tag, as its claims are; two papers by one first author,
    or a paper whose tag is a group's (`Papers`, `Own`), take their ids spelt instead, saying so."""
    proj = SimpleNamespace(records={
        "ARXIV-2212.07677": _rec("ARXIV-2212.07677", authors=["Johannes von Oswald"]),
        "ARXIV-2301.00001": _rec("ARXIV-2301.00001", authors=["Oswald, Anna"]),
        "DOI-10.1_x": _rec("DOI-10.1_x", authors=["Grace Own"]),
        "ARXIV-0000.00002": _rec("ARXIV-0000.00002", authors=["Ada Lovelace"])})
    names, notes = paper_names(proj, list(proj.records))
    assert names == {"ARXIV-2212.07677": "ARXIVTwoTwoOneTwoZeroSevenSixSevenSeven",
                     "ARXIV-2301.00001": "ARXIVTwoThreeZeroOneZeroZeroZeroZeroOne",
                     "DOI-10.1_x": "DOIOneZeroOneX", "ARXIV-0000.00002": "Lovelace"}
    assert notes == [
        "papers ARXIV-2212.07677 and ARXIV-2301.00001 would share the count macros "
        "\\litrecOswald...: each takes its long name (\\litrecARXIVTwoTwoOneTwoZeroSevenSixSevenSeven..., "
        "\\litrecARXIVTwoThreeZeroOneZeroZeroZeroZeroOne...)",
        "paper DOI-10.1_x's count macros would be \\litrecOwn..., a group's: it takes its long name "
        "(\\litrecDOIOneZeroOneX...)"]


def test_the_profile_is_in_every_name():
    st = [ClaimStatus("NOTE-621#C1", "t", None, "paper", "unchecked")]
    paper = {n for n, _, _ in macros(st, "paper", {"NOTE-621#C1": "NoteSixTwoOneCOne"})}
    full = {n for n, _, _ in macros(st, "paper_full", {"NOTE-621#C1": "NoteSixTwoOneCOne"})}
    assert paper == {"litrecNoteSixTwoOneCOnePaperVerdict"}
    assert full == {"litrecNoteSixTwoOneCOnePaperFullVerdict"}


def test_numbers_and_text_are_tex():
    # one piece of maths each: it works in running text and inside $...$ alike
    assert number(0.20671) == r"\ensuremath{0.2067}"
    assert number(4.441e-16) == r"\ensuremath{4.441\times10^{-16}}"
    assert number(float("nan")) == r"\ensuremath{\mathrm{NaN}}"
    assert number(float("-inf")) == r"\ensuremath{-\infty}"
    assert escape("loss_trained ≈ loss_gd (±0.01 rel)") == \
        r"loss\_trained \ensuremath{\approx} loss\_gd (\ensuremath{\pm}0.01 rel)"
    assert escape("a <= 0.1 × b") == r"a \ensuremath{\le} 0.1 \ensuremath{\times} b"
    assert escape("50% & #1") == r"50\% \& \#1"


def _result_at(project, name: str, metrics: list[dict], profile: str) -> None:
    """A sealed result of `name` at `profile`, with a seed per entry of `metrics`."""
    from litrec.analyses.inputs import RESULT_FORMAT
    from litrec.analyses.inputs import result_inputs as fingerprint
    from litrec.records.load import load_project
    from litrec.results.seal import seal
    from litrec.results.store import write_result

    fp = fingerprint(load_project(project / "records").registry, name, profile)
    payload = {"format": RESULT_FORMAT, "analysis": name, "profile": profile,
               "code_hash": fp.code_hash, "code_files": fp.files, "versions": fp.versions,
               "inputs": fp.record(), "started": "2026-01-02T03:04:05+00:00", "wall_time_s": 1.0,
               "config": {}, "metrics": metrics[0], "figures": {}, "notes": [],
               "seeds": list(range(len(metrics))), "sweep": {"seed": list(range(len(metrics)))},
               "points": [{"seed": i, "metrics": m} for i, m in enumerate(metrics)]}
    write_result(project / "results", name, profile, seal(payload, {}), {})


@pytest.fixture
def numbers(project, cli):
    sealed_result(project, "single-layer-lsa", [GOOD, {**GOOD, "loss_trained": 0.2001},
                                          {**GOOD, "loss_trained": 0.2002}])
    sealed_result(project, "conditioning-vs-parameters", {
        "params_unchanged": True, "max_abs_pred_error": 0.0, "max_abs_dW_error": 0.0,
        "implied_model_distance": 1.0, "min_cross_distance": 1.0})
    out = project / "litrec-numbers.tex"
    code, _, err = cli("export", "tex", "--out", out)
    assert code == 0 and "macros (profile paper)" in err, err
    return out.read_text(encoding="utf-8")


def _defined(text: str) -> dict[str, str]:
    return dict(re.findall(r"\\newcommand\{\\(\w+)\}\{(.*)\}%", text))


def test_the_export_defines_what_the_manuscript_uses(numbers):
    values = _defined(numbers)
    assert len(values) == numbers.count("\\newcommand")
    f1 = "litrecOswaldFOnePaper"
    assert values[f1 + "Verdict"] == "reproduced"
    assert values[f1 + "LossTrained"] == r"\ensuremath{0.2001\ [0.1999, 0.2003]}"
    assert values[f1 + "LossTrainedN"] == "3"
    assert values["litrecNoteSixTwoOneCOnePaperVerdict"] == "reproduced"
    assert values["litrecOswaldFTwoPaperVerdict"] == "missing"
    assert max(len(n) for n in values if n.endswith("Verdict")) <= 40  # the long ones were 60+
    used = set(re.findall(r"\\(litrec\w+)", MANUSCRIPT.read_text(encoding="utf-8")))
    assert used and used <= set(values), used - set(values)
    assert all(line.count("{") == line.count("}") for line in numbers.splitlines()
               if line.startswith("\\newcommand"))


def _pdflatex(folder, name: str = "paper.tex") -> None:
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", name],
                          cwd=folder, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:]
    assert (folder / name).with_suffix(".pdf").stat().st_size > 1000


def test_the_example_manuscript_compiles(numbers, tmp_path):
    """The example uses numbers in running text and inside maths (`\\[...\\]`, `$...$`)."""
    if shutil.which("pdflatex") is None:
        pytest.skip(NO_PDFLATEX)
    (tmp_path / "litrec-numbers.tex").write_text(numbers, encoding="utf-8")
    shutil.copy(MANUSCRIPT, tmp_path / "paper.tex")
    _pdflatex(tmp_path)


def test_every_macro_compiles_in_text_and_every_number_in_maths(project, cli, numbers, tmp_path):
    """Every macro of two profiles' files, `\\input` side by side: each in running text, each
    number (an `\\ensuremath` or a seed count) inside `$...$` too."""
    _result_at(project, "single-layer-lsa", [GOOD, {**GOOD, "loss_trained": 0.2101}], "paper_full")
    code, _, err = cli("export", "tex", "--profile", "paper_full", "--out", tmp_path / "full.tex")
    assert code == 0, err
    full = (tmp_path / "full.tex").read_text(encoding="utf-8")
    both = {**_defined(numbers), **_defined(full)}
    assert len(both) == len(_defined(numbers)) + len(_defined(full))  # no name shared
    assert _defined(full)["litrecOswaldFOnePaperFullLossTrainedN"] == "2"
    if shutil.which("pdflatex") is None:
        pytest.skip(NO_PDFLATEX)
    (tmp_path / "paper.tex").write_text(numbers, encoding="utf-8")
    body = []
    for name, value in both.items():
        body.append(f"\\{name}{{}}\\par")
        if value.startswith("\\ensuremath") or value.isdigit():
            body.append(f"$x = \\{name} + 1$\\par")
    (tmp_path / "all.tex").write_text(
        "\\documentclass{article}\n\\input{paper.tex}\n\\input{full.tex}\n\\begin{document}\n"
        + "\n".join(body) + "\n\\end{document}\n", encoding="utf-8")
    _pdflatex(tmp_path, "all.tex")


def _status_errors(cli, *args) -> list[str]:
    code, _, err = cli("status", "--profile", "paper", *args)
    assert code == 1
    return [ln.removeprefix("litrec status: error: ") for ln in err.splitlines()
            if ln.startswith("litrec status: error: ")]


def _export_refuses(cli, project, *args) -> list[str]:
    out = project / "litrec-numbers.tex"
    code, stdout, err = cli("export", "tex", "--out", out, *args)
    assert code == 1 and "Traceback" not in err and not out.exists(), err
    assert err.splitlines()[-1].startswith("litrec export: no macros written")
    return [ln.removeprefix("litrec export: error: ") for ln in err.splitlines()
            if ln.startswith("litrec export: error: ")]


def test_a_modified_result_writes_no_macros_and_says_what_status_says(project, cli):
    """A manuscript never prints `modified` as a claim's verdict: the export refuses, in the
    words `litrec status` uses, located."""
    sealed_result(project, "single-layer-lsa", [GOOD, {**GOOD, "loss_trained": 0.2001}])
    path = project / "results" / "single-layer-lsa" / "paper.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"loss_gd": 0.2', '"loss_gd": 0.3', 1),
                    encoding="utf-8")  # edited by hand: the seal no longer matches
    said = _export_refuses(cli, project)
    assert said == _status_errors(cli) and any("single-layer-lsa" in s for s in said), said


def test_a_bad_or_required_signature_writes_no_macros(project, cli):
    sealed_result(project, "single-layer-lsa", [GOOD, {**GOOD, "loss_trained": 0.2001}])
    out = project / "litrec-numbers.tex"
    assert cli("export", "tex", "--out", out)[0] == 0  # unsigned: passes, as status does
    out.unlink()
    said = _export_refuses(cli, project, "--require-signed")
    assert said == _status_errors(cli, "--require-signed")
    assert any("paper.json.sig: missing: the result is unsigned" in s for s in said), said
    sig = project / "results" / "single-layer-lsa" / "paper.json.sig"
    sig.write_text("not a signature\n", encoding="utf-8")
    said = _export_refuses(cli, project)
    assert said == _status_errors(cli)
    assert any("paper.json.sig: bad signature" in s for s in said), said


def test_json_export_exits_1_for_a_bad_signature_too(project, cli):
    sealed_result(project, "single-layer-lsa", [GOOD, {**GOOD, "loss_trained": 0.2001}])
    (project / "results" / "single-layer-lsa" / "paper.json.sig").write_text("x\n", encoding="utf-8")
    code, out, err = cli("export", "json")
    assert code == 1 and json.loads(out)["format"] == "litrec-graph"
    assert "paper.json.sig: bad signature" in err


@pytest.mark.parametrize("states, words", [
    (["pre-registered", "pre-registered"], "pre-registered"),
    (["pre-registered", "post hoc"], "post hoc: 1 of 2 criteria"),
    (["uncommitted", "pre-registered", "pre-registered"], "uncommitted: 1 of 3 criteria"),
    (["post hoc", "uncommitted", "unknown", "post hoc"],
     "post hoc: 2 of 4 criteria; uncommitted: 1 of 4 criteria; unknown: 1 of 4 criteria"),
    ([None], "unknown: 1 of 1 criteria"),
])
def test_the_registration_macro_calls_pre_registered_only_what_is(states, words):
    """A criterion not yet committed, or whose history git cannot tell, is never counted as
    pre-registered (the macro said so whenever none was post hoc)."""
    outcomes = [SimpleNamespace(registration={"state": s} if s else None) for s in states]
    assert how_judged(outcomes, []) == words


def test_the_registration_macro_is_not_pre_registered_where_an_event_applies():
    """Every criterion registered first, yet a threshold loosened after a look: the macro names
    the event and never says pre-registered."""
    outcomes = [SimpleNamespace(registration={"state": "pre-registered"})]
    event = {"short": "loosened: gap < 0.05 → gap < 0.1", "text": "loosened ..."}
    assert how_judged(outcomes, [event]) == "1 event: loosened: gap < 0.05 → gap < 0.1"
