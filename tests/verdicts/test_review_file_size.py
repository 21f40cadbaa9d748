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


EDITS = {
    "a comment between entries": lambda text: text.replace('"NOTE-00001":\n', '# moved\n"NOTE-00001":\n'),
    "a number where text was": lambda text: text.replace('"content": "0000000000000001"', '"content": 1e5'),
    "a key written plainly": lambda text: text.replace('{"content": "0000000000000002"', '{content: "0000000000000002"'),
    "a duplicate target": lambda text: text.replace('"NOTE-00003":\n', '"NOTE-00003":\n  "X": {"content": "a"}\n  "X": {"content": "b"}\n'),
    "a record with no targets": lambda text: text + '"NOTE-99999":\n',
    "a target holding a colon": lambda text: text.replace('"THEORY-00004":', '"THEORY: 00004":'),
}


def test_what_is_read_is_what_yaml_reads_as_litrec_wrote_it_or_edited(tmp_path):
    """The review file is read as YAML reads it, whether litrec wrote it (read line by line, fast)
    or a hand edited it (any line `dump` would not write: read by YAML, located)."""
    import yaml

    from litrec.util.yamlsafe import YamlProblem, load_bytes

    path = tmp_path / "reviews.yaml"
    reviews = _reviews(20)
    reviews["ANTH-LIT-é"] = {"NOTE-00001": {"content": "ü\u2028\"quoted\": {x}"}}
    text = dump(reviews)
    path.write_text(text, encoding="utf-8")
    assert read_reviews(path) == (yaml.safe_load(text), None) == (reviews, None)
    for what, edit in EDITS.items():
        edited = edit(text)
        assert edited != text, what
        path.write_text(edited, encoding="utf-8")
        data, problem = read_reviews(path)
        try:
            located = load_bytes(edited.encode("utf-8"), max_bytes=10**8, max_nodes=10**7).data
        except YamlProblem as refused:  # a duplicate: refused, at its line, either way
            assert data == {} and problem is not None and problem.line == refused.line, what
            continue
        if problem is None:
            assert data == located, what
        else:  # not a mapping of mappings: YAML's reading says so too
            assert not all(isinstance(v, dict) for v in located.values()), what


def test_a_link_reviews_fields_are_all_its_fields_as_asdict_gives_them():
    """The suspect check's kept answer holds every field of each link's review (a field added
    later is kept too, or this fails)."""
    import dataclasses

    from litrec.verdicts.suspect import LinkReview

    review = LinkReview("NOTE-1", "ARXIV-1#C1", "uses", "suspect", ["statement"], "NOTE-1",
                        ("links", 0, "target"), ["C1"])
    assert review.fields() == dataclasses.asdict(review)
    assert review.fields()["moved"] is not review.moved
