"""`litrec run` / `litrec status` on a small toy project (`tests.support.run_toy`; no JAX work)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def test_run_writes_result_with_provenance_and_verdicts(toy_run):
    toy, code, out, err = toy_run  # the session's run of the toy (read only)
    doc = json.loads(out)
    assert code == 1  # F2 is not reproduced
    assert doc["ran"] == ["toy"]
    verdicts = {c["claim"]: c["verdict"] for c in doc["claims"]}
    assert verdicts == {"ARXIV-0000.00001#F1": "reproduced", "ARXIV-0000.00001#F2": "not reproduced"}
    f2 = next(c for c in doc["claims"] if c["claim"].endswith("F2"))
    assert f2["measured"] == {"total": 12.0}
    assert f2["outcomes"][0]["paper"] == 1234
    assert f2["rests_on_it"] == ["NOTE-1", "THEORY-1"]
    result = json.loads((toy / "results" / "toy" / "quick.json").read_text())
    for key in ("code_hash", "code_files", "versions", "platform", "device", "seed", "started",
                "wall_time_s", "config", "metrics"):
        assert key in result
    assert set(result["code_files"]) == {"analysis/__init__.py", "analysis/toy.py", "analysis/helper.py"}
    assert result["metrics"]["xs"] == [0.0, 1.0, 2.0, 3.0]
    assert (toy / "results" / "toy" / "quick" / "line.svg").read_bytes().startswith(b"<?xml")


def test_noop_run_is_fast_and_does_not_import_jax(ran_toy):
    script = ("import sys, time; t=time.perf_counter(); from litrec.commands import main; "
              "rc = main(['run', '--profile', 'quick', '--format', 'json']); "
              "print('JAX' if 'jax' in sys.modules else 'nojax', time.perf_counter() - t, rc)")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ran_toy)
    last = proc.stdout.strip().splitlines()[-1].split()
    assert last[0] == "nojax", proc.stdout + proc.stderr  # its time: bench/noop_run.py
    assert json.loads(proc.stdout[: proc.stdout.rindex("}") + 1])["ran"] == []


def test_editing_a_helper_makes_the_result_stale(ran_toy, cli):
    toy = ran_toy
    (toy / "analysis" / "helper.py").write_text("def scale(x):\n    return 3 * float(x)\n")
    code, out, _ = cli("status", "--profile", "quick", "--format", "json")
    rows = json.loads(out)
    assert {r["verdict"] for r in rows} == {"stale"}
    assert rows[0]["reason"] == "code changed: analysis/helper.py"
    code, _, _ = cli("status", "--profile", "quick", "--check-current")
    assert code == 1
    code, out, _ = cli("run", "--profile", "quick", "--format", "json")
    assert json.loads(out)["ran"] == ["toy"]
    code, _, _ = cli("status", "--profile", "quick", "--check-current")
    assert code == 0


def test_targets_and_force(toy, cli):
    code, out, _ = cli("run", "ARXIV-0000.00001#F1", "--profile", "quick", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and [c["claim"] for c in doc["claims"]] == ["ARXIV-0000.00001#F1"]
    code, out, _ = cli("run", "toy", "--profile", "quick", "--format", "json")
    assert json.loads(out)["ran"] == []
    code, out, _ = cli("run", "ARXIV-0000.00001", "--profile", "quick", "--force", "--format", "json")
    assert json.loads(out)["ran"] == ["toy"]
    code, _, err = cli("run", "ARXIV-0000.00001#F3", "--profile", "quick")
    assert code == 2
    assert "no claim 'ARXIV-0000.00001#F3'; did you mean 'ARXIV-0000.00001#F2'?" in err
    code, _, err = cli("run", "toyy")
    assert code == 2 and "did you mean 'toy'?" in err


def test_a_claim_without_an_analysis_is_named_as_such(toy, cli):
    with open(toy / "records" / "literature" / "ARXIV-0000.00001.yaml", "a", encoding="utf-8") as fh:
        fh.write("  - id: P1\n    kind: proposition\n    title: Not checked\n    statement: s\n")
    code, out, err = cli("run", "ARXIV-0000.00001#P1", "--profile", "quick")
    assert (code, out) == (2, "")
    assert ("ARXIV-0000.00001#P1 has no analysis yet (its check names none); add check.analysis "
            "(a name in analysis/registry.yaml) and check.expect to the claim") in err
    assert "did you mean" not in err
    code, out, _ = cli("status", "--profile", "quick", "--format", "json")
    row = next(r for r in json.loads(out) if r["claim"] == "ARXIV-0000.00001#P1")
    assert row["verdict"] == "unchecked" and row["analysis"] is None


def test_status_not_run_and_json_shape(toy, cli):
    code, out, _ = cli("status", "--format", "json")
    rows = json.loads(out)
    assert code == 0
    assert [r["verdict"] for r in rows] == ["missing", "missing"]
    for key in ("claim", "analysis", "profile", "verdict", "measured", "expected"):
        assert key in rows[0]
    assert rows[0]["expected"] == ["total > 10", "nested.ok == true", "xs >= 0"]


def test_a_failing_or_interrupted_analysis_keeps_the_previous_result(ran_toy, cli):
    toy = ran_toy
    before = (toy / "results" / "toy" / "quick.json").read_bytes()
    src = (toy / "analysis" / "toy.py").read_text()
    (toy / "analysis" / "toy.py").write_text(src.replace('"quick": Config(n=4)', '"quick": Config(n=4, fail=True)'))
    for mod in [m for m in sys.modules if m.startswith("analysis")]:
        del sys.modules[mod]  # a new process in real use; here the same one
    code, out, err = cli("run", "--profile", "quick")
    assert code == 1
    assert "analysis toy failed: RuntimeError: boom" in err
    assert "Traceback" not in err
    assert (toy / "results" / "toy" / "quick.json").read_bytes() == before
    assert "RuntimeError: boom" in (toy / "results" / "toy" / "quick.error.log").read_text()


def test_write_result_is_atomic(tmp_path, monkeypatch):
    from litrec.results import store as results

    results.write_result(tmp_path, "a", "quick", {"metrics": {"x": 1}}, {"f.svg": b"<svg/>"})
    before = (tmp_path / "a" / "quick.json").read_bytes()

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(results.os, "fsync", boom)
    with pytest.raises(KeyboardInterrupt):
        results.write_result(tmp_path, "a", "quick", {"metrics": {"x": 2}}, {"f.svg": b"<svg>2</svg>"})
    assert (tmp_path / "a" / "quick.json").read_bytes() == before
    assert (tmp_path / "a" / "quick" / "f.svg").read_bytes() == b"<svg/>"
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["quick", "quick.json"]


def test_invalid_records_stop_the_run(toy, cli):
    (toy / "records" / "notes" / "NOTE-2.yaml").write_text("id: NOTE-2\nkind: nope\n")
    code, _, err = cli("run")
    assert code == 1
    assert "records/notes/NOTE-2.yaml:2:7: kind: unknown kind 'nope'" in err


@pytest.mark.parametrize("op, rhs, measured, holds", [
    ("<", 1.0, 0.5, True), ("<", 1.0, 1.0, False), ("<=", 1.0, 1.0, True),
    (">", 1.0, 2.0, True), (">=", 2.0, 1.0, False), ("==", 3.0, 3.0, True),
])
def test_expectation_ops(op, rhs, measured, holds):
    from litrec.records.model import Expectation
    from litrec.verdicts.judge import evaluate

    assert evaluate(Expectation(metric="m", op=op, value=rhs), [{"m": measured}]).holds is holds


def test_expectation_tolerance_factor_and_lists():
    from litrec.records.model import Expectation
    from litrec.verdicts.judge import evaluate as judge

    def evaluate(exp, metrics):  # one run: one seed
        return judge(exp, [metrics])

    approx = Expectation(metric="a", op="≈", ref="b", rel_tol=0.01)
    assert evaluate(approx, {"a": 0.2052, "b": 0.2047}).holds
    assert not evaluate(approx, {"a": 0.21, "b": 0.2047}).holds
    factor = Expectation(metric="a", op="<", ref="b", factor=0.8)
    assert evaluate(factor, {"a": 0.11, "b": 0.15}).holds
    assert not evaluate(factor, {"a": 0.13, "b": 0.15}).holds
    lists = Expectation(metric="a", op="≈", ref="b", rel_tol=0.05)
    assert evaluate(lists, {"a": [1.0, 2.0], "b": [1.01, 2.02]}).holds
    assert not evaluate(lists, {"a": [1.0, 2.0], "b": [1.01, 3.0]}).holds
    assert not evaluate(Expectation(metric="a", op="<", value=1), {"a": float("nan")}).holds


def test_allow_not_reproduced_only_relaxes_verdicts(toy, cli):
    code, _, _ = cli("run", "--profile", "quick", "--allow-not-reproduced")
    assert code == 0  # F2 is not reproduced, but that is allowed for a smoke run
    src = (toy / "analysis" / "toy.py").read_text()
    (toy / "analysis" / "toy.py").write_text(src.replace('"quick": Config(n=4)', '"quick": Config(n=4, fail=True)'))
    for mod in [m for m in sys.modules if m.startswith("analysis")]:
        del sys.modules[mod]
    code, _, _ = cli("run", "--profile", "quick", "--allow-not-reproduced")
    assert code == 1  # a failing analysis still fails
