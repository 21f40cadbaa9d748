"""Sweeps on the local executor: the grid, aggregation, spread in verdicts, failures."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import types
from dataclasses import dataclass

import pytest

from litrec.analyses.machine import cpu_isa, cpu_model, platform_info
from litrec.runs.sweep import Point, SweepError, aggregate, load_analysis, plan, run_point
from litrec.util.errors import InputsChanged
from litrec.verdicts.stats import summarize
from tests.conftest import but_hermetic
from tests.support.sweep_toy import write_toy

RESULT = ("results", "toy-sweep", "quick.json")


def _result(root, results="results"):
    return json.loads((root / results / "toy-sweep" / "quick.json").read_text())




@dataclass(frozen=True)
class Cfg:
    seed: int = 0
    N: int = 10


def _module(**attrs):
    return types.SimpleNamespace(__name__="analysis.fake", PROFILES={"quick": Cfg()}, **attrs)


def test_the_grid_is_the_product_in_declared_order():
    sweep, points = plan(_module(SWEEP={"quick": {"seed": [0, 1], "N": [10, 20]}}), "quick")
    assert sweep == {"seed": [0, 1], "N": [10, 20]}
    assert points == [{"seed": 0, "N": 10}, {"seed": 0, "N": 20},
                      {"seed": 1, "N": 10}, {"seed": 1, "N": 20}]
    assert plan(_module(), "quick") == (None, [{}])
    assert plan(_module(SWEEP={"paper": {"seed": [0]}}), "quick") == (None, [{}])


def test_a_bad_sweep_says_what_to_fix():
    with pytest.raises(SweepError) as err:
        plan(_module(SWEEP={"quick": {"sed": [0, 1]}}), "quick")
    assert str(err.value) == ("analysis.fake: SWEEP['quick'] varies 'sed', which is not a field "
                              "of Cfg; did you mean 'seed'?")
    with pytest.raises(SweepError, match=r"SWEEP\['quick'\]\['seed'\] must be a non-empty list"):
        plan(_module(SWEEP={"quick": {"seed": []}}), "quick")
    with pytest.raises(SweepError, match="analysis.fake has no profile 'paper' in PROFILES"):
        plan(_module(), "paper")


def test_aggregate_means_lists_booleans_and_spread():
    metrics, spread, notes = aggregate([
        {"loss": 1.0, "curve": [1.0, 4.0], "ok": True, "n": 8, "name": "a", "sub": {"x": 2},
         "shape": [1, 2], "gap": None},
        {"loss": 2.0, "curve": [3.0, 4.0], "ok": False, "n": 8, "name": "a", "sub": {"x": 4},
         "shape": [1, 2, 3], "gap": 0.5},
        {"loss": 3.0, "curve": [5.0, 4.0], "ok": True, "n": 8, "name": "a", "sub": {"x": 6},
         "shape": [1], "gap": 0.5},
    ])
    assert metrics == {"loss": 2.0, "curve": [3.0, 4.0], "ok": False, "n": 8, "name": "a",
                       "sub": {"x": 4.0}, "shape": None, "gap": None}
    assert spread["loss"] == {"std": 1.0, "min": 1.0, "max": 3.0, "n": 3}
    assert spread["curve"] == {"std": [2.0, 0.0], "min": [1.0, 4.0], "max": [5.0, 4.0], "n": 3}
    assert spread["sub.x"]["std"] == 2.0 and spread["n"]["std"] == 0.0
    assert set(spread) == {"loss", "curve", "n", "sub.x"}
    assert notes == ["metric 'shape' not aggregated: its lists have different lengths at "
                     "different points"]


def test_a_local_sweep_stores_points_spread_and_judges_the_mean(sweep_project, cli):
    code, out, err = cli("run", "--profile", "quick", "--jobs", "2", "--format", "json")
    assert code == 0, err
    assert "3 points of 1 analysis to the local executor (2 worker processes)" in err
    result = _result(sweep_project)
    assert [p["overrides"] for p in result["points"]] == [{"seed": 0}, {"seed": 1}, {"seed": 2}]
    levels = [p["metrics"]["level"] for p in result["points"]]
    assert len(set(levels)) == 3
    assert result["metrics"]["level"] == pytest.approx(sum(levels) / 3)
    assert result["spread"]["level"]["n"] == 3
    assert result["spread"]["level"]["min"] == min(levels)
    walls = [p["wall_time_s"] for p in result["points"]]        # each point's own time
    assert all(isinstance(w, float) and 0 < w <= result["wall_time_s"] for w in walls)
    assert not any(p.get("kept") for p in result["points"])
    assert result["sweep"] == {"seed": [0, 1, 2]} and result["seed"] == [0, 1, 2]
    assert result["config"]["seed"] == 0 and but_hermetic(result)["notes"] == ["toy sweep"]
    assert result["figures"] == {"draws": "quick/draws.svg"}
    assert result["platform"]["processor"] == platform_info()["processor"]
    assert (sweep_project / "results" / "toy-sweep" / "quick" / "draws.svg").is_file()
    claim = json.loads(out)["claims"][0]
    assert claim["verdict"] == "reproduced"
    assert claim["spread"] == {"level": result["spread"]["level"]}

    code, out, _ = cli("status", "--profile", "quick")
    s = summarize(levels)  # the mean over seeds with its 95% interval
    assert f"level {s.mean:.4g} [{s.low:.4g}, {s.high:.4g}] n=3, expected > 9" in out
    code, out, _ = cli("run", "--profile", "quick", "--jobs", "2", "--format", "json")
    assert json.loads(out)["ran"] == [] and json.loads(out)["current"] == ["toy-sweep"]

    # one job runs the points in this process, with the same result and figure
    code, _, err = cli("run", "--profile", "quick", "--jobs", "1", "--results", "here")
    assert code == 0 and "to the local executor" not in err
    assert but_hermetic(_result(sweep_project, "here")) == but_hermetic(result)  # the sandbox aside
    figs = [(sweep_project / r / "toy-sweep" / "quick" / "draws.svg").read_bytes()
            for r in ("results", "here")]
    assert figs[0] == figs[1]


def test_a_failing_point_writes_nothing(sweep_project, cli):
    cli("run", "--profile", "quick", "--jobs", "1")
    before = (sweep_project.joinpath(*RESULT)).read_bytes()
    write_toy(sweep_project, fail_seed=1)
    code, _, err = cli("run", "--profile", "quick", "--jobs", "1")  # in worker processes: tests/runs/test_dask.py
    assert code == 1
    assert "analysis toy-sweep failed: RuntimeError: boom at seed 1 (point seed=1)" in err
    assert sweep_project.joinpath(*RESULT).read_bytes() == before
    log = sweep_project / "results" / "toy-sweep" / "quick.error.log"
    assert "boom at seed 1" in log.read_text()


@pytest.mark.slow  # worker processes that sleep, one killed mid-task
def test_a_dead_local_worker_fails_the_analysis_and_writes_nothing(sweep_project, cli, monkeypatch):
    # the toy notes its worker's pid in the project, which a sandbox neither holds nor numbers as
    # the machine does: the worker itself dies here; a sandboxed point killed is test_sandbox.py's
    monkeypatch.setenv("LITREC_SANDBOX", "off")
    markers = sweep_project / "markers"
    markers.mkdir()
    write_toy(sweep_project, sleep=1.0, marker_dir=str(markers))

    def kill_first_worker():
        deadline = time.monotonic() + 30
        while not any(markers.iterdir()) and time.monotonic() < deadline:
            time.sleep(0.05)
        pid = int(next(markers.iterdir()).name.split(".")[1])  # <seed>.<pid>.<ns>
        os.kill(pid, signal.SIGKILL)

    killer = threading.Thread(target=kill_first_worker)
    killer.start()
    code, _, err = cli("run", "--profile", "quick", "--jobs", "2")
    killer.join()
    assert code == 1
    assert "analysis toy-sweep failed: a worker process died (killed, or out of memory)" in err
    assert not sweep_project.joinpath(*RESULT).exists()


def test_a_worker_with_other_code_refuses_to_run(sweep_project):
    mod, files = load_analysis(str(sweep_project), "analysis", "toy_sweep")
    other = dict(files, **{"analysis/toy_sweep.py": "0" * 64})
    point = Point(str(sweep_project), "analysis", "toy_sweep", "quick", {}, other)
    with pytest.raises(InputsChanged, match=r"analysis/toy_sweep.py is not the source the run hashed"):
        run_point(point)
    point = Point(str(sweep_project), "analysis", "toy_sweep", "quick", {}, files, {"numpy": "0.1"})
    with pytest.raises(SweepError, match=r"has numpy .* \(here 0.1\); install the same constraints"):
        run_point(point)


def test_an_edited_analysis_is_reimported(sweep_project):
    root = str(sweep_project)
    first, _ = load_analysis(root, "analysis", "toy_sweep")
    assert load_analysis(root, "analysis", "toy_sweep")[0] is first
    write_toy(sweep_project, n=5)
    second, _ = load_analysis(root, "analysis", "toy_sweep")
    assert second is not first and second.PROFILES["quick"].n == 5


def test_executor_options_are_checked(sweep_project, cli):
    code, _, err = cli("run", "--profile", "quick", "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2 and "--scheduler names a dask scheduler; add --executor dask" in err
    with pytest.raises(SystemExit):
        cli("run", "--profile", "quick", "--jobs", "0")


def test_a_worker_without_the_project_folder_imports_the_analysis_from_its_path(sweep_project):
    """A remote worker lacks the driver's folder; a synced copy on PYTHONPATH serves instead."""
    _, files = load_analysis(str(sweep_project), "analysis", "toy_sweep")
    point = Point("/no/such/project", "analysis", "toy_sweep", "quick", {"seed": 1}, files)
    out = run_point(point)  # sweep_project is on sys.path, as PYTHONPATH would put it
    assert out["config"]["seed"] == 1 and out["metrics"]["nested"] == {"seed": 1}


def test_an_edited_helper_is_reimported_for_another_analysis(sweep_project):
    """A worker ran one analysis; a helper it imported changes; the next analysis sees the change."""
    root, analysis = str(sweep_project), sweep_project / "analysis"
    (analysis / "helper.py").write_text("K = 1\n")
    (analysis / "uses_a.py").write_text("from analysis.helper import K\n")
    (analysis / "uses_b.py").write_text("from analysis import helper\n")
    a, _ = load_analysis(root, "analysis", "uses_a")
    assert a.K == 1
    (analysis / "helper.py").write_text("K = 22\n")  # another size: no stale .pyc within a second
    b, files = load_analysis(root, "analysis", "uses_b")
    assert b.helper.K == 22 and "analysis/helper.py" in files


def test_the_cpu_model_comes_from_cpuinfo_else_the_platform(monkeypatch):
    x86 = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R)  CPU @ 2.20GHz\n"
    assert cpu_model(x86) == "Intel(R) Xeon(R) CPU @ 2.20GHz"
    monkeypatch.setattr("platform.processor", lambda: "arm")
    assert cpu_model("processor\t: 0\nBogoMIPS\t: 50.00\n") == "arm"  # no model name: aarch64


def test_the_instruction_set_comes_from_the_cpu_flags():
    """What XLA compiles for is part of a result's provenance: float32 rounding follows it."""
    x86 = "processor\t: 0\nflags\t\t: fpu sse4_2 avx avx2 fma avx512f xsave\n"
    assert cpu_isa(x86) == ["sse4_2", "avx", "avx2", "fma", "avx512f"]
    arm = "processor\t: 0\nFeatures\t: fp asimd evtstrm sve\n"
    assert cpu_isa(arm) == ["asimd", "sve"]
    assert cpu_isa("processor\t: 0\n") == []


def test_xla_flags_are_recorded_when_set(monkeypatch):
    monkeypatch.setenv("XLA_FLAGS", "--xla_cpu_max_isa=AVX")
    assert platform_info()["xla_flags"] == "--xla_cpu_max_isa=AVX"
    monkeypatch.delenv("XLA_FLAGS")
    assert "xla_flags" not in platform_info()


QUICK_ONLY = '''
PROFILES = {"quick": None}


def run(config, progress=None):
    return {"metrics": {"level": 10.0}}
'''


def test_an_analysis_without_the_profile_is_not_run_for_it_and_the_run_says_so(sweep_project, cli):
    """`--profile paper` over every analysis runs those that have it; one whose PROFILES lack
    it is named in a note, not failed (named as a target, it fails saying so)."""
    (sweep_project / "analysis" / "quick_only.py").write_text(QUICK_ONLY)
    with (sweep_project / "analysis" / "registry.yaml").open("a") as fh:
        fh.write("quick-only:\n  module: quick_only\n  title: Quick only\n")
    lit = sweep_project / "records" / "literature" / "ARXIV-0000.00002.yaml"
    lit.write_text(lit.read_text() + "".join(f"  {line}\n" for line in [
        "- id: F2", "  kind: finding", "  title: Another level", "  statement: Another level.",
        "  check:", "    analysis: quick-only", "    expect:", "      - {metric: level, op: \">\", value: 9, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}"]))
    for _ in range(2):                                    # the second answered from the run memo
        code, out, err = cli("run", "--profile", "paper", "--jobs", "1")
        assert code == 0, err
        assert "not run, no profile 'paper' in their PROFILES: quick-only" in err, err
        assert "failed" not in err
    assert (sweep_project / "results" / "toy-sweep" / "paper.json").is_file()
    assert not (sweep_project / "results" / "quick-only").exists()
    code, out, err = cli("run", "--profile", "paper", "--jobs", "1", "--format", "json")
    assert json.loads(out)["without_profile"] == ["quick-only"]
    code, out, err = cli("run", "quick-only", "--profile", "paper", "--jobs", "1")
    assert code == 1 and "has no profile 'paper' in PROFILES" in err, err
