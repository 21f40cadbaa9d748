"""Edges of the verdict core that a wrong rule would cross: tables, each row able to fail.

The seeds an estimate gives up at, and where it is exactly on the line; an undecided list's
leaning; what a claim's status keeps of its result (provenance, signature, scales, stored
expectations, the problems behind it) and what rests on a claim that is not reproduced;
every damaged result reported, not only the first.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from types import SimpleNamespace

import pytest

from litrec.records.expectation import Expectation
from litrec.records.load import load_project
from litrec.results.seal import broken_seal, seal
from litrec.results.state import modified_results
from litrec.results.store import result_path
from litrec.verdicts import claims
from litrec.verdicts.claims import (
    ClaimStatus,
    expectation_record,
    flag_dependents,
    judged_in,
    project_scales,
    provenance,
    result_problems,
    with_scales,
)
from litrec.verdicts.judge import Outcome, evaluate, leaning
from litrec.verdicts.stats import Summary, seeds_needed, t975
from tests.support.prop1 import NAME, P1, PROFILE, p1, seeds3, store


def E(**kw) -> Expectation:
    return Expectation.model_validate(kw)


def spread(n: int, mean: float, std: float) -> Summary:
    """A summary of `n` seeds with this mean and spread (the interval is not used here)."""
    return Summary(tuple([mean] * n), mean, std, mean - 1.0, mean + 1.0, "student t")


# ------------------------------------------------ seeds_needed: the least n, and where it stops


def _least_n(start: int, std: float, gap: float, limit: int = 1000) -> int | None:
    """The oracle: the least n >= start with t(n-1) std / sqrt(n) < gap, SciPy's quantiles
    rounded as the table is (the normal 1.960 beyond 30 degrees of freedom)."""
    from scipy import stats as sp

    for n in range(start, limit + 1):
        t = round(float(sp.t.ppf(0.975, n - 1)), 3) if n - 1 <= 30 else 1.960
        if t * std / math.sqrt(n) < gap:
            return n
    return None


AT_1000 = 1.96 / math.sqrt(999.5)    # 1.96/sqrt(1000) < gap < 1.96/sqrt(999): n = 1000
AT_1001 = 1.96 / math.sqrt(1000.5)   # clears first at n = 1001, past the limit


@pytest.mark.parametrize("n, mean, std, threshold, want", [
    (3, 1.1, 0.1, 1.0, 7),            # gap = std: 2.447/sqrt(7) = 0.925 < 1, 2.571/sqrt(6) is not
    (3, 0.9, 0.1, 1.0, 7),            # the same gap below the threshold
    (3, 1.0 + 1e-3, 1.0, 1.0, None),  # a gap this small needs more than 1000 seeds
    (3, AT_1000, 1.0, 0.0, 1000),     # the last n the estimate tries
    (3, AT_1001, 1.0, 0.0, None),     # one seed past it: never
    (2, 10.0, 0.01, 0.0, 2),          # already enough at the seeds there are: the count itself
    (1, 10.0, 0.01, 0.0, 2),          # one seed: the estimate starts at two (one gives no spread)
    (5, 10.0, 0.01, 0.0, 5),          # it never says fewer than the seeds run
    (3, 3.182, 2.0, 0.0, 5),          # at n = 4, t std / sqrt(n) = 3.182 = the gap exactly: not below
    (3, 3.1821, 2.0, 0.0, 4),         # just more gap: 4
    (3, 1.0, 0.0, 0.0, None),         # no spread: no estimate
    (3, 1.0, 0.5, 1.0, None),         # the mean on the threshold: none
    (12, 2.0, 4.0, 0.0, 18),          # 2.110 * 4 / sqrt(18) = 1.99 < 2; 2.120 * 4 / sqrt(17) is not
    (3, 0.32, 1.0, 0.0, 38),          # past the t table, the normal 1.960: 1.96 / sqrt(37) > 0.32
])
def test_seeds_needed_is_the_least_count_that_would_clear_the_threshold(n, mean, std, threshold,
                                                                        want):
    got = seeds_needed(spread(n, mean, std), threshold)
    assert got == want
    if std and mean != threshold:
        assert got == _least_n(max(n, 2), std, abs(mean - threshold))


def test_seeds_needed_stops_at_its_limit():
    s = spread(3, AT_1001, 1.0)
    assert seeds_needed(s, 0.0) is None
    assert seeds_needed(s, 0.0, limit=1001) == 1001
    assert seeds_needed(s, 0.0, limit=1002) == 1001
    assert seeds_needed(spread(3, 1.1, 0.1), 1.0, limit=6) is None
    assert seeds_needed(spread(3, 1.1, 0.1), 1.0, limit=7) == 7


def test_the_exact_edge_uses_the_tables_own_quantile():
    # the row (3, 3.182, 2.0) above rests on t(3) being exactly 3.182 and sqrt(4) exactly 2
    assert t975(3) * 2.0 / math.sqrt(4) == 3.182


# ------------------------------------------------ the leaning of an undecided list metric


def test_an_undecided_list_leans_without_a_mean_or_threshold_of_its_own():
    # the second element straddles 1 (gap 0.1, std 0.1: 7 seeds); a list has no single mean
    o = evaluate(E(metric="g", op="<", value=1.0), [{"g": [0.1, 0.8]}, {"g": [0.2, 0.9]},
                                                    {"g": [0.3, 1.0]}])
    assert o.decision == "inconclusive" and o.mean is None and o.threshold is None
    assert leaning(o) == "about 7 seeds would likely decide it holds (seeds added after this look are marked: optional stopping)"
    o = evaluate(E(metric="g", op="<", value=1.0), [{"g": [0.1, 0.9]}, {"g": [0.2, 1.0]},
                                                    {"g": [0.3, 1.1]}])
    assert leaning(o) == "undecided, no number of seeds would likely decide it at this spread"
    o = evaluate(E(metric="g", op=">", value=0.99), [{"g": [1.0, 0.98]}, {"g": [1.2, 0.985]},
                                                     {"g": [0.995, 0.975]}])
    assert leaning(o) == f"about {o.seeds_needed} seeds would likely decide it fails (seeds added after this look are marked: optional stopping)"
    # both elements straddle: the first needs 12 seeds, the second 4; the list, the most
    assert o.seeds_needed == 12


# ------------------------------------------------ every damaged result is reported


def test_every_modified_result_is_reported_not_only_the_first(project):
    store(project, seeds3())
    res = project / "results"
    good = result_path(res, NAME, PROFILE).read_text()
    for name, text in (("a-older", json.dumps({**json.loads(good), "format": 0})),
                       ("b-damaged", "{not json"),
                       ("c-edited", good.replace('"max_abs_error_f64": 1e-12',
                                                 '"max_abs_error_f64": 0.5', 1)),
                       ("d-older", json.dumps({**json.loads(good), "format": 0})),
                       ("e-damaged", "[1]")):
        (res / name).mkdir()
        (res / name / "paper.json").write_text(text)
    found = modified_results(res)
    assert [Path(d.path).parent.name for d in found] == ["b-damaged", "c-edited", "e-damaged"]
    assert [d.field for d in found] == ["", "content_hash", ""]


# ------------------------------------------------ what a status keeps of its result


def test_provenance_keeps_exactly_the_run_facts():
    facts = {"code_hash": "c", "content_hash": "h", "git": {"commit": "abc", "dirty": False},
             "versions": {"numpy": "2"}, "platform": "linux", "device": "cpu", "seed": 0,
             "seeds": [0, 1], "started": "2026", "wall_time_s": 1.5, "config": {"n": 1},
             "sweep": {"seed": [0, 1]}, "litrec": "0.9"}
    result = {**facts, "metrics": {"m": 1}, "points": [], "figures": {}, "notes": ["x"]}
    assert provenance(result) == {**facts, "commit": "abc"}
    assert provenance({"git": "not a mapping"}) == {"git": "not a mapping", "commit": None}
    assert provenance({}) == {"commit": None}


@pytest.mark.parametrize("state, who, keys", [
    (("signed", "ada@example.org"), "ada@example.org", {"signer"}),
    (("bad", "the signature does not match"), "the signature does not match",
     {"signature_problem"}),
    (("unsigned", None), None, set()),
])
def test_the_signature_state_and_who_signed_or_why_not(project, monkeypatch, state, who, keys):
    store(project, seeds3())
    seen = []

    def fake(path, root):
        seen.append((Path(path), Path(root)))
        return state

    monkeypatch.setattr(claims, "signature_state", fake)
    st = p1(project)
    assert st.provenance["signature"] == state[0]
    assert {"signer", "signature_problem"} & set(st.provenance) == keys
    for k in keys:
        assert st.provenance[k] == who
    assert seen == [(result_path(project / "results", NAME, PROFILE), project)]


def test_a_status_row_has_every_field():
    st = ClaimStatus("R#C", "Title", "an", "paper", "not reproduced", measured={"m": 1.0},
                     expected=["m < 1"], reason="why", provenance={"seed": 0},
                     rests_on_it=["NOTE-1"], spread={"m": {"std": 0.1}}, seeds=[0, 1],
                     seeds_needed=None, direction=None, warnings=["w"], record_kind="literature")
    assert st.row() == {
        "claim": "R#C", "title": "Title", "analysis": "an", "profile": "paper",
        "verdict": "not reproduced", "verdicts": {"paper": "not reproduced"}, "seeds": [0, 1],
        "seeds_needed": None, "direction": None, "measured": {"m": 1.0}, "expected": ["m < 1"],
        "outcomes": [], "reason": "why", "expectation_changed": False, "extension_of": None, "post_hoc": [],
        "how": None, "events": [], "through": None, "seeds_after_looking": False,
        "record_kind": "literature", "rests_on_it": ["NOTE-1"],
        "spread": {"m": {"std": 0.1}}, "provenance": {"seed": 0}, "warnings": ["w"]}
    st.verdicts = {"paper": "not reproduced", "paper_full": "missing"}
    st.expectation_changed, st.stored_expectations = True, ["m < 2"]
    st.stored_verdict, st.new_verdict = "reproduced", "not reproduced"
    row = st.row()
    assert row["verdicts"] == {"paper": "not reproduced", "paper_full": "missing"}
    assert (row["expectation_changed"], row["stored_expectations"], row["stored_verdict"],
            row["new_verdict"], row["stored_outcomes"]) == (True, ["m < 2"], "reproduced",
                                                            "not reproduced", [])


@pytest.mark.parametrize("verdict, reason, error", [
    ("error", "no metric", True), ("modified", "edited", True), ("error", None, False),
    ("inconclusive", "an interval straddles", False), ("stale", "code changed", False),
    ("missing", "no result", False), ("not reproduced", "x", False),
])
def test_result_problems_are_the_errors_of_damaged_or_incomparable_results(verdict, reason, error):
    st = ClaimStatus("R#C", "t", "a", "paper", verdict, reason=reason, warnings=["w1"])
    other = ClaimStatus("R#D", "t", "a", "paper", verdict, reason=reason, warnings=["w1", "w2"])
    errors, warnings = result_problems([st, other])
    assert errors == ([reason] if error else [])
    assert warnings == ["w1", "w2"]


# ------------------------------------------------ what rests on a claim not reproduced


def _edge(source, rel, target, claim=None):
    return SimpleNamespace(source=source, rel=rel, target=target, claim=claim)


@pytest.mark.parametrize("rel, rests", [("uses", True), ("supports", True), ("rejects", False),
                                        ("reading_of", False)])
def test_users_and_supporters_rest_on_a_claim_and_the_theories_they_source(rel, rests):
    proj = SimpleNamespace(edges=[
        _edge("NOTE-2", rel, "PAPER", "P1"),
        _edge("NOTE-1", "uses", "PAPER", "P2"),          # another claim of the same paper
        _edge("NOTE-3", rel, "OTHER", "P1"),             # the same claim id, another record
        _edge("NOTE-2", "source_of", "THEORY-9"),
        _edge("NOTE-2", "uses", "THEORY-8"),             # uses, not source_of: no theory
        _edge("NOTE-1", "source_of", "THEORY-7"),
    ])
    failed = ClaimStatus("PAPER#P1", "t", "a", "paper", "not reproduced")
    held = ClaimStatus("PAPER#P2", "t", "a", "paper", "inconclusive")
    flag_dependents(proj, [held, failed])  # one not reproduced after one that is not
    assert failed.rests_on_it == (["NOTE-2", "THEORY-9"] if rests else [])
    assert held.rests_on_it == []


def test_a_theory_is_named_once_after_the_users():
    proj = SimpleNamespace(edges=[
        _edge("NOTE-b", "uses", "P", "C"), _edge("NOTE-a", "supports", "P", "C"),
        _edge("NOTE-a", "source_of", "THEORY-z"), _edge("NOTE-b", "source_of", "THEORY-z"),
        _edge("NOTE-b", "source_of", "NOTE-a")])  # a user that is also sourced: named once
    st = ClaimStatus("P#C", "t", "a", "paper", "not reproduced")
    flag_dependents(proj, [st])
    assert st.rests_on_it == ["NOTE-a", "NOTE-b", "THEORY-z"]


# ------------------------------------------------ both scales, side by side


def test_each_status_carries_its_verdict_at_both_scales(project):
    store(project, seeds3())
    proj = load_project(project / "records")
    statuses = claims.claim_statuses(proj, project / "results", PROFILE)
    out = with_scales(proj, project / "results", statuses, PROFILE)
    assert out is statuses and project_scales(proj) == ("paper", "paper_full")
    by = {s.claim: s for s in out}
    assert by[P1].verdicts == {"paper": "reproduced", "paper_full": "missing"}
    assert all(set(s.verdicts) == {"paper", "paper_full"} for s in out)
    # from another profile: both scales are judged afresh, the profile's own verdict is not one
    quick = claims.claim_statuses(proj, project / "results", "quick")
    with_scales(proj, project / "results", quick, "quick")
    q = {s.claim: s for s in quick}
    assert q[P1].verdict == "missing"
    assert q[P1].verdicts == {"paper": "reproduced", "paper_full": "missing"}
    assert q[P1].row()["verdicts"] == {"paper": "reproduced", "paper_full": "missing"}


# ------------------------------------------------ expectations of some profiles only


def _paper_full_only(project: Path) -> None:
    """Make P1's third expectation one of paper_full only."""
    rec = project / "records" / "literature" / "ARXIV-2212.07677.yaml"
    text = rec.read_text()
    old = "- {metric: max_abs_readout_error_f64, op: \"<\", value: 1.0e-10,"
    assert old in text
    rec.write_text(text.replace(old, old[:-1] + ", profiles: [paper_full],", 1))


def test_an_expectation_of_another_profile_is_neither_judged_nor_stored(project):
    _paper_full_only(project)
    proj = load_project(project / "records")
    assert not proj.errors
    _, claim = proj.claim(P1)
    every, paper = expectation_record(claim.check.expect), expectation_record(claim.check.expect,
                                                                              PROFILE)
    assert len(every["text"]) == 3 and len(paper["text"]) == 2
    assert paper["text"] == [e.describe() for e in judged_in(claim.check.expect, PROFILE)]
    assert paper["hash"] != every["hash"]
    assert expectation_record(claim.check.expect, "paper_full")["hash"] == every["hash"]
    # a result that stored the paper profile's record: nothing changed since
    store(project, seeds3(), expectations={P1: paper})
    st = p1(project)
    assert not st.expectation_changed and st.verdict == "reproduced" and len(st.outcomes) == 2
    assert st.expected == paper["text"]
    # one that stored every expectation: they differ from those judged in paper
    store(project, seeds3(), expectations={P1: every})
    assert p1(project).verdict == "expectation changed"


# ------------------------------------------------ judged again under the stored expectations


def test_stored_expectations_are_judged_with_the_noise_and_named_exactly(project):
    proj = load_project(project / "records")
    _, claim = proj.claim(P1)
    old = [e.model_copy(update={"value": 1e-14}) if i == 0 else e
           for i, e in enumerate(claim.check.expect)]
    noise = {"max_abs_error_f64": 1e-13, "max_abs_error_f32": 1e-8}
    store(project, seeds3(), expectations={P1: expectation_record(old)}, noise=noise)
    st = p1(project)
    assert [o.noise for o in st.stored_outcomes] == [1e-13, 1e-8, None]
    assert [o.noise for o in st.outcomes] == [1e-13, 1e-8, None]
    tail = (f"until the analysis reruns (litrec run {NAME} --profile {PROFILE} --force) neither "
            "is its verdict")
    store(project, seeds3(), expectations={"other#X": {"text": [], "hash": "0" * 64}})
    assert p1(project).reason == ("the expectations changed after the run: the claim was not "
                                  f"checked when the analysis ran; under the new ones, "
                                  f"reproduced; {tail}")
    store(project, seeds3(), expectations={P1: {"text": ["x"], "hash": "0" * 64}})
    assert p1(project).reason == ("the expectations changed after the run: the result kept no "
                                  "expectations it could be judged against again; under the new "
                                  f"ones, reproduced; {tail}")


def test_a_stored_expectation_that_is_refused_now_is_an_error_under_the_stored_ones(project):
    # stored: f64 error == 'small' against a number ... refused; now: the claim's own
    proj = load_project(project / "records")
    _, claim = proj.claim(P1)
    old = [E(metric="max_abs_error_f64", op="<", ref="max_abs_error_f32"),
           E(metric="max_abs_error_f64", op="==", value=True)]
    store(project, seeds3(), expectations={P1: expectation_record(old)})
    st = p1(project)
    assert [o.decision for o in st.stored_outcomes] == ["holds", "refused"]
    assert st.stored_verdict == "error" and st.new_verdict == "reproduced"
    assert st.verdict == "expectation changed"
    assert "under the expectations stored with the result, error;" in st.reason
    assert claim.check.expect  # the claim's own expectations are untouched


def test_the_record_hash_is_of_the_json_data():
    exps = [E(metric="m", op="≈", value=2, rel_tol=0.1, profiles=["paper"], precondition=True,
              paper="two", note="n")]
    rec = expectation_record(exps, "paper")
    blob = json.dumps(rec["data"], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert rec["hash"] == hashlib.sha256(blob.encode("utf-8")).hexdigest()
    assert rec["data"] == [{"metric": "m", "op": "≈", "value": 2.0, "factor": 1.0, "rel_tol": 0.1,
                            "abs_tol": None, "low": None, "high": None, "position": None,
                            "paper": "two", "official": None, "note": "n",
                            "profiles": ["paper"], "precondition": True}]
    assert rec["text"] == ["m ≈ 2 (±0.1 rel) (precondition) (paper)"]
    assert expectation_record(exps, "quick") == {
        "text": [], "data": [], "hash": hashlib.sha256(b"[]").hexdigest()}


# ------------------------------------------------ spread and noise as the result stores them


def test_the_spread_of_the_claims_metrics_only_and_a_noise_that_is_not_a_mapping(project):
    f64 = {"std": 1e-13, "min": 1e-12, "max": 1.2e-12, "n": 3}
    store(project, seeds3(), extra={"spread": {"max_abs_error_f64": f64, "other": {"std": 1}},
                                    "noise": ["not", "a", "mapping"]})
    st = p1(project)
    assert st.spread == {"max_abs_error_f64": f64}
    assert st.verdict == "reproduced" and [o.noise for o in st.outcomes] == [None] * 3


def test_a_stored_record_without_text_flags_every_outcome(project):
    store(project, seeds3(), expectations={P1: {"hash": "0" * 64}})
    st = p1(project)
    assert st.expectation_changed and st.stored_expectations == []
    assert [(o.expectation_changed, o.stored_expectation) for o in st.outcomes] == [(True, None)] * 3
    assert st.stored_verdict is None and st.verdict == "expectation changed"


# ------------------------------------------------ the seal: every way, and the odd values


def test_a_nan_in_a_result_is_sealed_and_verified(tmp_path):
    data = seal({"metrics": {"m": float("nan"), "inf": float("inf")}}, {})
    assert math.isnan(data["metrics"]["m"])
    assert broken_seal(data, tmp_path) is None
    assert broken_seal({**data, "metrics": {"m": 0.0, "inf": float("inf")}}, tmp_path) == (
        "its content does not match its content hash (edited or damaged since it was written)")


def test_a_figure_deeper_in_folders_is_hashed_and_found_by_its_file_name(tmp_path):
    data = seal({"figures": {"c": "a/p.new-1/c.svg"}}, {"c.svg": b"x"})
    body = {"figures": {"c": "c.svg"}, "figure_hashes": {"c.svg": hashlib.sha256(b"x").hexdigest()},
            "line_endings": "lf"}
    blob = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert data["content_hash"] == hashlib.sha256(blob.encode()).hexdigest()
    (tmp_path / "a" / "p.new-1").mkdir(parents=True)
    (tmp_path / "a" / "p.new-1" / "c.svg").write_bytes(b"x")
    assert broken_seal(data, tmp_path) is None
    (tmp_path / "a" / "p.new-1" / "c.svg").write_bytes(b"y")
    assert broken_seal(data, tmp_path) == ("its figure c.svg does not match the hash stored with "
                                           "the result")


def test_a_figure_that_cannot_be_read_is_missing(tmp_path, monkeypatch):
    data = seal({"figures": {"c": "p/c.svg"}}, {"c.svg": b"x"})
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "c.svg").write_bytes(b"x")
    real = Path.read_bytes

    def unreadable(self):
        if self.name == "c.svg":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", unreadable)
    assert broken_seal(data, tmp_path) == "its figure c.svg is missing"


def test_the_first_broken_figure_by_name_is_named(tmp_path):
    data = seal({"figures": {"b": "p/b.svg", "a": "p/a.svg", "c": "p/c.svg"}},
                {"b.svg": b"b", "a.svg": b"a", "c.svg": b"c"})
    (tmp_path / "p").mkdir()
    for n in "abc":
        (tmp_path / "p" / f"{n}.svg").write_bytes(n.encode())
    assert broken_seal(data, tmp_path) is None
    (tmp_path / "p" / "c.svg").write_bytes(b"other")
    (tmp_path / "p" / "b.svg").unlink()
    assert broken_seal(data, tmp_path) == "its figure b.svg is missing"


# ------------------------------------------------ a result's state from given inputs


def test_the_given_inputs_are_the_ones_judged(project):
    import dataclasses

    from litrec.analyses.inputs import result_inputs
    from litrec.results.state import result_state

    reg = load_project(project / "records").registry
    res = project / "results"
    store(project, seeds3())
    mine = result_inputs(reg, NAME, PROFILE)
    assert result_state(reg, res, NAME, PROFILE, fp=mine).state == "current"
    other = result_inputs(reg, NAME, "quick")  # another profile's inputs: not this result's
    got = result_state(reg, res, NAME, PROFILE, fp=other)
    assert got.state == "stale" and got.inputs is other
    unknown = dataclasses.replace(mine, problems=("a: cannot be read", "b: neither"))
    got = result_state(reg, res, "nothing", PROFILE, fp=unknown)
    assert (got.state, got.inputs) == ("missing", unknown)
    assert got.reason == ("no paper result for 'nothing'; its inputs cannot be known: "
                          "a: cannot be read; b: neither")
    assert result_state(reg, res, "nothing", PROFILE, fp=mine).reason == (
        "no paper result for 'nothing'")


@pytest.mark.parametrize("profiles, stored, profile, refused", [
    ({"a": {"paper", "quick"}}, False, "paper", False),
    ({"a": {"paper", "quick"}}, False, "nope", True),
    ({"a": {"paper"}, "b": None}, False, "nope", False),    # one cannot be read: any goes
    ({"a": {"paper"}}, True, "kept", False),                 # a stored result's profile
    ({}, False, "anything", False),                          # nothing known: nothing refused
    ({"a": set()}, False, "anything", False),
])
def test_check_profile_refuses_only_a_profile_nothing_knows(tmp_path, profiles, stored, profile,
                                                            refused):
    from litrec.results.state import check_profile
    from litrec.util.errors import ProfileError

    if stored:
        (tmp_path / "x").mkdir()
        (tmp_path / "x" / "kept.json").write_text("{}")
    reg = SimpleNamespace(profiles=profiles)
    if refused:
        with pytest.raises(ProfileError):
            check_profile(reg, tmp_path, profile)
    else:
        check_profile(reg, tmp_path, profile)


# ------------------------------------------------ judge: what an outcome carries


def test_a_precondition_is_carried_by_its_outcome():
    assert evaluate(E(metric="m", op=">", value=0.9, precondition=True), [{"m": 0.5}]).precondition
    assert not evaluate(E(metric="m", op=">", value=0.9), [{"m": 0.5}]).precondition
    o = evaluate(E(metric="m", op=">", value=0.9, precondition=True), [{"m": [0.5, 1.0]}])
    assert o.precondition and o.decision == "fails"


def test_a_boolean_measured_has_no_relative_difference():
    o = evaluate(E(metric="m", op="==", value=True), [{"m": True}])
    assert o.decision == "holds" and o.measured is True and o.expected is True
    assert o.rel_diff is None
    o = evaluate(E(metric="m", op="==", value=4.0), [{"m": 5.0}])
    assert o.rel_diff == 0.25


def test_a_boolean_expected_value_under_a_tolerance_is_refused_and_named():
    o = evaluate(E(metric="m", op="≈", value=True, abs_tol=0.1), [{"m": 1.0}])
    assert o.decision == "refused" and o.expected is True
    assert o.reason == ("the expected value is the boolean true, not a number; litrec does not "
                        "compare it with one (the claim and the analysis disagree on the metric's "
                        "type)")


@pytest.mark.parametrize("measured, decision, judged", [
    (1.0, "holds", 0.0),        # exactly equal: 0 tolerances away
    (-1.0, "fails", None),      # a - b = -2 (a + b would be 0): no tolerance covers it
    (1.5, "fails", None),
])
def test_a_zero_tolerance_is_exact(measured, decision, judged):
    o = evaluate(E(metric="m", op="≈", value=1.0, abs_tol=0.0), [{"m": measured}])
    assert o.decision == decision
    if judged is not None:
        assert o.judged["values"] == [judged] and o.judged["mean"] == judged
        assert o.threshold == 1.0
    else:
        assert o.reason == "a measured value is NaN or null (or its references coincide)"


@pytest.mark.parametrize("mean, threshold, judged, text", [
    (0.5, None, None, "about 5 seeds would likely decide it holds (seeds added after this look are marked: optional stopping)"),
    (None, 1.0, None, "about 5 seeds would likely decide it holds (seeds added after this look are marked: optional stopping)"),
    ("x", 1.0, None, "about 5 seeds would likely decide it holds (seeds added after this look are marked: optional stopping)"),
    (0.5, 1.0, None, "mean 0.5 below 1: about 5 seeds would likely decide it holds (seeds added after this look are marked: optional stopping)"),
    (9.0, 1.0, {"quantity": "q", "mean": 0.5}, "mean of q 0.5 below 1: about 5 seeds would "
                                                "likely decide it holds (seeds added after this "
                                                "look are marked: optional stopping)"),
])
def test_the_leaning_says_where_only_with_a_mean_and_a_threshold(mean, threshold, judged, text):
    o = Outcome("m < 1", "m", None, None, None, decision="inconclusive", mean=mean,
                threshold=threshold, judged=judged, seeds_needed=5, direction="likely holds")
    assert leaning(o) == text


def test_a_stored_record_reads_back_whatever_its_keys_order_or_characters():
    from litrec.verdicts.claims import stored_expectations

    exps = [E(metric="m", op="≈", value=2.0, rel_tol=0.1, note="ε < 1"),
            E(metric="t", op="between", low="l", high="h", position="< 0.5", profiles=["a"])]
    rec = expectation_record(exps)
    assert stored_expectations({"expectations": {"R#C": rec}}, "R#C") == exps
    assert stored_expectations({"expectations": {"R#C": {**rec, "hash": rec["hash"][::-1]}}},
                               "R#C") is None


def test_a_status_names_its_claim_analysis_and_profile_whatever_its_state(project):
    for prepare in (lambda: None, lambda: store(project, seeds3())):
        prepare()
        st = p1(project)
        assert (st.claim, st.title, st.analysis, st.profile) == (
            P1, "The identity (Proposition 1)", NAME, PROFILE)


def test_every_state_names_its_analysis_profile_result_inputs_and_reason(project):
    from litrec.results.state import result_state

    reg = load_project(project / "records").registry
    res = project / "results"
    path = result_path(res, NAME, PROFILE)

    def state(registry=reg, damaged=False):
        s = result_state(registry, res, NAME, PROFILE)
        assert (s.name, s.profile) == (NAME, PROFILE)
        stored = json.loads(path.read_text()) if path.exists() and not damaged else None
        assert s.result == stored  # a damaged file: nothing to judge
        return s.state, s.inputs is not None, s.reason, s.warnings

    assert state() == ("missing", True, f"no paper result for '{NAME}'", ())
    assert state(None) == ("missing", False, f"no paper result for '{NAME}'", ())
    store(project, seeds3())
    assert state() == ("current", True, None, ())
    assert state(None) == ("stale", False, f"analysis '{NAME}' is not in the registry", ())
    store(project, seeds3(), code_hash="0" * 64)
    got = state()
    assert got[:2] == ("stale", True) and got[2].startswith("code changed: ")
    store(project, seeds3())
    path.write_text(path.read_text().replace('"max_abs_error_f64": 1e-12', '"max_abs_error_f64": 0.5', 1))
    assert state() == ("modified", True, f"{path}: its content does not match its content hash "
                       "(edited or damaged since it was written); rerun: litrec run "
                       f"{NAME} --profile {PROFILE} --force", ())
    path.write_text("{not json")
    got = state(damaged=True)
    assert got[:2] == ("modified", False) and got[2].startswith("damaged result: ")


NOT_A_NUMBER = (", not a number; litrec does not compare it with one (the claim and the analysis "
                "disagree on the metric's type)")


@pytest.mark.parametrize("row, reason", [
    ({"t": 1.5, "lo": "one", "hi": 2.0}, "metric 'lo' is the text 'one'" + NOT_A_NUMBER),
    ({"t": 1.5, "lo": 1.0, "hi": True}, "metric 'hi' is the boolean true" + NOT_A_NUMBER),
    ({"t": {"a": 1}, "lo": 1.0, "hi": 2.0}, "metric 't' is a mapping" + NOT_A_NUMBER),
    ({"t": [1.5], "lo": 1.0, "hi": 2.0},
     "metric 't' is a list at some seeds and not at others, or its length changes"),
])
def test_between_names_the_metric_that_is_not_a_number(row, reason):
    e = E(metric="t", op="between", low="lo", high="hi", position="< 0.5")
    o = evaluate(e, [{"t": 1.2, "lo": 1.0, "hi": 2.0}, row])
    assert (o.decision, o.reason) == ("refused", reason)


def test_an_unknown_operator_is_a_programming_error_that_names_it():
    from litrec.verdicts.judge import decide

    with pytest.raises(ValueError, match="^~$"):
        decide(spread(3, 1.0, 0.1), "~", 0.0)


def test_an_unchecked_claim_names_itself_and_its_profile(project):
    note = project / "records" / "notes" / "NOTE-621.yaml"
    note.write_text(note.read_text() + "  - id: C2\n    kind: observation\n    title: Unchecked\n"
                    "    statement: Nothing measures this.\n")
    proj = load_project(project / "records")
    (st,) = claims.claim_statuses(proj, project / "results", "quick", only={"NOTE-621#C2"})
    assert (st.claim, st.title, st.analysis, st.profile, st.verdict) == (
        "NOTE-621#C2", "Unchecked", None, "quick", "unchecked")


@pytest.mark.parametrize("ref", [[True, False], ["a", "b"], [1.0, "b"]])
def test_a_list_reference_that_is_not_numbers_is_shown_as_it_is(ref):
    o = evaluate(E(metric="m", op="<", ref="r", factor=2.0), [{"m": [1.0, 1.0], "r": ref}])
    assert o.decision == "refused" and o.expected == ref


def test_a_figure_at_the_top_of_its_folder_is_sealed_and_checked(tmp_path):
    data = seal({"figures": {"c": "c.svg"}}, {"c.svg": b"x"})     # a path without a folder
    (tmp_path / "c.svg").write_bytes(b"x")
    assert broken_seal(data, tmp_path) is None
    (tmp_path / "c.svg").write_bytes(b"y")
    assert broken_seal(data, tmp_path) == ("its figure c.svg does not match the hash stored with "
                                           "the result")


def test_only_an_undecided_equality_has_a_direction():
    exp = E(metric="ok", op="==", value=True)
    assert evaluate(exp, [{"ok": True}, {"ok": True}]).direction is None
    assert evaluate(exp, [{"ok": False}, {"ok": False}]).direction is None
    assert evaluate(exp, [{"ok": True}, {"ok": False}]).direction == "undecided"


def test_a_result_of_another_cpu_is_stale_and_every_row_says_so(project):
    import dataclasses

    from litrec.analyses.inputs import result_inputs
    from litrec.results.state import result_state

    proj = load_project(project / "records")
    res, reg = project / "results", proj.registry
    mine = result_inputs(reg, NAME, PROFILE)
    there = dataclasses.replace(mine, isa=("x86_64", "avx2"))
    store(project, seeds3(), extra={"inputs": there.record()})
    here = dataclasses.replace(mine, isa=("x86_64", "avx2", "made_up_feature"))  # one feature more
    assert result_state(reg, res, NAME, PROFILE, fp=there).state == "current"
    state = result_state(reg, res, NAME, PROFILE, fp=here)
    assert (state.state, state.other_machine) == ("stale", True)
    assert "computed on another CPU" in state.reason and "made_up_feature only here" in state.reason
    (st,) = claims.claim_statuses(proj, res, PROFILE, only={P1}, states={NAME: state})
    assert st.verdict == "stale" and st.other_machine is True
    assert st.row()["other_machine"] is True
    behind = result_state(reg, res, NAME, PROFILE, fp=result_inputs(reg, NAME, "quick"))
    assert (behind.state, behind.other_machine) == ("stale", False)   # inputs without an isa:
    assert "instruction set it recorded is no longer one of its inputs" in behind.reason
    (st,) = claims.claim_statuses(proj, res, PROFILE, only={P1}, states={NAME: behind})
    assert st.other_machine is False and "other_machine" not in st.row()


def test_a_missing_figure_is_named_in_its_result_file(project):
    from litrec.results.state import result_state

    store(project, seeds3(), figures={"curve.svg": b"<svg/>"})
    (project / "results" / NAME / PROFILE / "curve.svg").unlink()
    state = result_state(load_project(project / "records").registry, project / "results", NAME,
                         PROFILE)
    (warning,) = state.warnings
    assert warning.startswith(f"{result_path(project / 'results', NAME, PROFILE)}:")


def test_a_missing_result_says_what_an_interrupted_run_left(project):
    from litrec.results import resume
    from litrec.results.state import result_state

    reg = load_project(project / "records").registry
    res = project / "results"
    assert result_state(reg, res, NAME, PROFILE).reason == f"no {PROFILE} result for '{NAME}'"
    out = {"metrics": {"x": 1.0}, "figures": {}, "notes": []}
    resume.keep(res, NAME, PROFILE, {"seed": 0}, "k0", out)
    assert result_state(reg, res, NAME, PROFILE).reason == (
        f"no {PROFILE} result for '{NAME}' (1 point done)")
    resume.keep(res, NAME, PROFILE, {"seed": 1}, "k1", out)
    held = Path(resume.checkpoint_dir(res, NAME, PROFILE, "ab" * 32))
    held.mkdir(parents=True)
    assert result_state(reg, res, NAME, PROFILE).reason.endswith("(2 points done)")  # no file yet
    (held / "training.npz").write_bytes(b"state")
    (held.parent / "empty").mkdir()
    assert result_state(reg, res, NAME, PROFILE).reason.endswith("(2 points done, 1 under way)")
    (resume.partial_dir(res, NAME, PROFILE) / "seed-0.json").unlink()
    (resume.partial_dir(res, NAME, PROFILE) / "seed-1.json").unlink()
    assert result_state(reg, res, NAME, PROFILE).reason.endswith("(1 under way)")


def test_an_interrupted_run_is_not_read_through_links(project, tmp_path):
    from litrec.results import resume

    res = project / "results"
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / resume.CHECKPOINTS / "k").mkdir(parents=True)
    (elsewhere / "seed-0.json").write_text("{}")
    (elsewhere / resume.CHECKPOINTS / "k" / "t.npz").write_bytes(b"x")
    (res / NAME).mkdir(parents=True, exist_ok=True)
    resume.partial_dir(res, NAME, PROFILE).symlink_to(elsewhere)
    assert resume.progress(res, NAME, PROFILE) == (0, 0)
    resume.partial_dir(res, NAME, PROFILE).unlink()
    folder = resume.partial_dir(res, NAME, PROFILE)
    folder.mkdir()
    (folder / "seed-0.json").symlink_to(elsewhere / "seed-0.json")
    (folder / resume.CHECKPOINTS).symlink_to(elsewhere / resume.CHECKPOINTS)
    assert resume.progress(res, NAME, PROFILE) == (0, 0)
    assert resume.progress(res, "nothing", PROFILE) == (0, 0)
