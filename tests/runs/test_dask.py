"""Sweeps on dask.distributed: the local executor's result, retries, no partial results.

Every test starts a dask cluster or waits on one: slow (`make test-all`, or `pytest -m slow`).
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import pytest

pytestmark = pytest.mark.slow

pytest.importorskip("distributed")

from litrec.runs import sandbox  # noqa: E402
from tests.conftest import but_hermetic  # noqa: E402
from tests.support.sweep_toy import write_toy  # noqa: E402

RESULT = ("results", "toy-sweep", "quick.json")


@pytest.fixture(scope="module")
def cluster():
    """Two single-threaded worker processes on loopback, shared by the tests that kill one.

    Started as site/scale-out.md tells a user to start one: without the thread counts dask's
    nannies give their workers (a worker whose numerics environment differs from the run's is
    refused). The setting stays for the cluster's life: a killed worker is restarted by its nanny,
    which lives in this process."""
    import dask
    from distributed import LocalCluster

    from litrec.runs.executors import restore_environ

    before = dict(os.environ)  # the nannies write their workers' environment into this process
    try:
        with dask.config.set({"distributed.nanny.pre-spawn-environ": {}}), \
                LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                             dashboard_address=None) as c:
            restore_environ(before)
            yield c
    finally:
        restore_environ(before)




def _markers(folder) -> list[tuple[int, int]]:
    """(seed, pid) of every try of a point, in no particular order."""
    return [tuple(int(x) for x in p.name.split(".")[:2]) for p in folder.iterdir()]



def test_dask_and_local_results_and_caching_are_identical(sweep_project, cli):
    code, _, err = cli("run", "--profile", "quick", "--jobs", "1", "--results", "local")
    assert code == 0, err
    code, _, err = cli("run", "--profile", "quick", "--executor", "dask", "--jobs", "1", "--results", "dask")
    assert code == 0, err
    assert "3 points of 1 analysis to dask (a LocalCluster at tcp://127.0.0.1:" in err
    assert ", 1 worker)" in err
    local, dask = (json.loads((sweep_project / r / "toy-sweep" / "quick.json").read_text())
                   for r in ("local", "dask"))
    assert len(dask["points"]) == 3
    assert but_hermetic(dask) == but_hermetic(local)
    assert local["hermetic"] is (sandbox.unavailable() is None) and dask["hermetic"] is False
    svg = [(sweep_project / r / "toy-sweep" / "quick" / "draws.svg").read_bytes()
           for r in ("local", "dask")]
    assert svg[0] == svg[1]
    # each executor takes the other's result as current: nothing runs, no cluster starts
    code, out, _ = cli("run", "--profile", "quick", "--results", "dask", "--format", "json")
    assert json.loads(out)["ran"] == []
    code, out, err = cli("run", "--profile", "quick", "--executor", "dask", "--results", "local", "--format", "json")
    assert json.loads(out)["ran"] == [] and "to dask" not in err


def test_a_killed_worker_is_retried_elsewhere(sweep_project, cli, cluster):
    markers = sweep_project / "markers"
    markers.mkdir()
    write_toy(sweep_project, sleep=1.0, marker_dir=str(markers))
    killed = []

    def kill_a_worker_mid_task():
        deadline = time.monotonic() + 120  # a loaded machine starts workers slowly
        while not any(markers.iterdir()) and time.monotonic() < deadline:
            time.sleep(0.05)
        seed, pid = _markers(markers)[0]
        os.kill(pid, signal.SIGKILL)
        killed.append((seed, pid))

    killer = threading.Thread(target=kill_a_worker_mid_task)
    killer.start()
    code, out, err = cli("run", "--profile", "quick", "--executor", "dask", "--scheduler", cluster.scheduler_address,
                         "--format", "json")
    killer.join()
    assert code == 0, err
    assert json.loads(out)["ran"] == ["toy-sweep"]
    result = json.loads(sweep_project.joinpath(*RESULT).read_text())
    assert [p["overrides"] for p in result["points"]] == [{"seed": 0}, {"seed": 1}, {"seed": 2}]
    (seed, pid), = killed
    reruns = [p for s, p in _markers(markers) if s == seed]
    assert len(reruns) == 2 and reruns[0] != reruns[1]  # started again in another process


def test_a_point_that_always_fails_writes_no_partial_result(sweep_project, cli, cluster):
    markers = sweep_project / "markers"
    markers.mkdir()
    write_toy(sweep_project, fail_seed=1, marker_dir=str(markers))
    code, _, err = cli("run", "--profile", "quick", "--executor", "dask", "--scheduler", cluster.scheduler_address)
    assert code == 1
    assert "analysis toy-sweep failed: RuntimeError: boom at seed 1 (point seed=1)" in err
    assert [s for s, _ in _markers(markers)].count(1) == 3  # retries=2: three tries in all
    names = {p.name for p in (sweep_project / "results" / "toy-sweep").iterdir()}
    assert "quick.error.log" in names and "quick.json" not in names  # (quick.partial: the points kept)


def test_an_unreachable_scheduler_is_a_usage_error(sweep_project, cli):
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code, _, err = cli("run", "--profile", "quick", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2
    assert "litrec: error: cannot reach the dask scheduler at tcp://127.0.0.1:9" in err


def test_a_tls_scheduler_without_tls_settings_is_a_usage_error(sweep_project, cli):
    import dask

    with dask.config.set({"distributed.comm.tls.ca-file": None, "distributed.comm.tls.client.cert": None}):
        code, _, err = cli("run", "--profile", "quick", "--executor", "dask", "--scheduler", "tls://127.0.0.1:9")
    assert code == 2
    assert err.strip().splitlines()[-1] == (
        "litrec: error: cannot reach the dask scheduler at tls://127.0.0.1:9: a tls:// scheduler needs dask's TLS "
        "settings for a client, and distributed.comm.tls.ca-file and distributed.comm.tls.client.cert are not set "
        "(site/scale-out.md, 'Keeping a cluster private')")
