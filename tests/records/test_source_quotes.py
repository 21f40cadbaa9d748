"""Where an expectation comes from, said precisely: a paper source quotes the paper's own words,
every source says whose its threshold is, and the quotes are checked against the paper's text
where the project keeps it (`litrec.records.quotes`).

Each test writes its own paper into a copy of the fixture project; nothing here reads the
live records.
"""

from __future__ import annotations

import os

import pytest

from litrec.records.expectation import Expectation
from litrec.records.quotes import normalised
from tests.support.records import error_lines, invalid, write_record

PAPER = "literature/ARXIV-0000.00009.yaml"


def paper(*sources: str, text: str | None = None) -> str:
    """A paper with one claim whose expectations carry these sources (YAML flow maps)."""
    expect = "".join(f"        - {{metric: m, op: '<', value: 1, source: {s}}}\n" for s in sources)
    return ("id: ARXIV-0000.00009\nkind: literature\ntitle: A paper with quotes\n"
            + (f"text: {text}\n" if text else "")
            + "claims:\n  - id: F1\n    kind: finding\n    title: t\n    statement: s\n"
            "    check:\n      analysis: prop1-identity\n      expect:\n" + expect)


QUOTED = "{kind: paper, where: §2, quote: 'the loss of the trained model is lower', threshold: paper}"


# ------------------------------------------------------------- the source's fields


def test_a_paper_source_without_a_quote_is_refused_with_its_fix(project, cli):
    write_record(project, PAPER, paper(
        "{kind: paper, where: '§3, Figure 2', states: the trained layer matches GD, threshold: paper}"))
    assert invalid(cli) == [
        "records/literature/ARXIV-0000.00009.yaml:12:50: claims[0].check.expect[0].source: a paper "
        "source needs quote:, the paper's own words, and has only states: (a paraphrase); add "
        "quote: the paper's own words at §3, Figure 2; keep states: for your paraphrase"]


def test_states_stays_beside_the_quote_as_a_paraphrase(project, cli):
    write_record(project, PAPER, paper(
        "{kind: paper, where: §2, quote: the loss is lower, states: it beats GD, threshold: paper}"))
    code, out, _ = cli("validate")
    assert code == 0, out


@pytest.mark.parametrize("source", [
    "{kind: paper, where: §2, quote: the loss is lower}",
    "{kind: official, file: src/train.py, line: 12}",
])
def test_a_paper_or_official_source_must_say_whose_the_threshold_is(project, cli, source):
    """No default: a missing origin must never read as the paper's (or the code's)."""
    write_record(project, PAPER, paper(source))
    code, out, _ = cli("validate")
    assert code == 1
    (line,) = error_lines(out)
    assert line.startswith("records/literature/ARXIV-0000.00009.yaml:12:")
    assert "claims[0].check.expect[0].source:" in line
    assert "source needs threshold: whose the threshold is: paper" in line
    assert "litrec (your choice, with threshold_reason: why)" in line


def test_litrecs_threshold_needs_its_reason(project, cli):
    write_record(project, PAPER, paper("{kind: paper, where: §2, quote: the loss is lower, threshold: litrec}",
                                       "{kind: official, file: a.py, line: 3, threshold: litrec, "
                                       "threshold_reason: a 1% tolerance for evaluation noise}"))
    assert invalid(cli) == [
        "records/literature/ARXIV-0000.00009.yaml:12:50: claims[0].check.expect[0].source: "
        "threshold: litrec needs threshold_reason: why litrec chose this threshold (a tolerance "
        "for noise, a margin over a measured value)"]


def test_an_extensions_threshold_is_litrecs_unless_it_says_otherwise():
    ext = Expectation.model_validate({"metric": "m", "op": "<", "value": 1, "source": {
        "kind": "extension", "reason": "litrec's stricter test"}})
    assert ext.source.origin() == "litrec" and ext.source.threshold is None
    said = Expectation.model_validate({"metric": "m", "op": "<", "value": 1, "source": {
        "kind": "extension", "reason": "r", "threshold": "official"}})
    assert said.source.origin() == "official"
    with pytest.raises(ValueError, match="threshold: 'paper', 'official' or 'litrec'|literal_error"):
        Expectation.model_validate({"metric": "m", "op": "<", "value": 1, "source": {
            "kind": "extension", "reason": "r", "threshold": "theirs"}})


def test_the_threshold_and_the_quote_are_no_part_of_the_criterion():
    """Saying whose a threshold is, or quoting the paper, never makes a stored result stale."""
    base = {"metric": "m", "op": "<", "value": 1}
    one = Expectation.model_validate({**base, "source": {
        "kind": "paper", "where": "§2", "quote": "q", "threshold": "paper"}})
    two = Expectation.model_validate({**base, "source": {
        "kind": "paper", "where": "Appendix A.10", "quote": "other words", "states": "s",
        "threshold": "litrec", "threshold_reason": "why"}})
    assert one.criterion() == two.criterion()


# ----------------------------------------------------- the quotes against the text


def test_quotes_found_in_the_papers_text_are_valid(project, cli):
    (project / "texts").mkdir()
    (project / "texts" / "paper.txt").write_text(
        "3. Results\nWe find that “the loss of the trai-\nned model is lower” than GD’s.\n",
        encoding="utf-8")
    write_record(project, PAPER, paper(QUOTED, text="texts/paper.txt"))
    code, out, _ = cli("validate")
    assert code == 0, out
    assert "quote" not in out


def test_a_quote_not_in_the_text_is_an_error_at_the_quote(project, cli):
    (project / "texts").mkdir()
    (project / "texts" / "paper.txt").write_text("The loss of the trained model is higher.\n",
                                                 encoding="utf-8")
    write_record(project, PAPER, paper("{kind: paper, where: §1, quote: the trained model is higher, threshold: paper}",
                                       QUOTED, text="texts/paper.txt"))
    assert invalid(cli) == [
        "records/literature/ARXIV-0000.00009.yaml:14:82: claims[0].check.expect[1].source.quote: "
        "quote not found in texts/paper.txt: 'the loss of the trained model is lower'; copy the "
        "paper's own words at the source's where: (line breaks, hyphens at line ends, spaces, "
        "typographic quotes and dashes do not matter), or correct the quote"]


def test_without_the_text_validate_says_once_the_quotes_were_not_checked(project, cli):
    """A fresh clone has no paper text (git ignores it): a note, never an error."""
    write_record(project, PAPER, paper(QUOTED, QUOTED, text="texts/paper.txt"))
    code, out, err = cli("validate")
    assert code == 0, out
    notes = [ln for ln in out.splitlines() if "not checked" in ln]
    assert notes == [
        "records/literature/ARXIV-0000.00009.yaml:4:7: info: text: 2 quotes of ARXIV-0000.00009's "
        "paper sources not checked: there is no texts/paper.txt in this project (a fresh clone: a "
        "paper's text is usually kept out of git); put the paper's text there to check them"]
    assert cli("validate", "--strict")[0] == 0  # a note, not a warning


@pytest.mark.parametrize("where, needle", [
    ("../outside.txt", "a path that climbs out of its folder with '..'"),
    ("texts/../../outside.txt", "a path that climbs out of its folder with '..'"),
    ("/etc/hostname", "an absolute path; write it relative to the project root"),
])
def test_a_text_path_out_of_the_project_is_refused(project, cli, where, needle):
    (project.parent / "outside.txt").write_text("the loss of the trained model is lower\n")
    write_record(project, PAPER, paper(QUOTED, text=f"'{where}'"))
    code, out, _ = cli("validate")
    assert code == 1
    (line,) = error_lines(out)
    assert line.startswith("records/literature/ARXIV-0000.00009.yaml:4:7: text: " + needle)
    assert "litrec reads nothing outside the project" in line


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_a_text_linked_out_of_the_project_is_not_read(project, cli):
    outside = project.parent / "outside.txt"
    outside.write_text("the loss of the trained model is lower\n")
    (project / "texts").mkdir()
    (project / "texts" / "paper.txt").symlink_to(outside)
    write_record(project, PAPER, paper(QUOTED, text="texts/paper.txt"))
    code, out, _ = cli("validate")
    assert code == 1
    (line,) = error_lines(out)
    assert line.startswith("records/literature/ARXIV-0000.00009.yaml:4:7: text: texts/paper.txt "
                           "is not read: it is a symbolic link to a file outside the project")


@pytest.mark.parametrize("quote, text", [
    ("self-attention layer", "a self-\nattention layer"),           # a line-break hyphen
    ("trained Transformers", "trained\n   Transformers"),            # whitespace
    ("the “copying” mechanism—here", 'the "copying" mechanism - here'),  # typographic marks
    ("the ﬁnal loss", "the final loss"),                            # a ligature
    ("token e_j is identical", "token ej is identical"),            # a subscript as text has it
    ("W₀ = 0", "W0 = 0"),                                           # a subscript digit
    ("Transformers learn", "transformers learn"),                   # a quote begun mid-sentence
])
def test_quote_and_text_are_compared_as_words(quote, text):
    assert normalised(quote) in normalised(text)


@pytest.mark.parametrize("quote, text", [
    ("one step of GD", "two steps of GD"),
    ("loss 0.2", "loss 0.3"),
])
def test_different_words_stay_different(quote, text):
    assert normalised(quote) not in normalised(text)


@pytest.mark.parametrize("source, text, valid", [
    ({"kind": "paper", "where": "§2", "states": "a paraphrase", "threshold": "paper"}, None, False),
    ({"kind": "paper", "where": "§2", "quote": "q"}, None, False),
    ({"kind": "official", "file": "a.py", "line": 3}, None, False),
    ({"kind": "paper", "where": "§2", "quote": "q", "threshold": "litrec"}, None, False),
    ({"kind": "paper", "where": "§2", "quote": "q", "threshold": "paper"}, "../paper.txt", False),
    ({"kind": "paper", "where": "§2", "quote": "q", "threshold": "paper"}, "/abs/paper.txt", False),
    ({"kind": "paper", "where": "§2", "quote": "q", "threshold": "paper"}, None, True),
    ({"kind": "extension", "reason": "r"}, None, True),
    ({"kind": "official", "file": "a.py", "line": 3, "threshold": "litrec", "threshold_reason": "why"},
     "texts/paper.txt", True),
])
def test_the_json_schema_says_what_the_model_says(source, text, valid):
    """Editors and CI without litrec refuse what validate refuses (`json_schema_extra`)."""
    from tests.support.schema import VALIDATORS, pydantic_valid

    data = {"id": "ARXIV-0000.00009", "kind": "literature", "claims": [
        {"id": "F1", "kind": "finding", "title": "t", "statement": "s", "check": {
            "analysis": "a", "expect": [{"metric": "m", "op": "<", "value": 1, "source": source}]}}]}
    if text is not None:
        data["text"] = text
    assert pydantic_valid("literature", data) is valid
    assert (not list(VALIDATORS["literature"].iter_errors(data))) is valid
