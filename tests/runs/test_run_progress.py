"""What `litrec run` says of time: before a long run, about how long it takes (from the stored
timings of the last runs); piped to a log, a plain line per point finished with the time
elapsed and about how long is left, where a terminal gets a progress bar."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from litrec.runs import plan
from litrec.runs.options import ExecutorSpec
from litrec.runs.plan import estimate, point_progress_words, stored_seconds
from tests.support.seeds_toy import claim, write_project

LOSS = "{metric: loss_trained, op: '<', value: 0.2, source: {kind: paper, where: §1, quote: q, threshold: paper}}"


def _job(n: int, kept: tuple[int, ...] = (), seeds=None) -> SimpleNamespace:
    """What the estimate reads of a prepared job: its points and those kept from an earlier run."""
    return SimpleNamespace(points=[SimpleNamespace(seeds=seeds)] * n, kept={i: {} for i in kept})


def _stored(*times: float, wall: float = 100.0) -> dict:
    return {"wall_time_s": wall, "points": [{"overrides": {"seed": i}, "wall_time_s": t}
                                            for i, t in enumerate(times)]}


def test_the_estimate_sums_the_points_left_and_shares_them_among_the_workers():
    stored = _stored(600, 600, 600, 600, 300, 300, 300, 300)
    assert stored_seconds(_job(8), stored, 1) == 3600
    assert stored_seconds(_job(8, kept=(0, 1, 2)), stored, 1) == 1800  # kept points: not run again
    assert stored_seconds(_job(8, kept=(0, 1, 2)), stored, 2) == 900  # on two workers
    assert stored_seconds(_job(8, kept=tuple(range(7))), stored, 2) == 300  # one left: one worker
    # no time per point (or another grid, or seeds in groups): the result's own, in proportion
    assert stored_seconds(_job(4, kept=(0,)), stored, 1) == 75
    assert stored_seconds(_job(8, seeds=(0, 1)), stored, 1) == 100
    assert stored_seconds(_job(8), {"wall_time_s": 80}, 1) == 80
    assert stored_seconds(_job(1), None, 1) is None and stored_seconds(_job(1), {"wall_time_s": True}, 1) is None


def test_the_estimate_of_a_plan_names_the_analyses_without_a_stored_time():
    states = {"a": SimpleNamespace(result=_stored(60, 60)), "b": SimpleNamespace(result=None),
              "c": SimpleNamespace(result={"wall_time_s": 30.0})}
    jobs = {"a": _job(2), "b": _job(1), "c": _job(1)}
    assert estimate(jobs, states, 2, ExecutorSpec("local", 2)) == (90.0, ["b"])  # a: 2 points, 2 workers
    assert estimate(jobs, states, 1, ExecutorSpec("local", 1)) == (150.0, ["b"])


def test_a_progress_line_says_the_points_done_the_time_elapsed_and_about_how_long_is_left():
    assert point_progress_words("prop3 [paper_full]", 3, 8, 41 * 60) == \
        "prop3 [paper_full] 3/8 points, 41 min elapsed, about 68 min left"
    # 2 of the 3 done were kept from an interrupted run: the pace is that of the one run now
    assert point_progress_words("prop3 [paper_full]", 3, 8, 20 * 60, kept=2) == \
        "prop3 [paper_full] 3/8 points, 20 min elapsed, about 1 h 40 min left"
    assert point_progress_words("toy [quick]", 3, 3, 5) == "toy [quick] 3/3 points, 5 s elapsed"


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The three-seed toy project (NumPy, seconds); its working directory."""
    root = write_project(tmp_path / "toy", claim("F1", LOSS))
    monkeypatch.chdir(root)
    monkeypatch.setenv("NO_COLOR", "1")
    return root


def test_piped_a_run_prints_a_line_per_point_and_a_long_one_its_estimate_first(toy, cli, monkeypatch):
    code, out, err = cli("run", "--profile", "quick", "--jobs", "1")
    assert code == 0, err
    points = [ln for ln in err.splitlines() if ln.startswith("toy [quick] ")]
    assert [ln.split(",")[0] for ln in points] == \
        ["toy [quick] 1/3 points", "toy [quick] 2/3 points", "toy [quick] 3/3 points"]
    assert "left" in points[0] and "left" not in points[2]
    assert "stored timings" not in err  # nothing stored yet, and a short run says nothing
    monkeypatch.setattr(plan, "ESTIMATE_FROM", -1.0)  # the toy takes seconds (unsandboxed, none): any time is long
    code, _, err = cli("run", "--profile", "quick", "--jobs", "1", "--force")
    first = err.splitlines()[0]
    assert code == 0 and first.startswith("about ") and \
        first.endswith(" s (from the stored timings of the last runs)"), err
