"""`litrec status` reads at 80 and 120 columns: one line per claim, cut, never wrapped."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from litrec.seal import seal


def _result(project, name: str, metrics: dict) -> None:
    from litrec.inputs import RESULT_FORMAT
    from litrec.inputs import result_inputs as fingerprint
    from litrec.load import load_project
    from litrec.results import write_result

    proj = load_project(project / "records")
    fp = fingerprint(proj.registry, name, "paper")
    payload = {"format": RESULT_FORMAT, "analysis": name, "profile": "paper",
               "code_hash": fp.code_hash, "code_files": fp.files, "versions": fp.versions,
               "inputs": fp.record(),
               "started": "2026-01-02T03:04:05+00:00", "wall_time_s": 1.0, "config": {},
               "metrics": metrics, "figures": {}, "notes": []}
    write_result(project / "results", name, "paper", seal(payload, {}), {})


@pytest.mark.parametrize("columns", [80, 120])
def test_one_line_per_claim_within_the_width(project, columns):
    _result(project, "conditioning-vs-parameters", {
        "params_unchanged": True, "max_abs_pred_error": 0.0, "max_abs_dW_error": 0.0,
        "implied_model_distance": 1.0, "min_cross_distance": 1.0})
    env = {**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "litrec", "status"], cwd=project, env=env,
                          capture_output=True, text=True, timeout=120)
    lines = proc.stdout.splitlines()
    assert lines and all(len(line) <= columns for line in lines), proc.stdout
    claims = json.loads(subprocess.run([sys.executable, "-m", "litrec", "status", "--format",
                                        "json"], cwd=project, env=env, capture_output=True,
                                       text=True, timeout=120).stdout)
    starts = [ln.split()[0] for ln in lines if ln and not ln.startswith(" ")][:-1]
    assert starts == [c["claim"] for c in claims]  # one line each, in order, then the summary
    assert lines[-1].startswith(f"{len(claims)} claims:")
