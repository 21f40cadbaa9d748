"""`litrec export json` (format litrec-graph, version 1) and `litrec graph`."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from litrec.analyses.inputs import RESULT_FORMAT
from litrec.analyses.inputs import result_inputs as fingerprint
from litrec.records import model as m
from litrec.records.load import load_project
from litrec.records.schema import schema_for
from litrec.results.seal import seal
from litrec.results.store import write_result

from .conftest import ROOT, run_cli

DOC = ROOT / "site" / "export-format.md"


def export(project, *extra) -> dict:
    code, out, err = run_cli(["export", "json", *extra], project)
    assert code == 0, err
    return json.loads(out)


def write_current_result(project, name: str, metrics: dict, profile: str = "paper") -> None:
    """A stored result of `name` whose fingerprint matches the code: judged, not stale."""
    proj = load_project(project / "records")
    fp = fingerprint(proj.registry, name, profile)
    payload = {"format": RESULT_FORMAT, "analysis": name, "profile": profile,
               "code_hash": fp.code_hash, "code_files": fp.files, "versions": fp.versions, "inputs": fp.record(),
               "seed": 0, "started": "2026-01-02T03:04:05+00:00", "wall_time_s": 1.5,
               "config": {"seed": 0}, "metrics": metrics, "figures": {}, "notes": []}
    write_result(project / "results", name, profile, seal(payload, {}), {})


def test_document_shape(project):
    doc = export(project)
    proj = load_project(project / "records")
    assert (doc["format"], doc["version"], doc["profile"]) == ("litrec-graph", 2, "paper")
    assert [r["id"] for r in doc["records"]] == sorted(proj.records)
    assert len(doc["links"]) == len(proj.edges)
    assert set(doc["relations"]) == set(m.RELATIONS)
    assert [c["ref"] for c in doc["claims"]] == [f"{r.id}#{c.id}" for r, c in proj.claims()]


def test_links_both_ways(project):
    doc = export(project)
    by_id = {r["id"]: r for r in doc["records"]}
    note = by_id["NOTE-621"]
    assert {"rel": "uses", "target": "ARXIV-2212.07677#P1", "note": "the exact construction"} in note["links_out"]
    assert {"rel": "used_by", "source": "NOTE-621", "claim": "P1", "note": "the exact construction"} \
        in by_id["ARXIV-2212.07677"]["links_in"]
    dropped = [ln for ln in doc["links"] if ln["rel"] == "dropped"][0]
    assert dropped == {"source": "what-survives-translation", "rel": "dropped", "inverse": "dropped_by",
                       "target": "ARXIV-2212.07677", "claim": None, "ref": "ARXIV-2212.07677",
                       "field": "bibliography[0].ref",
                       "note": "considered, then dropped from the final reference list"}
    for ln in doc["links"]:  # every link appears once on each end
        assert sum(ln["source"] == x["source"] and ln["inverse"] == x["rel"]
                   for x in by_id[ln["target"]]["links_in"]) >= 1


def test_record_data_validates_against_the_kinds_schema(project):
    for rec in export(project)["records"]:
        jsonschema.validate(rec["data"], schema_for(rec["kind"]),
                            format_checker=jsonschema.FormatChecker())
        assert rec["path"] == f"{rec['path'].split('/')[0]}/{rec['id']}.yaml"


def test_claims_without_results_are_not_run(project):
    claims = {c["ref"]: c for c in export(project)["claims"]}
    c1 = claims["NOTE-621#C1"]
    assert c1["verdict"] == "missing" and c1["provenance"] == {} and c1["result"] is None
    assert c1["analysis"] == "conditioning-vs-parameters"
    assert c1["expect"][0] == "params_unchanged == true"
    assert claims["ARXIV-2212.07677#P1"]["links_in"] == [
        {"rel": "kept_by", "source": "ANTH-LIT-533", "note": "the exact construction"},
        {"rel": "used_by", "source": "NOTE-621", "note": "the exact construction"}]


def test_claims_carry_verdicts_and_provenance(project):
    write_current_result(project, "conditioning-vs-parameters", {
        "params_unchanged": True, "max_abs_pred_error": 1e-12, "max_abs_dW_error": 2e-12,
        "implied_model_distance": float("nan"), "min_cross_distance": 0.5})
    c1 = {c["ref"]: c for c in export(project)["claims"]}["NOTE-621#C1"]
    assert c1["verdict"] == "not reproduced"  # NaN is not > 0.01
    assert c1["outcomes"][3]["measured"] is None  # NaN is not JSON: written as null
    assert c1["provenance"]["code_hash"] and c1["provenance"]["wall_time_s"] == 1.5
    assert c1["result"].endswith("conditioning-vs-parameters/paper.json")
    write_current_result(project, "conditioning-vs-parameters", {
        "params_unchanged": True, "max_abs_pred_error": 1e-12, "max_abs_dW_error": 2e-12,
        "implied_model_distance": 0.5, "min_cross_distance": 0.5})
    c1 = {c["ref"]: c for c in export(project)["claims"]}["NOTE-621#C1"]
    assert c1["verdict"] == "reproduced" and c1["reason"] is None


def test_export_is_deterministic_and_strict_json(project):
    code, first, _ = run_cli("litrec export json", project)
    code, second, _ = run_cli("litrec export json", project)
    assert first == second
    json.loads(first, parse_constant=lambda c: pytest.fail(f"not JSON: {c}"))


def test_out_file_and_summary(project):
    code, out, err = run_cli("litrec export json --out graph.json --profile quick", project)
    assert code == 0 and out == ""
    assert err == ("wrote graph.json: 8 records, 13 links; 5 claims of ARXIV-2212.07677: 5 missing; "
                   "1 claim of your own: 1 missing (profile quick)\n")
    assert json.loads((project / "graph.json").read_text())["profile"] == "quick"


def test_invalid_records_are_not_exported(project):
    (project / "records" / "notes" / "NOTE-621.yaml").write_text(
        (project / "records" / "notes" / "NOTE-621.yaml").read_text().replace("THEORY-169", "THEORY-196"))
    for cmd in ("litrec export json", "litrec graph"):
        code, out, err = run_cli(cmd, project)
        assert code == 1 and out == ""
        assert "no record 'THEORY-196'. Did you mean 'THEORY-169'?" in err
        assert err.endswith("the records have 1 error; fix them first (litrec validate)\n")


def test_every_key_is_documented(project):
    """site/export-format.md names every key the document has."""
    write_current_result(project, "conditioning-vs-parameters", {
        "params_unchanged": True, "max_abs_pred_error": 0.0, "max_abs_dW_error": 0.0,
        "implied_model_distance": 1.0, "min_cross_distance": 1.0})
    doc = export(project)
    text = DOC.read_text(encoding="utf-8")
    first = lambda items, key: next(x[key][0] for x in items if x[key])  # noqa: E731
    keys = set(doc) | set(doc["relations"]["uses"]) | set(doc["records"][0]) | set(doc["links"][0]) \
        | set(doc["claims"][0]) | set(first(doc["records"], "links_out")) \
        | set(first(doc["records"], "links_in")) | set(first(doc["claims"], "links_in")) \
        | set(first(doc["claims"], "outcomes")) \
        | set(next(c["provenance"] for c in doc["claims"] if c["provenance"]))
    missing = sorted(k for k in keys if f"`{k}`" not in text)
    assert not missing, f"not in site/export-format.md: {missing}"
    assert '"format": "litrec-graph"' in text and '"version": 2' in text


# ------------------------------------------------------------------ graph


def test_dot(project):
    code, out, _ = run_cli("litrec graph --format dot", project)
    assert code == 0 and out.startswith("// Written by `litrec graph`")  # a comment, litrec's mark
    assert out.splitlines()[1] == "digraph litrec {" and out.endswith("}\n")
    proj = load_project(project / "records")
    for rid in proj.records:
        assert re.search(rf'^  "{re.escape(rid)}" \[label=', out, re.M)
    assert len(re.findall(r" -> ", out)) == len(proj.edges)
    assert '"NOTE-621" -> "ARXIV-2212.07677" [label="uses P1"];' in out


def test_dot_escapes_quotes(project):
    path = project / "records" / "theories" / "THEORY-169.yaml"
    path.write_text(path.read_text() + 'title: \'A "quoted" \\ title\'\n')
    code, out, _ = run_cli("litrec graph", project)
    assert '"THEORY-169" [label="THEORY-169\\nA \\"quoted\\" \\\\ title"' in out


def test_mermaid(project):
    code, out, _ = run_cli("litrec graph --format mermaid", project)
    assert code == 0 and out.startswith("%% Written by `litrec graph --format mermaid`")  # a comment
    assert out.splitlines()[1] == "graph LR"
    proj = load_project(project / "records")
    assert len(re.findall(r"^  n\d+\[", out, re.M)) == len(proj.records)
    assert len(re.findall(r" -->\|", out)) == len(proj.edges)
    assert all(re.fullmatch(r'  n\d+\["[A-Za-z0-9 .,:_/()?!+\'#;-]*"\]', ln)
               for ln in out.splitlines() if re.match(r"  n\d+\[", ln))


def test_graph_json(project):
    code, out, _ = run_cli("litrec graph --format json", project)
    doc = json.loads(out)
    assert {n["id"] for n in doc["nodes"]} == set(load_project(project / "records").records)
    assert {"source": "NOTE-621", "rel": "uses", "target": "ARXIV-2212.07677", "claim": "P1"} in doc["edges"]
