"""Every benchmark of bench/ still runs: each script's smoke run (`--smoke`: seconds at tiny
sizes, nothing compared with the release, no network), so that no benchmark breaks unseen. A
new script is covered as soon as it is in the folder. A script that cannot measure here (no
accelerator, no official code, no sandbox) says why in its output, and that passes.

The smoke runs take minutes together (JAX compiles in several), so they run in CI
(`make test-all`), not in the everyday suite. `make bench`'s own smoke run stores its rows in
the file it is given, never in bench/results.json (the everyday suite checks that much with
the one script that measures nothing in a smoke run)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO

BENCH = REPO / "bench"
HELPERS = {"all", "release", "report", "table"}  # modules of bench/ that are not benchmarks
SCRIPTS = sorted(p.stem for p in BENCH.glob("*.py") if p.stem not in HELPERS)


def _lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.slow
@pytest.mark.parametrize("name", SCRIPTS)
def test_each_benchmark_runs_in_its_smoke_mode(name, tmp_path):
    rows = tmp_path / "rows.jsonl"
    done = subprocess.run([sys.executable, str(BENCH / f"{name}.py"), "--smoke", "--json", str(rows)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"bench/{name}.py --smoke failed:\n{done.stdout[-2000:]}{done.stderr[-3000:]}"
    got = _lines(rows) if rows.is_file() else []
    assert got, f"bench/{name}.py --smoke gave no figure and no reason"
    for line in got:
        if "not_measured" in line:
            assert line["not_measured"].strip()  # why it cannot measure here
        else:
            assert isinstance(line["value"], (int, float)) and line["bench"] and line["unit"]


@pytest.mark.slow
def test_the_table_of_a_smoke_run_goes_to_the_file_named_never_to_results_json(tmp_path):
    kept = (BENCH / "results.json").read_bytes()
    table = (REPO / "site" / "bench-table.md").read_bytes()
    out = tmp_path / "results.json"
    done = subprocess.run([sys.executable, str(BENCH / "all.py"), "--smoke", "--only", "ci_time,observe_cost",
                           "--results", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    stored = json.loads(out.read_text(encoding="utf-8"))
    assert set(stored) == {"ci_time", "observe_cost"}
    assert stored["ci_time"]["not_measured"] and stored["observe_cost"]["rows"]
    # the table printed at the end: each figure beside its baseline, the ratio and the goal
    head = next(line for line in done.stdout.splitlines() if line.startswith("bench "))
    assert head.split() == ["bench", "value", "unit", "baseline", "baseline", "value", "ratio", "goal", "met"]
    assert (BENCH / "results.json").read_bytes() == kept
    assert (REPO / "site" / "bench-table.md").read_bytes() == table


def test_a_smoke_run_without_a_results_file_stores_nothing(tmp_path):
    kept = (BENCH / "results.json").read_bytes()
    done = subprocess.run([sys.executable, str(BENCH / "all.py"), "--smoke", "--only", "ci_time"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "not measured on this machine: ci_time" in done.stdout
    assert (BENCH / "results.json").read_bytes() == kept
