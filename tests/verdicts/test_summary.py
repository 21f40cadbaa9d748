"""What the claims came to, each paper's apart from the owner's own (`litrec.verdicts.summary`),
on every surface that counts them: `litrec status`' summary, the site's home page, `export json`'s
`summary` and `export tex`'s count macros. A claim of a literature record is its paper's; a
note's (or a theory's, ...) is the owner's own; extension rows are counted beside their claims.
Three projects: a paper's claims beside a note's (`judged`), a paper's alone (`mini`), two papers."""

from __future__ import annotations

import html
import json
import re

import pytest

from litrec.records.load import load_project
from litrec.site.index_pages import home
from litrec.site.pagedata import gather
from litrec.verdicts.summary import tally, tally_words

SECOND = """
id: ARXIV-0000.00002
kind: literature
title: A second paper, not yet checked
authors: [Ada Lovelace]
year: 2024
claims:
  - id: F1
    kind: finding
    title: Not checked yet
    statement: A claim no analysis checks yet.
"""


def _status_summary(cli) -> str:
    """`litrec status`' summary at `paper` (after the line of the paper's own scale, where it has
    one), its wrapped lines joined: it comes first, before the rows (a row starts at the margin)."""
    code, out, err = cli("status", "--profile", "paper")
    assert code == 0, err
    lines = out.splitlines()
    first = next(i for i, ln in enumerate(lines) if re.match(r"(at \S+, the paper's own scale: )?\d+ claims? ", ln))
    end = next(i for i, ln in enumerate(lines) if i > first and not ln.startswith(" "))
    assert re.match(r"[A-Z]+-\S+#", lines[end]), lines[end]  # the first row, after the summary
    return " ".join(" ".join(lines[first:end]).split())


def _home_tally(root) -> list[str]:
    """The home page's table of whose claims came to what: a row each, its text."""
    page = home(gather(load_project(root / "records"), root / "results", "paper"), "")
    first = page[page.index("<th>Whose claims</th>"):page.index('class="lr-dashboard"')]
    rows = re.findall(r"<tr><td>(.*?)</tr>", first, re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", r)).split()) for r in rows]


def _counts(tex: str) -> dict[str, str]:
    return dict(re.findall(r"\\newcommand\{\\(litrec\w+)\}\{(\d+)\}", tex))


# ------------------------------------------------------------------ the count itself


def test_a_paper_s_claims_are_counted_apart_from_the_owner_s_and_extensions_beside_them():
    got = tally([("ARXIV-1#F1", "literature", "reproduced"),
                 ("ARXIV-1#F1+ext", "literature", "not reproduced"),
                 ("NOTE-1#C1", "note", "inconclusive"), ("THEORY-1#C1", "theory", "reproduced"),
                 ("DOI-2#P1", "literature", "missing"), ("ARXIV-1#F2", "literature", "reproduced")])
    assert list(got.papers) == ["ARXIV-1", "DOI-2"]  # in the order their claims come
    assert dict(got.papers["ARXIV-1"].claims) == {"reproduced": 2}
    assert dict(got.papers["ARXIV-1"].extensions) == {"not reproduced": 1}
    assert (got.own.n, got.own.n_extensions, got.all_papers.n) == (2, 0, 3)
    assert tally_words(got) == ("2 claims of ARXIV-1: 2 reproduced; 1 extension beside them: 1 not "
                                "reproduced; 1 claim of DOI-2: 1 missing; 2 claims of your own: 1 "
                                "reproduced, 1 inconclusive")
    assert tally_words(tally([("NOTE-1#C1", "note", "reproduced")])) == \
        "1 claim of your own: 1 reproduced"
    assert tally_words(tally([])) == "0 claims: none"


# ------------------------------------------------------------------ a paper's claims and a note's


def test_status_counts_the_paper_s_claims_apart_from_the_note_s(judged, cli):
    assert _status_summary(cli) == ("5 claims of ARXIV-2212.07677: 1 inconclusive, 4 missing; 1 "
                                    "claim of your own: 1 reproduced (profile paper)")


def test_the_home_page_counts_the_paper_s_claims_apart_from_the_note_s(judged):
    assert _home_tally(judged) == [
        "ARXIV-2212.07677 Transformers learn in-context by gradient descent 5 claims "
        "1 inconclusive , 4 missing 5 missing",
        "The owner's own claims 1 claim, of NOTE-621 1 reproduced 1 missing"]


def test_export_json_counts_the_paper_s_claims_apart_from_the_note_s(judged, cli):
    code, out, err = cli("export", "json", "--profile", "paper")
    assert code == 0, err
    summary = json.loads(out)["summary"]
    assert summary["papers"] == {"claims": 5, "verdicts": {"inconclusive": 1, "missing": 4},
                                 "extensions": 0, "extension_verdicts": {}}
    assert summary["own"] == {"claims": 1, "verdicts": {"reproduced": 1}, "extensions": 0,
                              "extension_verdicts": {}}
    (paper,) = summary["by_paper"]
    assert paper == {"paper": "ARXIV-2212.07677",
                     "title": "Transformers learn in-context by gradient descent", **summary["papers"]}
    code, _, err = cli("export", "json", "--profile", "paper", "--out", "graph.json")
    assert err == ("wrote graph.json: 8 records, 13 links; 5 claims of ARXIV-2212.07677: 1 "
                   "inconclusive, 4 missing; 1 claim of your own: 1 reproduced (profile paper)\n")


def test_export_tex_counts_the_paper_s_claims_apart_from_the_note_s(judged, cli):
    code, out, err = cli("export", "tex", "--profile", "paper")
    assert code == 0, err
    counts = _counts(out)
    for group, claims, reproduced, inconclusive, missing in (
            ("Papers", 5, 0, 1, 4), ("Oswald", 5, 0, 1, 4), ("Own", 1, 1, 0, 0)):
        at = f"litrec{group}Paper"
        assert (counts[at + "Claims"], counts[at + "Reproduced"], counts[at + "Inconclusive"],
                counts[at + "Missing"], counts[at + "NotReproduced"], counts[at + "Extensions"]) \
            == (str(claims), str(reproduced), str(inconclusive), str(missing), "0", "0"), group


# ------------------------------------------------------------------ a paper's claims alone


@pytest.fixture
def paper_alone(mini, monkeypatch):
    """The mini project: a paper's one claim (no result yet), a note that makes none."""
    monkeypatch.chdir(mini)
    return mini


def test_a_paper_s_claims_alone_say_nothing_of_the_owner_s(paper_alone, cli):
    assert _status_summary(cli) == ("1 claim of ARXIV-0000.00001: 1 missing (profile paper, the "
                                     "paper's own scale)")
    assert _home_tally(paper_alone) == ["ARXIV-0000.00001 A toy paper 1 claim 1 missing"]
    summary = json.loads(cli("export", "json", "--profile", "paper")[1])["summary"]
    assert summary["own"]["claims"] == 0 and summary["papers"]["claims"] == 1
    assert [p["paper"] for p in summary["by_paper"]] == ["ARXIV-0000.00001"]
    counts = _counts(cli("export", "tex", "--profile", "paper")[1])
    assert (counts["litrecOwnPaperClaims"], counts["litrecPapersPaperMissing"],
            counts["litrecLovelacePaperMissing"]) == ("0", "1", "1")


# ------------------------------------------------------------------ two papers


@pytest.fixture
def two_papers(judged):
    """`judged` with a second paper, its one claim unchecked."""
    (judged / "records" / "literature" / "ARXIV-0000.00002.yaml").write_text(SECOND, encoding="utf-8")
    return judged


def test_two_papers_are_each_counted_apart(two_papers, cli):
    assert _status_summary(cli).endswith(  # unchecked at paper_full too: that scale's line first
        "; 1 claim of your own: 1 missing 1 claim of ARXIV-0000.00002: 1 unchecked; 5 claims of "
        "ARXIV-2212.07677: 1 inconclusive, 4 missing; 1 claim of your own: 1 reproduced (profile "
        "paper)")
    assert [row.split(" claim")[0] for row in _home_tally(two_papers)] == [
        "ARXIV-0000.00002 A second paper, not yet checked 1",
        "ARXIV-2212.07677 Transformers learn in-context by gradient descent 5",
        "The owner's own"]
    summary = json.loads(cli("export", "json", "--profile", "paper")[1])["summary"]
    assert [(p["paper"], p["claims"], p["verdicts"]) for p in summary["by_paper"]] == [
        ("ARXIV-0000.00002", 1, {"unchecked": 1}),
        ("ARXIV-2212.07677", 5, {"inconclusive": 1, "missing": 4})]
    assert summary["papers"]["claims"] == 6 and summary["own"]["claims"] == 1
    counts = _counts(cli("export", "tex", "--profile", "paper")[1])
    assert (counts["litrecPapersPaperClaims"], counts["litrecPapersPaperUnchecked"],
            counts["litrecLovelacePaperUnchecked"], counts["litrecOswaldPaperUnchecked"],
            counts["litrecOwnPaperClaims"]) == ("6", "1", "1", "0", "1")
