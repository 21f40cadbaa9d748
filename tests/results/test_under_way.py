"""A rerun under way: a run of hours committed part by part is told from a result nobody reran.

The toy analysis's code changes (its result goes stale), and a rerun keeps two of its three seeds
before its sitting ends (killed while its third, slow, seed runs). `status` says the rerun of the present inputs is under way, and
`--check-current --under-way` lets the claim pass; once the code changes again, or the marker
is edited, the kept seeds are no rerun of the present inputs and it fails again.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from litrec.results import resume
from tests.support.seeds_toy import TOY, claim, killed, litrec, status, write_project

FAILING = TOY.replace('    rng = np.random.default_rng(config.seed)\n',
                      '    import time\n'
                      '    if config.seed == 2:\n'
                      '        time.sleep(3)  # a long point: the sitting ends here (killed)\n'
                      '    rng = np.random.default_rng(config.seed)\n')
PARTIAL = Path("results/toy/paper.partial")


def _stop_at_seed_2(root: Path):
    """A rerun killed once seeds 0 and 1 are kept."""
    return killed(root, root / PARTIAL / "seed-1.json", "run", "--profile", "paper", "--jobs", "1")


@pytest.fixture(scope="module")
def judged(tmp_path_factory) -> Path:
    """The toy with its paper result, run once for this module (only copied: `_project`)."""
    root = write_project(tmp_path_factory.mktemp("under-way") / "project",
                         claim("F1", '{metric: loss_trained, op: "<", value: 0.5, '
                                     'source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'))
    assert litrec("run", "--profile", "paper", "--jobs", "1", cwd=root).returncode == 0
    return root


def _project(judged: Path, tmp_path: Path) -> Path:
    """A copy of `judged`: the toy whose paper result is current."""
    return shutil.copytree(judged, tmp_path / "project", symlinks=True)


def _check(root: Path, *extra: str) -> int:
    return litrec("status", "--profile", "paper", "--check-current", *extra, cwd=root).returncode


def test_a_rerun_under_way_passes_only_when_asked_and_only_for_the_present_inputs(judged, tmp_path):
    root = _project(judged, tmp_path)
    (root / "analysis" / "toy.py").write_text(FAILING)                  # the code changes: stale
    assert _check(root) == 1 and _check(root, "--under-way") == 1        # nobody reran it yet
    stopped = _stop_at_seed_2(root)
    assert stopped.returncode != 0
    assert sorted(p.name for p in (root / PARTIAL).glob("*.json")) == ["run.json", "seed-0.json", "seed-1.json"]

    code, rows = status(root, profile="paper")
    assert rows["F1"]["verdict"] == "stale" and rows["F1"]["rerun_here"] is True
    assert rows["F1"]["rerun"].startswith("2 of 3 points done; started ")
    assert "a rerun of the present inputs is under way: 2 of 3 points done" in rows["F1"]["reason"]
    assert _check(root) == 1                                             # still stale: not judged
    passed = litrec("status", "--profile", "paper", "--check-current", "--under-way", cwd=root)
    assert passed.returncode == 0
    assert "rerun of the present inputs is under way" in passed.stderr and "ARXIV-0000.00003#F1" in passed.stderr

    marker = root / PARTIAL / "run.json"
    mine = json.loads(marker.read_text())
    other = {**mine["header"], "inputs": {**mine["header"]["inputs"], "isa": ["another", "cpu"]}}
    resume.mark(root / "results", "toy", "paper", other, mine["keys"])  # as a run on another CPU marks it
    row = status(root, profile="paper")[1]["F1"]
    assert row["rerun_here"] is False and "(on another CPU)" in row["rerun"]
    assert _check(root, "--under-way") == 1 and _check(root, "--under-way", "--any-machine") == 0
    resume.mark(root / "results", "toy", "paper", mine["header"], mine["keys"])

    (root / "analysis" / "toy.py").write_text(FAILING + "# changed again\n")
    assert _check(root, "--under-way") == 1                              # kept seeds of other inputs
    assert "rerun" not in status(root, profile="paper")[1]["F1"]

    (root / "analysis" / "toy.py").write_text(FAILING)                   # back: the rerun is of it again
    assert _check(root, "--under-way") == 0
    data = json.loads(marker.read_text())
    data["keys"] = data["keys"][:1]                                      # edited: its seal breaks
    marker.write_text(json.dumps(data))
    assert _check(root, "--under-way") == 1

    assert litrec("run", "--profile", "paper", "--jobs", "1", cwd=root).returncode == 0
    assert _check(root) == 0 and not (root / PARTIAL).exists()          # the rerun ended: current


def test_only_the_work_of_the_marked_run_counts(tmp_path):
    results = tmp_path / "results"
    header = {"code_hash": "h1"}
    assert resume.under_way(results, "a", "paper") is None              # never started
    resume.mark(results, "a", "paper", header, ["k1" * 20, "k2" * 20, "k3" * 20])
    started = resume.under_way(results, "a", "paper")                   # its points wait for a worker
    assert started is not None and (started.kept, started.training) == (0, 0)
    assert started.words().startswith("none of its 3 points done yet; started no git commit on ")
    resume.keep(results, "a", "paper", {"seed": 0}, "old" * 20, {"metrics": {"x": 1.0}})
    assert resume.under_way(results, "a", "paper").kept == 0            # a point of other inputs
    resume.keep(results, "a", "paper", {"seed": 1}, "k2" * 20, {"metrics": {"x": 1.0}})
    held = results / "a" / "paper.partial" / "checkpoints" / ("k3" * 20)[:32]
    held.mkdir(parents=True)
    (held / "state.npz").write_bytes(b"x")
    run = resume.under_way(results, "a", "paper")
    assert run is not None and (run.header, run.points, run.kept, run.training) == (header, 3, 1, 1)
    assert run.words().startswith("1 of 3 points done, 1 training checkpointed; started ")
    assert resume.progress(results, "a", "paper") == (2, 1)             # the marker is no point


def test_a_run_that_fails_before_doing_anything_leaves_no_rerun_under_way(judged, tmp_path):
    root = _project(judged, tmp_path)
    broken = TOY.replace('    rng = np.random.default_rng(config.seed)\n',
                         '    raise RuntimeError("broken at once")\n')
    (root / "analysis" / "toy.py").write_text(broken)
    assert litrec("run", "--profile", "paper", "--jobs", "1", cwd=root).returncode != 0
    assert not (root / PARTIAL).exists()                                 # marked as it started, taken back
    assert "rerun" not in status(root, profile="paper")[1]["F1"]
    assert _check(root, "--under-way") == 1

    (root / "analysis" / "toy.py").write_text(FAILING)                   # one that keeps work, then fails
    assert _stop_at_seed_2(root).returncode != 0
    assert (root / PARTIAL / "run.json").is_file()                       # its work stays marked
