"""A claim's verdict from its outcomes and its result's state, in-process on the fixture project.

P1 of the fixture paper names `prop1-identity` (a stub analysis) with three expectations, each
`metric < 1e-10` or `< 1e-5`; NOTE-621 uses P1 and is a source of THEORY-169. Results are
written here as litrec writes them (sealed, with the analysis's fingerprint), never run.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from litrec.analyses.inputs import RESULT_FORMAT
from litrec.analyses.inputs import result_inputs as fingerprint
from litrec.records.load import load_project
from litrec.results.seal import broken_seal, seal
from litrec.results.state import check_profile, modified_results, result_state, result_states
from litrec.results.store import result_path
from litrec.verdicts.claims import (
    BEHIND,
    ClaimStatus,
    claim_statuses,
    expectation_record,
    result_problems,
    seed_metrics,
)
from tests.support.prop1 import GOOD, NAME, P1, PROFILE, p1, seeds3, store

# ------------------------------------------------ the verdict from the outcomes


def test_every_expectation_holding_is_reproduced(project):
    store(project, seeds3())
    st = p1(project)
    assert st.verdict == "reproduced" and st.reason is None and st.seeds == [0, 1, 2]
    assert [o.decision for o in st.outcomes] == ["holds"] * 3
    assert st.measured == {k: pytest.approx(v) for k, v in GOOD.items()}
    assert st.expected == ["max_abs_error_f64 < 1e-10", "max_abs_error_f32 < 1e-05",
                           "max_abs_readout_error_f64 < 1e-10"]
    assert st.provenance["seeds"] == [0, 1, 2] and st.provenance["wall_time_s"] == 1.0
    assert st.seeds_needed is None and st.rests_on_it == [] and st.warnings == []


def test_one_failing_expectation_is_not_reproduced_and_flags_what_rests_on_it(project):
    store(project, seeds3(max_abs_error_f64=[1e-3, 1.1e-3, 1.2e-3]))
    st = p1(project)
    assert st.verdict == "not reproduced"
    assert [o.decision for o in st.outcomes] == ["fails", "holds", "holds"]
    assert st.rests_on_it == ["NOTE-621", "THEORY-169"]


def test_an_inconclusive_outcome_is_never_turned_into_holds(project):
    # the f32 error straddles 1e-5 at three seeds; the other two hold
    store(project, seeds3(max_abs_error_f32=[0.4e-5, 0.9e-5, 1.4e-5]))
    st = p1(project)
    assert [o.decision for o in st.outcomes] == ["holds", "inconclusive", "holds"]
    assert st.verdict == "inconclusive" and st.rests_on_it == []
    # gap 0.1e-5, std 0.5e-5: the least n with t(n-1) / sqrt(n) < 0.2 is 97 (1.960 / 9.85)
    assert st.seeds_needed == st.outcomes[1].seeds_needed == 97
    assert st.direction == "likely reproduced"
    assert st.reason == ("an interval straddles its threshold, wide because of the seed count: 3 "
                         "seeds, t = 4.3 with 2 degrees of freedom; likely reproduced: "
                         "max_abs_error_f32: mean 9e-06 below 1e-05: about 97 seeds would likely "
                         "decide it holds (seeds added after this look are marked: optional "
                         "stopping)")


def test_a_failing_outcome_outweighs_an_inconclusive_one(project):
    store(project, seeds3(max_abs_error_f32=[0.2e-5, 1.0e-5, 1.6e-5],
                          max_abs_error_f64=[1e-3, 1.1e-3, 1.2e-3]))
    assert p1(project).verdict == "not reproduced"


def test_an_inconclusive_outcome_with_no_estimate_says_only_that(project):
    # the mean sits exactly on the threshold: no number of seeds would decide
    store(project, seeds3(max_abs_error_f32=[0.5e-5, 1e-5, 1.5e-5]))
    st = p1(project)
    assert st.verdict == "inconclusive" and st.seeds_needed is None
    assert st.direction == "undecided"
    assert st.reason.endswith("max_abs_error_f32: mean 1e-05 at 1e-05: undecided, no number of "
                              "seeds would likely decide it at this spread")


def test_a_refused_comparison_is_an_error_located_in_the_result(project):
    store(project, metrics={**GOOD, "max_abs_error_f32": "small"})
    st = p1(project)
    assert st.verdict == "error"
    path = result_path(project / "results", NAME, PROFILE)
    line = next(i for i, ln in enumerate(path.read_text().splitlines(), 1)
                if '"max_abs_error_f32"' in ln)
    assert st.reason.startswith(f"{path}:{line}: metrics.max_abs_error_f32: metric "
                                "'max_abs_error_f32' is the text 'small', not a number")
    assert st.reason.endswith("; not judged")
    errors, warnings = result_problems([st, st])
    assert errors == [st.reason] and warnings == []


def test_a_refusal_outweighs_a_failure(project):
    store(project, metrics={**GOOD, "max_abs_error_f64": 1.0, "max_abs_error_f32": "small"})
    assert p1(project).verdict == "error"


def test_a_metric_missing_from_a_current_result_is_an_error(project):
    store(project, metrics={"max_abs_error_f64": 1e-12})
    st = p1(project)
    path = result_path(project / "results", NAME, PROFILE)
    assert st.verdict == "error"
    assert st.reason == (f"{path}:{_line(path, 'metrics')}: metrics: the result of '{NAME}' has no "
                         "metric 'max_abs_error_f32'; rename the claim's metric, or rerun the "
                         "analysis with --force if it should have it")


def _line(path: Path, key: str) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if f'"{key}"' in ln)


def test_a_metric_missing_from_a_stale_result_is_stale(project):
    store(project, metrics={"max_abs_error_f64": 1e-12}, code_hash="0" * 64)
    st = p1(project)
    assert st.verdict == "stale" and st.reason.startswith("code changed: ")
    assert st.outcomes == []


def test_a_stale_result_is_shown_not_judged(project):
    store(project, metrics={**GOOD, "max_abs_error_f64": 1.0}, code_hash="0" * 64)
    st = p1(project)
    assert st.verdict == "stale" and st.reason.startswith("code changed: ")
    assert [o.decision for o in st.outcomes] == ["fails", "holds", "holds"]
    assert st.measured["max_abs_error_f64"] == 1.0


def test_no_result_is_missing_with_the_command_that_makes_it(project):
    st = p1(project)
    assert st.verdict == "missing" and st.outcomes == [] and st.provenance == {}
    assert st.reason == (f"no paper result for '{NAME}'; run: litrec run {P1} --profile paper")


def test_a_claim_without_analysis_is_unchecked(project):
    note = project / "records" / "notes" / "NOTE-621.yaml"
    note.write_text(note.read_text() + "  - id: C2\n    kind: observation\n    title: Unchecked\n"
                    "    statement: Nothing measures this.\n")
    proj = load_project(project / "records")
    assert not proj.errors
    rows = claim_statuses(proj, project / "results", PROFILE)
    unchecked = [s for s in rows if s.analysis is None]
    assert unchecked and {s.verdict for s in unchecked} == {"unchecked"}
    assert unchecked[0].reason == "no analysis yet: the claim names none (check.analysis)"
    assert [s.claim for s in rows] == [f"{r.id}#{c.id}" for r, c in proj.claims()]


def test_known_states_are_taken_as_given(project):
    store(project, seeds3())
    proj = load_project(project / "records")
    states = {NAME: result_state(None, project / "results", NAME, PROFILE)}  # unregistered: stale
    (st,) = claim_statuses(proj, project / "results", PROFILE, only={P1}, states=states)
    assert st.verdict == "stale" and st.reason == f"analysis '{NAME}' is not in the registry"


def test_noise_and_spread_are_carried_per_metric(project):
    payload = store(project, seeds3(), noise={"max_abs_error_f32": 1e-8, "other": 1.0})
    st = p1(project)
    assert st.outcomes[1].noise == 1e-8 and st.outcomes[0].noise is None
    assert payload["noise"]["other"] == 1.0
    assert st.spread == {}


# ------------------------------------------------ `litrec status --check-current`


@pytest.mark.parametrize("verdict", ["stale", "missing", "modified", "error"])
def test_check_current_refuses_every_state_behind(verdict):
    assert verdict in BEHIND
    assert not {"reproduced", "not reproduced", "inconclusive", "unchecked"} & set(BEHIND)


def test_check_current_refuses_a_missing_result(project, cli):
    code, out, err = cli("status", "--check-current", "--format", "json")
    rows = json.loads(out)
    assert code == 1 and any(r["verdict"] == "missing" for r in rows)
    assert f"litrec status: {P1} is missing: no paper result for '{NAME}'" in err


def test_check_current_passes_when_every_checked_result_is_current(project, cli):
    store(project, seeds3())
    code, out, err = cli("status", "--check-current", "--format", "json")
    rows = {r["claim"]: r for r in json.loads(out)}
    assert rows[P1]["verdict"] == "reproduced"
    behind = {r["verdict"] for r in rows.values()} & set(BEHIND)
    assert code == (1 if behind else 0)
    assert (P1 in err) is False


# ------------------------------------------------ the seal


def test_a_sealed_result_with_its_figure_is_current(project):
    store(project, seeds3(), figures={"curve.svg": b"<svg/>"})
    s = result_state(load_project(project / "records").registry, project / "results", NAME, PROFILE)
    assert s.state == "current" and s.current and s.reason is None and s.warnings == ()


def test_a_symlinked_figure_fails_the_seal(project):
    store(project, seeds3(), figures={"curve.svg": b"<svg/>"})
    fig = project / "results" / NAME / PROFILE / "curve.svg"
    elsewhere = project / "curve-copy.svg"
    elsewhere.write_bytes(fig.read_bytes())  # the same bytes, through a link
    fig.unlink()
    os.symlink(elsewhere, fig)
    s = result_state(load_project(project / "records").registry, project / "results", NAME, PROFILE)
    assert s.state == "modified" and not s.current
    assert "its figure curve.svg is reached through a link" in s.reason
    assert s.reason.endswith(f"; rerun: litrec run {NAME} --profile {PROFILE} --force")
    (d,) = modified_results(project / "results")
    assert "its figure curve.svg is reached through a link" in d.message and d.code == "result-modified"
    assert p1(project).verdict == "modified"


def test_a_figure_folder_that_is_a_link_fails_the_seal(project):
    store(project, seeds3(), figures={"curve.svg": b"<svg/>"})
    folder = project / "results" / NAME / PROFILE
    elsewhere = project / "figures-elsewhere"
    folder.rename(elsewhere)  # the same figures, the same bytes, in a folder reached by a link
    os.symlink(elsewhere, folder)
    s = result_state(load_project(project / "records").registry, project / "results", NAME, PROFILE)
    assert s.state == "modified" and "reached through a link" in s.reason


def test_a_swapped_figure_or_an_edited_number_breaks_the_seal(project):
    payload = store(project, seeds3(), figures={"curve.svg": b"<svg/>"})
    folder = project / "results" / NAME
    (folder / PROFILE / "curve.svg").write_bytes(b"<svg>other</svg>")
    assert broken_seal(payload, folder) == ("its figure curve.svg does not match the hash stored "
                                            "with the result")
    (folder / PROFILE / "curve.svg").write_bytes(b"<svg/>")
    assert broken_seal(payload, folder) is None
    edited = {**payload, "metrics": {**payload["metrics"], "max_abs_error_f64": 0.0}}
    assert broken_seal(edited, folder) == ("its content does not match its content hash (edited "
                                           "or damaged since it was written)")


def test_each_way_a_seal_is_broken_is_named(tmp_path):
    fig = {"c.svg": b"x"}
    good = seal({"figures": {"c": "p/c.svg"}}, fig)
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "c.svg").write_bytes(b"x")
    assert broken_seal(good, tmp_path) is None
    assert broken_seal({**good, "content_hash": None}, tmp_path) == "it carries no content hash"

    def resealed(data):
        body = {k: v for k, v in data.items() if k != "content_hash"}
        return seal(body, {}) | {k: v for k, v in data.items() if k == "figure_hashes"} | {
            "content_hash": hashlib.sha256(json.dumps(
                {k: v for k, v in data.items() if k != "content_hash"}, sort_keys=True,
                separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()}

    no_hashes = resealed({"figures": {"c": "p/c.svg"}, "figure_hashes": None, "line_endings": "lf"})
    assert broken_seal(no_hashes, tmp_path) == "its figure hashes are missing"
    unlisted = resealed({"figures": {}, "figure_hashes": good["figure_hashes"], "line_endings": "lf"})
    assert broken_seal(unlisted, tmp_path) == "its figure c.svg is not listed in it"
    (tmp_path / "p" / "c.svg").unlink()
    assert broken_seal(good, tmp_path) == "its figure c.svg is missing"
    (tmp_path / "p" / "c.svg").mkdir()  # a folder in its place
    assert broken_seal(good, tmp_path) == "its figure c.svg is missing"


def test_a_result_sealed_with_full_figure_paths_is_still_accepted(tmp_path):
    data = {"figures": {"c": "p.new-1/c.svg"}, "figure_hashes": {"c.svg": hashlib.sha256(b"x").hexdigest()}}
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    data["content_hash"] = hashlib.sha256(blob).hexdigest()  # the older form: paths as written
    (tmp_path / "p.new-1").mkdir()
    (tmp_path / "p.new-1" / "c.svg").write_bytes(b"x")
    assert broken_seal(data, tmp_path) is None
    assert broken_seal(seal({"figures": {"c": "p.new-1/c.svg"}}, {"c.svg": b"x"}), tmp_path) is None


def test_seal_reads_back_as_json_and_hashes_every_figure():
    data = seal({"a": (1, 2), "p": Path("x")}, {"b.svg": b"2", "a.svg": b"1"})
    assert data["a"] == [1, 2] and data["p"] == "x"
    assert list(data["figure_hashes"]) == ["a.svg", "b.svg"]
    assert data["figure_hashes"]["a.svg"] == hashlib.sha256(b"1").hexdigest()
    body = {k: v for k, v in data.items() if k != "content_hash"}
    want = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"),
                                     ensure_ascii=False, allow_nan=True).encode()).hexdigest()
    assert data["content_hash"] == want
    assert seal({"x": "é"}, {})["content_hash"] == hashlib.sha256('{"figure_hashes":{},"line_endings":"lf","x":"é"}'
                                                                   .encode()).hexdigest()


# ------------------------------------------------ the state of a result


def test_result_states(project):
    reg = load_project(project / "records").registry
    res = project / "results"
    missing = result_state(reg, res, NAME, PROFILE)
    assert (missing.state, missing.result, missing.reason) == ("missing", None,
                                                               f"no paper result for '{NAME}'")
    assert missing.inputs is not None and not missing.current
    store(project, seeds3(), figures={"curve.svg": b"<svg/>"})
    assert result_state(reg, res, NAME, PROFILE).state == "current"
    assert result_states(reg, res, [NAME], PROFILE)[NAME].state == "current"
    (res / NAME / PROFILE / "curve.svg").unlink()
    broken = result_state(reg, res, NAME, PROFILE)
    assert broken.state == "modified" and len(broken.warnings) == 1
    assert "figures.curve: the figure file" in broken.warnings[0]
    assert p1(project).warnings == list(broken.warnings)
    assert result_problems([p1(project)])[1] == list(broken.warnings)
    result_path(res, NAME, PROFILE).write_text("{not json")
    damaged = result_state(reg, res, NAME, PROFILE)
    assert damaged.state == "modified" and damaged.reason.startswith("damaged result: ")
    (d,) = modified_results(res)
    assert d.message.startswith("modified: ") and d.line == 1


def test_an_older_result_format_is_stale_not_modified(project):
    store(project, seeds3())
    path = result_path(project / "results", NAME, PROFILE)
    data = json.loads(path.read_text())
    data["format"] = RESULT_FORMAT - 1
    path.write_text(json.dumps(data))
    s = result_state(load_project(project / "records").registry, project / "results", NAME, PROFILE)
    assert s.state == "stale" and s.reason == "result format changed"
    assert modified_results(project / "results") == []
    assert modified_results(project / "nowhere") == []


def test_a_result_with_another_profiles_name_or_versions_is_stale(project):
    store(project, seeds3())
    path = result_path(project / "results", NAME, PROFILE)
    data = json.loads(path.read_text())
    reg = load_project(project / "records").registry
    fp = fingerprint(reg, NAME, PROFILE)
    assert fp.matches(data)
    assert not fp.matches({**data, "profile": "quick"})


def test_check_profile_names_the_known_profiles(project):
    from litrec.util.errors import ProfileError

    reg = load_project(project / "records").registry
    store(project, seeds3())
    check_profile(reg, project / "results", PROFILE)
    check_profile(None, project / "results", PROFILE)
    with pytest.raises(ProfileError, match="unknown profile 'nope'; known profiles: .*paper"):
        check_profile(reg, project / "results", "nope")


# ------------------------------------------------ what a result stores and how it is read


def test_seed_metrics_per_seed_only_for_a_sweep_over_seeds_alone():
    pts = [{"metrics": {"a": 1}}, {"metrics": {"a": 2}}]
    assert seed_metrics({"sweep": {"seed": [3, 4]}, "points": pts}) == ([{"a": 1}, {"a": 2}], [3, 4])
    one = {"metrics": {"a": 9}}
    assert seed_metrics({**one, "sweep": {"seed": [3, 4], "n": [1]}, "points": pts}) == ([{"a": 9}], None)
    assert seed_metrics({**one, "sweep": {"seed": [3]}, "points": []}) == ([{"a": 9}], None)
    assert seed_metrics({**one, "sweep": {"seed": [3]}, "points": [{"metrics": 1}]}) == ([{"a": 9}], None)
    assert seed_metrics({**one, "sweep": ["seed"], "points": pts}) == ([{"a": 9}], None)
    assert seed_metrics({}) == ([{}], None)


def test_the_expectation_record_is_text_and_a_hash_of_the_data():
    from litrec.records.model import Expectation

    exps = [Expectation.model_validate({"metric": "m", "op": "<", "value": 0.5, "factor": 2.0})]
    rec = expectation_record(exps)
    blob = json.dumps([e.model_dump(mode="json") for e in exps], sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False)
    assert rec == {"text": ["m < 2 × 0.5"], "hash": hashlib.sha256(blob.encode()).hexdigest(),
                   "data": [e.model_dump(mode="json") for e in exps]}


def test_an_expectation_changed_since_the_run_is_flagged_outcome_by_outcome(project):
    proj = load_project(project / "records")
    rec, claim = proj.claim(P1)
    now = expectation_record(claim.check.expect)
    text = list(now["text"])
    store(project, seeds3(), expectations={P1: {"text": [text[0], "was this", text[2]],
                                               "hash": "0" * 64}})
    st = p1(project)
    assert st.expectation_changed and st.stored_expectations == [text[0], "was this", text[2]]
    assert [o.expectation_changed for o in st.outcomes] == [False, True, False]
    assert st.outcomes[1].stored_expectation == "was this"
    assert st.row()["stored_expectations"] == st.stored_expectations
    # the same text, another hash: a number behind it changed, every outcome is flagged
    store(project, seeds3(), expectations={P1: {"text": text, "hash": "0" * 64}})
    st = p1(project)
    assert [o.expectation_changed for o in st.outcomes] == [True] * 3
    assert [o.stored_expectation for o in st.outcomes] == text
    # fewer stored than now: the extra one has none
    store(project, seeds3(), expectations={P1: {"text": text[:2], "hash": "0" * 64}})
    st = p1(project)
    assert [o.expectation_changed for o in st.outcomes] == [False, False, True]
    assert st.outcomes[2].stored_expectation is None
    # not stored for this claim at all: every outcome changed, none stored
    store(project, seeds3(), expectations={"other#X": now})
    st = p1(project)
    assert st.expectation_changed and st.stored_expectations == []
    # the same: nothing flagged; a result from before expectations were stored: nothing either
    for exp in ({P1: now}, None):
        store(project, seeds3(), expectations=exp)
        st = p1(project)
        assert not st.expectation_changed and st.stored_expectations is None
        assert "stored_expectations" not in st.row()
        assert not any(o.expectation_changed for o in st.outcomes)


def test_a_status_row_round_trips(project):
    store(project, seeds3(max_abs_error_f32=[0.4e-5, 0.9e-5, 1.4e-5]))
    st = p1(project)
    row = st.row()
    assert row["verdict"] == "inconclusive" and row["seeds_needed"] == 97
    assert row["outcomes"][1]["decision"] == "inconclusive"
    back = ClaimStatus.from_row(json.loads(json.dumps(row, default=str)))
    assert back.row() == json.loads(json.dumps(row, default=str))
    assert ClaimStatus.from_row({"claim": "a#b", "title": "t", "analysis": None,
                                 "profile": "p", "verdict": "unchecked"}).outcomes == []


def test_a_changed_expectation_is_its_own_state_judged_against_the_stored_one(project, cli):
    proj = load_project(project / "records")
    _, claim = proj.claim(P1)
    from litrec.records.expectation import Expectation

    # stored: the f64 error must be below 1e-14 (fails at 1e-12); now: below 1e-10 (holds)
    old = [e.model_copy(update={"value": 1e-14}) if i == 0 else e
           for i, e in enumerate(claim.check.expect)]
    assert isinstance(old[0], Expectation)
    store(project, seeds3(), expectations={P1: expectation_record(old)})
    st = p1(project)
    assert st.verdict == "expectation changed" and st.expectation_changed
    assert (st.stored_verdict, st.new_verdict) == ("not reproduced", "reproduced")
    assert [o.decision for o in st.stored_outcomes] == ["fails", "holds", "holds"]
    assert st.direction is None and st.seeds_needed is None
    assert st.reason == ("the expectations changed after the run: under the expectations stored "
                         "with the result, not reproduced; under the new ones, reproduced; until "
                         f"the analysis reruns (litrec run {NAME} --profile {PROFILE} --force) "
                         "neither is its verdict")
    row = st.row()
    assert row["stored_verdict"] == "not reproduced" and row["new_verdict"] == "reproduced"
    assert [o["decision"] for o in row["stored_outcomes"]] == ["fails", "holds", "holds"]
    assert ClaimStatus.from_row(row).stored_outcomes[0].decision == "fails"
    code, _, err = cli("status", "--check-current", "--format", "json")
    assert code == 1 and f"{P1} is expectation changed" in err
    # only the text kept: no stored verdict
    store(project, seeds3(), expectations={P1: {"text": ["x"], "hash": "0" * 64}})
    st = p1(project)
    assert st.verdict == "expectation changed" and st.stored_verdict is None
    assert "the result kept no expectations it could be judged against again" in st.reason
    # the claim was not checked when it ran
    store(project, seeds3(), expectations={"other#X": {"text": [], "hash": "0" * 64}})
    st = p1(project)
    assert "the claim was not checked when the analysis ran" in st.reason
    # a stored expectation naming a metric the result lacks: no stored verdict
    gone = [old[0].model_copy(update={"metric": "gone"})]
    store(project, seeds3(), expectations={P1: expectation_record(gone)})
    st = p1(project)
    assert st.stored_outcomes == [] and st.stored_verdict is None


def test_provenance_names_the_commit(project):
    payload = store(project, seeds3())
    st = p1(project)
    assert st.provenance["commit"] is None and st.provenance["content_hash"] == payload["content_hash"]
    assert "git" not in st.provenance


def test_a_nested_metric_is_located_at_its_own_line(tmp_path):
    from litrec.verdicts.claims import metric_at

    path = result_path(tmp_path, "a", "paper")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"format": 2, "metrics": {"k1": {"loss": 1}, "k2": {"gap": 1, "loss": 2}}},
                               indent=2))
    line = path.read_text().splitlines().index('      "loss": 2') + 1
    assert metric_at(tmp_path, "a", "paper", "k2.loss") == f"{path}:{line}: metrics.k2.loss"
    assert metric_at(tmp_path, "a", "paper", None) == f"{path}:3: metrics"
    assert metric_at(tmp_path, "b", "paper", "x").endswith(": metrics.x")  # no file: still located


def test_a_damaged_or_edited_result_is_reported_at_its_file(project):
    store(project, seeds3())
    path = result_path(project / "results", NAME, PROFILE)
    data = json.loads(path.read_text())
    data["metrics"]["max_abs_error_f64"] = 0.5
    path.write_text(json.dumps(data))
    (d,) = modified_results(project / "results", display=lambda p: f"<{p.name}>")
    assert (d.path, d.line, d.col, d.field, d.code) == ("<paper.json>", 1, 1, "content_hash",
                                                        "result-modified")
    assert d.message.startswith("modified since litrec wrote it: its content does not match")
    assert d.message.endswith(f"; rerun: litrec run {NAME} --profile {PROFILE} --force")
    path.write_text("[1]")
    (d,) = modified_results(project / "results", display=lambda p: f"<{p.name}>")
    assert (d.path, d.line, d.col, d.field, d.code) == ("<paper.json>", 1, 1, "", "result-modified")


def test_an_unknown_profile_lists_every_known_one(project):
    from litrec.util.errors import ProfileError

    reg = load_project(project / "records").registry
    store(project, seeds3())
    (project / "results" / "other").mkdir()
    (project / "results" / "other" / "quick.json").write_text("{}")
    with pytest.raises(ProfileError) as exc:
        check_profile(reg, project / "results", "nope")
    known = sorted(set().union(*reg.profiles.values()) | {"paper", "quick"})
    assert len(known) > 1
    assert str(exc.value) == (f"--profile: unknown profile 'nope'; known profiles: {', '.join(known)} "
                              "(the analyses' PROFILES and the stored results)")


def test_a_figure_is_hashed_by_its_file_name_not_its_folder():
    data = seal({"figures": {"c": "p.new-1/c.svg"}}, {"c.svg": b"x"})
    body = {"figures": {"c": "c.svg"}, "figure_hashes": data["figure_hashes"], "line_endings": "lf"}
    blob = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert data["content_hash"] == hashlib.sha256(blob.encode()).hexdigest()
    assert data["figures"] == {"c": "p.new-1/c.svg"}
