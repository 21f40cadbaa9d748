"""A run killed at random moments (SIGKILL or Ctrl-C) and rerun continues from its kept seeds
and training checkpoints and ends with the numbers of a run that was never interrupted."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from litrec.results import resume
from tests.support.toy import importable, write_analysis

ROOT = Path(__file__).resolve().parents[2]
HELPERS = ("__init__.py", "lib/__init__.py", "lib/checkpoint.py", "lib/keys.py", "lib/lsa.py", "lib/metrics.py",
           "lib/tasks.py", "lib/train.py")

TOY = '''
"""A small LSA layer meta-trained on linear regression, slowly (a pause per chunk)."""
import time
from dataclasses import dataclass

import jax
import jax.numpy as jnp

from analysis.lib import tasks as task_lib, train as train_lib
from analysis.lib.keys import named_keys


@dataclass(frozen=True)
class Config:
    """Seed, steps and the pause per chunk."""

    seed: int = 0
    steps: int = 300
    pause: float = 0.03


PROFILES = {"quick": Config()}
SEEDS = {"quick": (0, 1, 2)}


def run(config, progress=None):
    """Train one seed; its loss, history and final weights."""
    keys = named_keys(config.seed, "init", "stream", "eval")

    def loss_fn(p, raw):
        X, y, x_q, y_q = task_lib.regression_tasks(raw, 1.0)
        H = jnp.concatenate([jnp.concatenate([X, y[..., None]], -1),
                             jnp.concatenate([x_q, jnp.zeros_like(y_q)[:, None]], -1)[:, None]], 1)
        return 0.5 * jnp.mean((y_q + train_lib.lsa.query_forward(p, H)[:, -1]) ** 2)

    def pause(done, total, what):
        time.sleep(config.pause)

    result = train_lib.train(train_lib.init_lsa(keys["init"], 11, 0.002), loss_fn,
                             task_lib.regression_draws(task_lib.host_rng(keys["stream"]), 64, 10, 10),
                             steps=config.steps, optimizer=train_lib.adam(3e-3, 10.0), chunk_size=10,
                             eval_every=50, evaluate=lambda p: {"p_norm": jnp.sum(p.P ** 2)},
                             progress=pause, description="toy training")
    ev = task_lib.regression_task_set(keys["eval"], 256, 10, 10, 1.0)
    return {"metrics": {"loss": float(train_lib.regression_loss(result.params, ev)),
                        "train_loss": result.history["train_loss"], "p_norm": result.history["p_norm"],
                        "P": [float(x) for x in result.params.P.ravel()]}}
'''

PAPER = '''
id: ARXIV-0000.00009
kind: literature
title: A toy paper
claims:
  - id: F1
    kind: finding
    title: It trains
    statement: The trained loss is small.
    check:
      analysis: toy
      expect:
        - {metric: loss, op: "<", value: 10, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
'''


def _project(root: Path) -> Path:
    (root / "analysis" / "lib").mkdir(parents=True)
    for name in HELPERS:
        shutil.copy(ROOT / "analysis" / name, root / "analysis" / name)
    (root / "analysis" / "toy.py").write_text(TOY)
    (root / "analysis" / "registry.yaml").write_text("toy:\n  module: toy\n  title: Toy\n")
    rec = root / "records" / "literature" / "ARXIV-0000.00009.yaml"
    rec.parent.mkdir(parents=True)
    rec.write_text(PAPER.lstrip())
    return root


def _start(root: Path) -> subprocess.Popen:
    env = {**os.environ, "NO_COLOR": "1", resume.SECONDS_VARIABLE: "0.3"}
    return subprocess.Popen([sys.executable, "-m", "litrec", "run", "--profile", "quick", "--jobs", "1"],
                            cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)


def _metrics(root: Path) -> list[dict]:
    result = json.loads((root / "results" / "toy" / "quick.json").read_text())
    return [p["metrics"] for p in result["points"]]


@pytest.mark.slow
def test_killed_at_random_moments_then_rerun_gives_the_same_numbers(tmp_path):
    whole = _project(tmp_path / "whole")
    t0 = time.monotonic()
    proc = _start(whole)
    out = proc.communicate(timeout=600)[0].decode()
    length = time.monotonic() - t0
    assert proc.returncode == 0, out
    expected = _metrics(whole)

    cut = _project(tmp_path / "cut")
    kept = resume.partial_dir(cut / "results", "toy", "quick") / resume.CHECKPOINTS
    proc = _start(cut)                                   # first: killed in the middle of a training
    while proc.poll() is None and not any(kept.rglob("*.npz")):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=120)
    assert any(kept.rglob("*.npz"))
    rng = random.Random(21)
    kills, resumed_from_partial, checkpoints_seen = 1, False, True
    for attempt in range(12):                            # then at random moments
        proc = _start(cut)
        # a moment within the uninterrupted run's length, the window widening a quarter per
        # attempt: under a load that grew since that run, a later attempt still gets to finish
        when = rng.uniform(0.2, 0.7) * length * 1.25 ** attempt
        try:
            proc.communicate(timeout=when)
        except subprocess.TimeoutExpired:
            sig = signal.SIGINT if attempt % 3 == 2 else signal.SIGKILL
            os.killpg(proc.pid, sig)
            proc.communicate(timeout=120)
            kills += 1
            partial = resume.partial_dir(cut / "results", "toy", "quick")
            resumed_from_partial |= partial.is_dir() and any(partial.glob("seed-*.json"))
            continue
        assert proc.returncode == 0
        break
    else:
        pytest.fail("no run finished in 12 attempts")
    assert kills >= 2 and checkpoints_seen
    assert _metrics(cut) == expected                     # every number, bit for bit
    assert not resume.partial_dir(cut / "results", "toy", "quick").exists()
    result = json.loads((cut / "results" / "toy" / "quick.json").read_text())
    assert any("kept from an interrupted run" in n for n in result["notes"]) == resumed_from_partial
    assert any(p.get("kept") for p in result["points"]) == resumed_from_partial
    for p in result["points"]:  # each kept seed says when and where it was computed
        assert not p.get("kept") or (p["kept"]["host"] and p["kept"]["when"])
    assert all("from an earlier sitting" in n for n in result["notes"] if "kept from an interrupted run" in n)
    assert all(p["wall_time_s"] > 0 for p in result["points"])  # kept ones too: the whole cost


def test_finished_points_are_kept_sealed_and_refused_when_edited_or_of_other_inputs(tmp_path):
    out = {"metrics": {"loss": 0.25, "curve": [1.0, 0.5]}, "figures": {"f": b"<svg/>"}, "notes": ["n"],
           "noise": {}, "wall_time_s": 1.5, "config": {"seed": 3}, "platform": {}, "device": {}}
    resume.keep(tmp_path, "toy", "paper_full", {"seed": 3}, "k1", out)
    path = resume.partial_dir(tmp_path, "toy", "paper_full") / "seed-3.json"
    assert path.is_file()
    got = resume.kept(tmp_path, "toy", "paper_full", {"seed": 3}, "k1")
    assert {k: v for k, v in got.items() if k != "sitting"} == out
    # where it came from, for the result to show: evidence, not trust
    assert got["sitting"]["host"] == socket.gethostname() and got["sitting"]["when"].startswith("20")
    assert got["sitting"]["commit"] is None  # not a git repository
    assert resume.kept(tmp_path, "toy", "paper_full", {"seed": 3}, "k2") is None      # other inputs
    assert resume.kept(tmp_path, "toy", "paper_full", {"seed": 4}, "k1") is None      # no such point
    path.write_text(path.read_text().replace("0.25", "0.2"))                          # edited by hand
    assert resume.kept(tmp_path, "toy", "paper_full", {"seed": 3}, "k1") is None
    path.write_text("{")                                                               # damaged
    assert resume.kept(tmp_path, "toy", "paper_full", {"seed": 3}, "k1") is None
    resume.drop(tmp_path, "toy", "paper_full")
    assert not resume.partial_dir(tmp_path, "toy", "paper_full").exists()


def test_the_key_changes_with_every_input():
    base = dict(module="analysis.toy", profile="paper_full", config={"steps": 10}, overrides={"seed": 0},
                seeds=None, code_files={"analysis/toy.py": "h1"}, versions={"jax": "0.4"})
    key = resume.point_key(**base)
    for field, other in (("module", "analysis.t2"), ("profile", "paper"), ("config", {"steps": 11}),
                         ("overrides", {"seed": 1}), ("seeds", (0, 1)),
                         ("code_files", {"analysis/toy.py": "h2"}), ("versions", {"jax": "0.5"})):
        assert resume.point_key(**{**base, field: other}) != key, field
    assert resume.point_key(**base) == key


def test_checkpoints_sit_in_the_partial_folder_and_no_link_is_followed(tmp_path):
    folder = resume.checkpoint_dir(tmp_path, "toy", "paper_full", "ab" * 32)
    assert folder == str(resume.partial_dir(tmp_path, "toy", "paper_full") / "checkpoints" / ("ab" * 16))
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "paper_full.partial").symlink_to(outside)
    assert resume.checkpoint_dir(tmp_path, "toy", "paper_full", "ab" * 32) is None
    resume.drop(tmp_path, "toy", "paper_full")          # the link goes nowhere, the outside stays
    assert outside.is_dir()


FAILING = '''
"""Seed 0 trains and finishes; seed 1 keeps a checkpoint, then fails."""
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Config:
    """The seed."""

    seed: int = 0


PROFILES = {"quick": Config()}
SEEDS = {"quick": (0, 1)}
METRICS = ("loss",)


def run(config, progress=None):
    """A checkpoint file where litrec says, then a loss (or, at seed 1, an error)."""
    folder = Path(os.environ["LITREC_CHECKPOINT_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "state.npz").write_bytes(b"state")
    if config.seed == 1:
        raise RuntimeError("seed 1 stops here")
    return {"metrics": {"loss": 0.5}}
'''


def test_a_finished_point_leaves_no_checkpoints_and_an_unfinished_one_keeps_them(tmp_path, monkeypatch,
                                                                                  cli):
    write_analysis(tmp_path, FAILING)
    rec = tmp_path / "records" / "literature" / "ARXIV-0000.00009.yaml"
    rec.parent.mkdir(parents=True)
    rec.write_text(PAPER.lstrip().replace("{metric: loss, op: \"<\", value: 10, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}",
                                          "{metric: loss, op: \"<\", value: 1, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}"))
    importable(tmp_path, monkeypatch)  # this project's `analysis` runs here; then back
    code, out, err = cli("run", "--profile", "quick", "--jobs", "1")
    assert code != 0 and "seed 1 stops here" in out + err
    partial = resume.partial_dir(tmp_path / "results", "toy", "quick")
    assert (partial / "seed-0.json").is_file() and not (partial / "seed-1.json").exists()
    states = sorted(p.parent.name for p in (partial / resume.CHECKPOINTS).rglob("state.npz"))
    assert len(states) == 1                     # seed 1's, to continue from; seed 0's are gone
