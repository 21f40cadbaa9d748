"""The suspect-link check's kept answer (`litrec.cache.linkmemo`): an edit to what it read
changes the answer a cached `litrec validate` prints, and the answer is the one `--no-cache`
works out. Each edit keeps the file's size and puts its modification time back, so that only
the bytes tell it apart. The cache's refusal rules are tested in tests/cache/test_cache.py.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from litrec.verdicts import suspect

PAPER = Path("records/literature/ARXIV-2212.07677.yaml")
REVIEWS = Path("reviews.yaml")


@pytest.fixture
def judged(monkeypatch):
    """How many times the check worked the links out (0: the kept answer was printed)."""
    calls = []
    real = suspect.judge_links

    def spy(reading, reviews):
        calls.append(1)
        return real(reading, reviews)

    monkeypatch.setattr(suspect, "judge_links", spy)

    def take() -> int:
        n = len(calls)
        calls.clear()
        return n

    return take


def _links(cli, *args) -> dict:
    code, out, _ = cli("validate", "--format", "json", *args)
    assert code == 0, out
    data = json.loads(out)
    return {"suspect": data["suspect"], "reviews": data["reviews"]}


def _same_size_edit(path: Path, old: bytes, new: bytes) -> None:
    """Replace `old` by `new` (of the same length), the modification time put back."""
    assert len(old) == len(new)
    st, raw = path.stat(), path.read_bytes()
    assert raw.count(old) == 1
    path.write_bytes(raw.replace(old, new))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns


def _cached_then_uncached(cli, judged) -> tuple[dict, int]:
    """The answer of a cached run (and how often it judged), asserted equal to --no-cache's."""
    judged()
    cached = _links(cli)
    n = judged()
    assert cached == _links(cli, "--no-cache")
    judged()
    return cached, n


def test_an_edited_linked_record_changes_the_kept_answer(project, cli, judged):
    before, n = _cached_then_uncached(cli, judged)  # the first: the baseline is recorded
    assert n == 1 and before["suspect"] == []  # the answer worked out once, and kept ...
    assert _cached_then_uncached(cli, judged) == (before, 0)  # ... then printed as kept
    _same_size_edit(project / PAPER, b"the query included", b"the query includes")
    after, n = _cached_then_uncached(cli, judged)
    assert n == 1  # read again: the record's bytes changed
    assert {(s["record"], s["target"]) for s in after["suspect"]} >= {
        ("NOTE-621", "ARXIV-2212.07677#P1")}
    assert next(s for s in after["suspect"] if s["target"].endswith("#P1"))["moved"] == [
        "its statement changed"]


def test_an_edited_review_file_changes_the_kept_answer(project, cli, judged):
    before, _ = _cached_then_uncached(cli, judged)  # the first: the baseline is recorded
    assert before["suspect"] == [] and _cached_then_uncached(cli, judged)[1] == 0
    reviews = project / REVIEWS
    text = reviews.read_bytes()
    # the statement hash NOTE-621 reviewed P1 against, one digit changed
    line = next(ln for ln in text.splitlines() if b'"ARXIV-2212.07677#P1"' in ln)
    digest = json.loads(line.split(b": ", 1)[1])["statement"]
    changed = digest[:-1] + ("0" if digest[-1] != "0" else "1")
    _same_size_edit(reviews, digest.encode(), changed.encode())
    after, n = _cached_then_uncached(cli, judged)
    assert n == 1  # read again: the review file's bytes changed
    assert [(s["record"], s["target"], s["moved"]) for s in after["suspect"]] == [
        ("NOTE-621", "ARXIV-2212.07677#P1", ["its statement changed"])]


@pytest.mark.parametrize("reshape", [
    pytest.param(lambda row: {**row, "note": "x"}, id="a field more"),
    pytest.param(lambda row: {k: v for k, v in row.items() if k != "holder"}, id="a field less"),
    pytest.param(lambda row: {**{k: v for k, v in row.items() if k != "holder"}, "note": ""},
                 id="a field renamed"),
])
def test_kept_rows_of_another_shape_are_worked_out_again(project, cli, judged, monkeypatch, reshape):
    """A kept answer whose rows are not exactly a review's fields and where it is written (as
    another litrec could have kept) is never printed: the check works it out again."""
    import dataclasses

    from litrec.cache import linkmemo

    before, _ = _cached_then_uncached(cli, judged)
    assert _cached_then_uncached(cli, judged) == (before, 0)  # kept, and printed as kept
    real, served = linkmemo.recall, []

    def reshaped(*args, **kwargs):
        kept = real(*args, **kwargs)
        if kept is None:  # --no-cache asks for none
            return None
        served.append(len(kept.links))
        return dataclasses.replace(kept, links=[reshape(row) for row in kept.links])

    monkeypatch.setattr(linkmemo, "recall", reshaped)
    assert _cached_then_uncached(cli, judged) == (before, 1)
    assert served and served[0] > 0  # a kept answer was there, reshaped, and not printed
