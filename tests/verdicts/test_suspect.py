"""Suspect links: NOTE-621 uses P1 and F1 and THEORY-169 rests on NOTE-621; when F1's verdict
moves after they were reviewed, both are suspect until `litrec review` clears them."""

from __future__ import annotations

import json

from tests.support.results import GOOD, sealed_result


def _f1(project, loss_trained: float) -> None:
    sealed_result(project, "single-layer-lsa", [{**GOOD, "loss_trained": loss_trained},
                                          {**GOOD, "loss_trained": loss_trained}])


def _suspects(cli) -> list[dict]:
    return json.loads(cli("validate", "--format", "json")[1])["suspect"]


def test_a_verdict_that_moves_makes_the_note_and_the_theory_suspect(project, cli):
    _f1(project, 0.2)
    sealed_result(project, "prop1-identity", {"max_abs_error_f64": 0.0, "max_abs_error_f32": 0.0,
                                        "max_abs_readout_error_f64": 0.0})
    assert cli("status")[0] == 0
    code, out, _ = cli("review", "NOTE-621", "THEORY-169")
    assert code == 0 and "reviewed NOTE-621: 3 links it rests on" in out
    code, out, err = cli("validate")
    assert code == 0 and "suspect" not in out and _suspects(cli) == []

    _f1(project, 0.5)  # F1 stops reproducing: 0.5 is not within 1% of 0.2
    code, out, _ = cli("validate")
    assert code == 0  # a warning, not an error
    lines = [ln for ln in out.splitlines() if ": warning: " in ln]
    assert len(lines) == 3, out
    note = next(ln for ln in lines if "#F1 (uses)" in ln)
    assert ("links[2].target: suspect: NOTE-621 rests on ARXIV-2212.07677#F1 (uses), which moved "
            "since NOTE-621 was last reviewed: its verdict moved from reproduced to not "
            "reproduced.") in note
    paper = next(ln for ln in lines if "(reading_of)" in ln)  # the paper it reads: its F1 moved
    assert "F1's verdict moved from reproduced to not reproduced" in paper
    theory = next(ln for ln in lines if "THEORY-169" in ln)
    assert "THEORY-169 rests on NOTE-621 (source_of)" in theory  # the link is in NOTE-621's file
    assert "what it rests on changed" in theory
    assert cli("validate", "--strict")[0] == 1
    assert {(s["record"], s["target"]) for s in _suspects(cli)} == {
        ("NOTE-621", "ARXIV-2212.07677"), ("NOTE-621", "ARXIV-2212.07677#F1"),
        ("THEORY-169", "NOTE-621")}
    exported = json.loads(cli("export", "json")[1])
    note_rec = next(r for r in exported["records"] if r["id"] == "NOTE-621")
    assert note_rec["suspect"] and any(r["state"] == "suspect" for r in note_rec["reviews"])

    assert cli("review", "NOTE-621")[0] == 0  # the note is read again: it is cleared ...
    assert [(s["record"], s["target"]) for s in _suspects(cli)] == [("THEORY-169", "NOTE-621")]
    assert cli("review", "THEORY-169")[0] == 0  # ... and the theory that rests on it, when reviewed
    assert _suspects(cli) == [] and cli("validate", "--strict")[0] == 0


def test_a_changed_statement_is_suspect_and_unknown_ids_are_refused(project, cli):
    assert cli("review", "NOTE-621")[0] == 0
    lit = project / "records/literature/ARXIV-2212.07677.yaml"
    text = lit.read_text(encoding="utf-8")
    lit.write_text(text.replace("the query included", "the query too"), encoding="utf-8")
    moved = {s["target"]: s["moved"] for s in _suspects(cli)}
    assert moved["ARXIV-2212.07677#P1"] == ["its statement changed"]
    code, _, err = cli("review", "NOTE-62")
    assert code == 2 and "did you mean 'NOTE-621'?" in err


NEW_NOTE = """\
id: NOTE-622
kind: note
title: Resting on Proposition 2
links:
  - rel: uses
    target: ARXIV-2212.07677#P2
"""


def _reword(project, old: str, new: str) -> None:
    lit = project / "records/literature/ARXIV-2212.07677.yaml"
    lit.write_text(lit.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def test_a_note_added_after_the_baseline_gets_its_own_and_is_then_suspect(project, cli):
    """A note added after the first baseline (as site/add-a-paper.md adds one) gets its baseline
    the first time it is validated, said in one line; a later move of its claim makes it suspect."""
    reviews = project / "reviews.yaml"
    assert cli("validate")[0] == 0 and reviews.exists()  # the first baseline
    (project / "records/notes/NOTE-622.yaml").write_text(NEW_NOTE, encoding="utf-8")
    code, out, err = cli("validate")
    assert code == 0 and "suspect" not in out
    assert ("litrec validate: new links without a review baseline: recorded what 1 record "
            "(NOTE-622) rests on now (1 link) in reviews.yaml; commit it: a link whose target "
            "moves from now on is suspect") in err
    assert '"NOTE-622":' in reviews.read_text(encoding="utf-8")
    code, out, err = cli("validate")
    assert code == 0 and "baseline" not in err  # said once
    _reword(project, "MLP then attention gives", "MLP then attention yields")
    code, out, err = cli("validate")
    assert code == 0 and ("suspect: NOTE-622 rests on ARXIV-2212.07677#P2 (uses), which moved "
                          "since NOTE-622 was last reviewed: its statement changed") in out


def test_a_link_added_to_a_reviewed_record_gets_its_entry_and_keeps_the_others(project, cli):
    """Only links without an entry are recorded: a link already suspect stays suspect."""
    assert cli("validate")[0] == 0
    _reword(project, "the query included", "the query too")  # P1 moves: NOTE-621 is suspect
    note = project / "records/notes/NOTE-621.yaml"
    text = note.read_text(encoding="utf-8")
    note.write_text(text.replace("links:\n", "links:\n  - rel: uses\n    target: "
                                 "ARXIV-2212.07677#P2\n", 1), encoding="utf-8")
    code, out, err = cli("validate")
    assert code == 0 and "recorded what 1 record (NOTE-621) rests on now (1 link)" in err
    suspect = {(s["record"], s["target"]) for s in _suspects(cli)}
    assert ("NOTE-621", "ARXIV-2212.07677#P1") in suspect
    assert ("NOTE-621", "ARXIV-2212.07677#P2") not in suspect


def test_new_links_are_never_recorded_in_a_review_file_that_cannot_be_read(project, cli,
                                                                           monkeypatch):
    assert cli("validate")[0] == 0
    reviews = project / "reviews.yaml"
    broken = _merge_conflict(reviews.read_text(encoding="utf-8"))
    reviews.write_text(broken, encoding="utf-8")
    (project / "records/notes/NOTE-622.yaml").write_text(NEW_NOTE, encoding="utf-8")
    code, out, err = cli("validate")
    assert code == 0 and "baseline" not in err and reviews.read_text(encoding="utf-8") == broken
    # a file that cannot be written: said in one line, the new link stays unreviewed (a note)
    reviews.write_text(broken.replace("<<<<<<< HEAD\n", "").replace("=======\n>>>>>>> other\n", ""),
                       encoding="utf-8")
    import litrec.util

    def refused(path, data):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(litrec.util.atomic, "replace_file", refused)
    code, out, err = cli("validate", "--verbose")
    assert code == 0 and "no review baseline for the new links: cannot write reviews.yaml" in err
    assert "NOTE-622 rests on ARXIV-2212.07677#P2 (uses) and was never reviewed" in out


def test_the_first_validate_records_a_baseline_and_says_so_once(project, cli):
    reviews = project / "reviews.yaml"
    assert not reviews.exists()
    code, out, err = cli("validate")
    assert code == 0 and "suspect" not in out
    assert ("litrec validate: no review baseline yet: recorded what 2 records rest on now "
            "(4 links) in reviews.yaml; commit it") in err
    assert err.count("review baseline") == 1
    first = reviews.read_bytes()
    assert b'"NOTE-621":' in first and b'"THEORY-169":' in first
    code, _, err = cli("validate")
    assert code == 0 and "baseline" not in err and reviews.read_bytes() == first  # once only
    lit = project / "records/literature/ARXIV-2212.07677.yaml"
    lit.write_text(lit.read_text(encoding="utf-8").replace("the query included", "the query too"),
                   encoding="utf-8")
    code, out, err = cli("validate")  # suspect from the first commit on, without `litrec review`
    assert code == 0 and "suspect: NOTE-621 rests on ARXIV-2212.07677#P1 (uses)" in out
    assert ": valid; 3 warnings; " in err  # warnings, counted apart from the notes


def test_no_baseline_for_invalid_records_or_a_project_where_nothing_rests_on_anything(project, cli):
    note = project / "records/notes/NOTE-621.yaml"
    text = note.read_text(encoding="utf-8")
    note.write_text(text + "titel: misspelt\n", encoding="utf-8")
    assert cli("validate")[0] == 1 and not (project / "reviews.yaml").exists()
    note.write_text(text, encoding="utf-8")
    from litrec.records.load import load_project
    from litrec.verdicts.suspect import baseline

    proj = load_project(project / "records")
    assert baseline(proj, project / "results") is not None  # written ...
    assert baseline(proj, project / "results") is None      # ... and never over a review file


def test_status_marks_suspect_claims_and_counts_them_as_warnings(project, cli):
    _f1(project, 0.2)
    assert cli("validate")[0] == 0  # the baseline: F1 reproduced
    code, out, _ = cli("status", "--profile", "paper")
    assert code == 0 and "suspect" not in out
    _f1(project, 0.5)  # F1 stops reproducing
    code, out, _ = cli("status", "--profile", "paper")
    assert code == 0  # a warning, never an error
    text = " ".join(out.split())
    assert "2 warnings: 2 claims suspect" in text
    rows = {r["claim"]: r for r in json.loads(cli("status", "--profile", "paper",
                                                  "--format", "json")[1])}
    assert {c for c, r in rows.items() if r["suspect"]} == {"ARXIV-2212.07677#F1", "NOTE-621#C1"}
    assert rows["ARXIV-2212.07677#F1"]["suspect"] == [  # the paper it reads, and F1 it uses
        "NOTE-621 rests on ARXIV-2212.07677 (reading_of), which moved since NOTE-621 was last "
        "reviewed: F1's verdict moved from reproduced to not reproduced; read it again, then "
        "`litrec review NOTE-621`",
        "NOTE-621 rests on ARXIV-2212.07677#F1 (uses), which moved since NOTE-621 was last "
        "reviewed: its verdict moved from reproduced to not reproduced; read it again, then "
        "`litrec review NOTE-621`"]
    assert "suspect: NOTE-621 rests on ARXIV-2212.07677#F1 (uses)" in text
    assert cli("review", "NOTE-621", "THEORY-169")[0] == 0
    rows = json.loads(cli("status", "--profile", "paper", "--format", "json")[1])
    assert not any(r["suspect"] for r in rows)
    assert "warning" not in cli("status", "--profile", "paper")[1]


def test_the_site_marks_suspect_records_and_claims(project, cli):
    from tests.support.seeds_toy import site_pages

    _f1(project, 0.2)
    assert cli("validate")[0] == 0
    pages = site_pages(project, profile="paper")
    assert not any("lr-s-suspect" in v for v in pages.values())
    _f1(project, 0.5)
    pages = site_pages(project, profile="paper")
    marked = {k for k, v in pages.items() if "lr-s-suspect" in v}
    assert marked == {"records/ARXIV-2212.07677.md", "records/NOTE-621.md",
                      "records/THEORY-169.md"}
    paper = pages["records/ARXIV-2212.07677.md"]
    f1 = paper[paper.index("### F1"):paper.index("### F2")]
    assert "lr-s-suspect" in f1 and "its verdict moved from reproduced to not reproduced" in f1
    p1 = paper[paper.index("### P1"):paper.index("### F1")]
    assert "lr-s-suspect" not in p1  # only the claim that moved
    note = pages["records/NOTE-621.md"]
    assert "<code>litrec review NOTE-621</code>" in note


def _merge_conflict(text: str) -> str:
    """The review file as a merge of two branches leaves it: both sides between markers."""
    head, _, rest = text.partition('"NOTE-621":')
    return head + '<<<<<<< HEAD\n"NOTE-621":' + rest + "=======\n>>>>>>> other\n"


def test_a_review_file_litrec_cannot_read_is_named_and_never_rewritten(project, cli):
    """A merge conflict (or any unreadable review file): validate says where and how to mend it,
    and `litrec review` refuses rather than rewrite the file with the other records' reviews lost."""
    assert cli("review", "NOTE-621", "THEORY-169")[0] == 0
    reviews = project / "reviews.yaml"
    for broken in (_merge_conflict(reviews.read_text(encoding="utf-8")),
                   reviews.read_text(encoding="utf-8").replace('"NOTE-621":', "- NOTE-621:")):
        reviews.write_text(broken, encoding="utf-8")
        code, out, _ = cli("validate")
        [line] = [ln for ln in out.splitlines() if ln.startswith("reviews.yaml:")]
        assert code == 0 and ": warning: " in line and "remove the conflict markers" in line
        assert ("a merge left its conflict markers" in line) == ("<<<<<<<" in broken)
        assert cli("validate", "--strict")[0] == 1
        code, _, err = cli("review", "THEORY-169")
        assert code == 1 and err.startswith("litrec review: error: reviews.yaml:")
        assert "Nothing was written" in err
        assert reviews.read_text(encoding="utf-8") == broken  # nothing lost


def test_an_entry_edited_by_hand_is_named_and_still_counts(project, cli):
    assert cli("review", "NOTE-621")[0] == 0
    reviews = project / "reviews.yaml"
    text = reviews.read_text(encoding="utf-8")
    assert '"verdict": "missing"' in text  # the fixture holds no result
    reviews.write_text(text.replace('"verdict": "missing"', '"verdict": "great"', 1), encoding="utf-8")
    for _ in range(2):  # named again on the next run (not kept by the links' cache)
        code, out, _ = cli("validate")
        [line] = [ln for ln in out.splitlines() if ln.startswith("reviews.yaml:")]
        assert code == 0 and "'great' is no verdict litrec gives" in line
        assert "`litrec review NOTE-621` records it anew" in line
        assert "its verdict moved from great to" in out  # the entry still counts: its link is suspect
    assert cli("review", "NOTE-621")[0] == 0
    assert "reviews.yaml:" not in cli("validate")[1]


def _git(root, *args) -> str:
    import subprocess

    return subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org",
                           *args], check=True, capture_output=True, text=True).stdout.strip()


def test_a_committed_review_file_deleted_is_an_error_never_a_new_baseline(project, cli):
    import shutil

    if shutil.which("git") is None:
        import pytest

        pytest.skip("git is not installed")
    reviews = project / "reviews.yaml"
    _git(project, "init", "-q")
    assert cli("validate")[0] == 0 and reviews.exists()  # the first baseline
    assert cli("review", "NOTE-621")[0] == 0
    _git(project, "add", ".")
    _git(project, "commit", "-qm", "records and their reviews")
    kept = reviews.read_bytes()
    head = _git(project, "rev-parse", "HEAD")[:12]
    reviews.unlink()
    _git(project, "commit", "-qam", "an accident: commit -a takes the deletion along")
    code, out, err = cli("validate")
    [line] = [ln for ln in out.splitlines() if ln.startswith("reviews.yaml:")]
    assert code == 1 and line.startswith("reviews.yaml:1:1: missing, while commit ")
    assert f"restore it: git checkout {_git(project, 'rev-parse', 'HEAD')[:12]}^ -- reviews.yaml" in line
    assert "baseline yet" not in err and not reviews.exists()
    code, _, err = cli("review", "THEORY-169")  # one record's review would drop the others'
    assert code == 1 and "Nothing was written" in err and not reviews.exists()
    assert "litrec review NOTE-621 THEORY-169" in err  # the deliberate new baseline, named
    _git(project, "checkout", f"{head}", "--", "reviews.yaml")  # the fix it names
    assert reviews.read_bytes() == kept and cli("validate")[0] == 0
    reviews.unlink()  # deleted, not committed: git still tracks it
    code, out, _ = cli("validate")
    assert code == 1 and "missing, while git tracks it" in out and "git checkout -- reviews.yaml" in out
    assert cli("review", "NOTE-621", "THEORY-169")[0] == 0  # a new baseline, asked for by name
    assert cli("validate")[0] == 0


def test_a_review_file_never_committed_gets_its_baseline_again(project, cli):
    _git(project, "init", "-q")  # a repository, but the review file was never committed
    assert cli("validate")[0] == 0
    (project / "reviews.yaml").unlink()
    code, _, err = cli("validate")
    assert code == 0 and "no review baseline yet" in err and (project / "reviews.yaml").exists()


def test_two_reviews_at_once_both_land(project, monkeypatch):
    """Each review reads the file, adds its record and writes it back; without the project's
    review lock both read the same file and the second write loses the first review."""
    import threading
    import time

    from litrec.records.load import load_project
    from litrec.verdicts import suspect
    from litrec.verdicts.reading import project_reading

    reading = project_reading(load_project(project / "records"), project / "results")
    path = project / "reviews.yaml"
    read = suspect.read_reviews

    def slow_read(p):
        got = read(p)
        time.sleep(0.3)  # both have read before either writes, unless one waits for the other
        return got

    monkeypatch.setattr(suspect, "read_reviews", slow_read)
    failed: list[BaseException] = []

    def review(rid):
        try:
            suspect.write_reviews(path, reading, [rid])
        except BaseException as exc:  # a thread's failure, reported below
            failed.append(exc)

    threads = [threading.Thread(target=review, args=(rid,)) for rid in ("NOTE-621", "THEORY-169")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failed == []
    assert set(read(path)[0]) == {"NOTE-621", "THEORY-169"}
    from litrec.verdicts.reviewfile import LOCK

    assert not (project / LOCK).exists()  # the lock file goes with its holder
