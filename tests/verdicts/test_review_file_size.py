"""The review file grows with the project: a file litrec wrote for 10,000 records (over a record's
1 MiB limit) is read, and one past the review file's own limit is refused with a message naming it."""

from __future__ import annotations

from litrec.util.yamlsafe import MAX_BYTES
from litrec.verdicts.suspect import REVIEWS_MAX_BYTES, dump, read_reviews


def _reviews(n: int) -> dict:
    return {f"NOTE-{i:05d}": {f"THEORY-{i:05d}": {"content": f"{i:016x}", "verdicts": {"C1": "reproduced"}},
                              f"ARXIV-2212.07677#C{i % 5 + 1}": {"statement": f"{i:016x}", "verdict": "reproduced"}}
            for i in range(n)}


def test_a_review_file_of_ten_thousand_records_is_read(tmp_path):
    path = tmp_path / "reviews.yaml"
    reviews = _reviews(10_000)
    path.write_text(dump(reviews), encoding="utf-8")
    assert path.stat().st_size > MAX_BYTES  # past a record's limit
    data, problem = read_reviews(path)
    assert problem is None
    assert data == reviews


def test_a_review_file_past_its_limit_is_refused_by_name(tmp_path):
    path = tmp_path / "reviews.yaml"
    path.write_bytes(b"# " + b"x" * REVIEWS_MAX_BYTES + b"\n")
    data, problem = read_reviews(path)
    assert data == {} and problem is not None
    assert f"over the {REVIEWS_MAX_BYTES}-byte limit for the review file" in problem.message
