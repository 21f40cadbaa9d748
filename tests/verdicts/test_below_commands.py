"""The functions the commands call, used without the command line: `litrec status` is
`verdicts.status.status`, `diff` is `verdicts.diff.compare` (its sides from `sides`),
`export json` is `export.graph_export`, `validate` is `verdicts.report.validation_report`,
`sign` is `results.signing.sign_results`; each loads a valid project or raises."""

from __future__ import annotations

import pytest

from litrec.util.errors import InvalidRecords, ProfileError, UsageError


def test_sides_name_the_two_results_compared():
    from litrec.verdicts.diff import Side, sides

    # without a profile, both sides are at the project's first scale (here `small`)
    assert sides([], None, "small") == (Side("HEAD", "small"), Side(None, "small"))
    assert sides(["v1"], ["quick"], "small") == (Side("v1", "quick"), Side(None, "quick"))
    assert sides(["a", "b"], None, "small") == (Side("a", "small"), Side("b", "small"))
    assert sides([], ["paper", "quick"], "small") == (Side(None, "paper"), Side(None, "quick"))
    assert sides(["a"], ["paper", "quick"], "small") == (Side("a", "paper"), Side("a", "quick"))
    for revs, profiles in ((["a", "b", "c"], None), ([], ["p", "q", "r"]),
                           (["a", "b"], ["p", "q"])):
        with pytest.raises(UsageError):
            sides(revs, profiles, "small")


def test_status_judges_every_claim_and_names_those_behind(judged):
    from litrec.verdicts.status import status

    found = status(judged / "records", None, judged / "results", "paper")
    verdicts = {s.claim: s.verdict for s in found.statuses}
    assert verdicts["ARXIV-2212.07677#F1"] == "inconclusive"
    assert "reproduced" in verdicts.values()
    assert {s.claim for s in found.behind} == {c for c, v in verdicts.items() if v == "missing"}
    assert found.behind and found.errors == [] and found.bad_signatures == []


def test_a_profile_no_analysis_defines_is_refused_before_judging(mini):
    from litrec.verdicts.status import judged_project

    proj = judged_project(mini / "records", None, mini / "results", "quick")
    assert "toy" in proj.registry.entries
    with pytest.raises(ProfileError, match="unknown profile 'nosuchprofile'"):
        judged_project(mini / "records", None, mini / "results", "nosuchprofile")


def test_invalid_records_are_raised_with_every_error_in_place_order(project):
    from litrec.records.load import load_valid_project

    (project / "records" / "notes" / "NOTE-998.yaml").write_text(
        "id: NOTE-998\nkind: note\ntitle: B\nzzz: 1\n", encoding="utf-8")
    (project / "records" / "notes" / "NOTE-997.yaml").write_text(
        "id: NOTE-997\nkind: note\ntitle: A\naaa: 1\n", encoding="utf-8")
    with pytest.raises(InvalidRecords) as raised:
        load_valid_project(project / "records")
    paths = [d.path for d in raised.value.diagnostics]
    assert paths == sorted(paths) and len(paths) == 2
    assert str(raised.value) == "the records have 2 errors; fix them first (litrec validate)"
    with pytest.raises(UsageError):
        load_valid_project(project / "no-records")


def test_graph_export_says_what_it_holds_and_which_results_are_damaged(judged):
    from litrec.export.document import graph_export

    found = graph_export(judged / "records", None, judged / "results", "paper")
    doc = found.doc
    assert found.summary() == (f"{len(doc['records'])} records, {len(doc['links'])} links; 5 claims "
                               "of ARXIV-2212.07677: 1 inconclusive, 4 missing; 1 claim of your "
                               "own: 1 reproduced (profile paper)")
    assert found.errors == [] and found.text.endswith("}\n")
    (judged / "results" / "single-layer-lsa" / "paper.json").write_text("{", encoding="utf-8")
    damaged = graph_export(judged / "records", None, judged / "results", "paper")
    assert len(damaged.errors) == 1 and "paper.json" in damaged.errors[0]


def test_validation_report_makes_warnings_errors_when_strict(project):
    from litrec.verdicts.report import validation_report

    (project / "records" / "notes" / "notes.txt").write_text("not a record\n", encoding="utf-8")
    lenient = validation_report(project / "records")
    warnings = [d for d in lenient.checked.diagnostics if d.severity == "warning"]
    assert warnings and lenient.errors == []
    strict = validation_report(project / "records", strict=True, use_cache=False)
    assert [d.message for d in strict.errors] == [d.message for d in warnings]


def test_sign_results_refuses_when_there_is_nothing_to_sign(project):
    from litrec.results.signing import sign_results

    with pytest.raises(UsageError, match="no paper results in"):
        sign_results(project / "results", "paper", [])
