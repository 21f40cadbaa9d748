"""A real dask cluster, as site/scale-out.md tells a user to start one: `dask scheduler` and
two `dask worker` processes on loopback, the workers in a folder of their own.

- a worker killed (with its nanny) while it runs a point: the other one runs it again, and
  the result is the local executor's, byte for byte but for the times;
- a `tls://` cluster with a self-made certificate: litrec, given dask's TLS settings, gets
  the same result; without the cluster's certificate it cannot connect;
- a worker whose nanny set OMP_NUM_THREADS (and the others) to 1, as every `dask worker`'s
  does, against a run without: refused, naming the variables and the fix.

The runs that succeed have the thread counts the nannies give their workers, as
site/scale-out.md says (they are inputs of a result).

Each test starts its own processes: slow (`make test-all`, or `pytest -m slow`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time

import pytest

pytestmark = pytest.mark.slow

pytest.importorskip("distributed")

from tests.conftest import but_hermetic  # noqa: E402
from tests.support.realcluster import Cluster, self_signed  # noqa: E402
from tests.support.sweep_toy import write_toy  # noqa: E402

RESULT = ("toy-sweep", "quick.json")
THREADS = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}


@pytest.fixture
def as_the_workers(monkeypatch):
    """litrec's process (and the processes it starts) with the thread counts of the workers."""
    for name, value in THREADS.items():
        monkeypatch.setenv(name, value)


def _result(root, results: str) -> dict:
    return json.loads(root.joinpath(results, *RESULT).read_text())


def _tries(folder) -> list[tuple[int, int]]:
    """(seed, pid) of every try of a point, in the order they started."""
    names = sorted(folder.iterdir(), key=lambda p: int(p.name.split(".")[2]))
    return [(int(p.name.split(".")[0]), int(p.name.split(".")[1])) for p in names]


def test_a_worker_killed_mid_sweep_on_a_real_cluster_changes_nothing(sweep_project, cli, tmp_path_factory,
                                                                     as_the_workers, monkeypatch):
    monkeypatch.setenv("LITREC_SANDBOX", "off")  # the toy notes its worker's pid in the project
    markers = sweep_project / "markers"
    markers.mkdir()
    write_toy(sweep_project, sleep=2.0, marker_dir=str(markers))
    code, _, err = cli("run", "--profile", "quick", "--jobs", "1", "--results", "local")
    assert code == 0, err
    shutil.rmtree(markers)
    markers.mkdir()
    with Cluster(tmp_path_factory.mktemp("cluster"), workers=2) as cluster:
        killed = []

        def kill_the_first_worker_to_start_a_point():
            deadline = time.monotonic() + 120
            while not any(markers.iterdir()) and time.monotonic() < deadline:
                time.sleep(0.02)
            (_, pid), *_ = _tries(markers)
            worker = cluster.worker_of(pid)
            cluster.kill(worker)
            killed.append((pid, worker))

        killer = threading.Thread(target=kill_the_first_worker_to_start_a_point)
        killer.start()
        code, out, err = cli("run", "--profile", "quick", "--executor", "dask", "--scheduler", cluster.address,
                             "--results", "dask", "--format", "json")
        killer.join()
        assert code == 0, err + cluster.log("scheduler")
        assert f"3 points of 1 analysis to dask (the scheduler at {cluster.address}, 2 workers)" in err
        (pid, worker), = killed
        assert worker.returncode is not None  # that worker is gone for good
        (alive,) = [w for w in cluster.workers if w.poll() is None]
        tries = _tries(markers)
        # every point finished in the worker left; the one killed mid-point was tried again there
        assert sorted(seed for seed, p in tries if p != pid) == [0, 1, 2]
        assert {cluster.worker_of(p).pid for _, p in tries if p != pid} == {alive.pid}
        assert len([s for s, p in tries if p == pid]) == 1
    assert json.loads(out)["ran"] == ["toy-sweep"]
    local, dask = _result(sweep_project, "local"), _result(sweep_project, "dask")
    assert [p["overrides"] for p in dask["points"]] == [{"seed": 0}, {"seed": 1}, {"seed": 2}]
    assert but_hermetic(dask) == but_hermetic(local)


def _litrec(root, *args, env=None) -> subprocess.CompletedProcess:
    """litrec in its own process, as a user runs it, with dask's settings from `env`."""
    return subprocess.run([sys.executable, "-m", "litrec", *args], cwd=root, capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "200", **(env or {})}, timeout=300)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl to make a certificate")
def test_a_tls_cluster_with_a_self_made_certificate(sweep_project, cli, tmp_path_factory, as_the_workers):
    code, _, err = cli("run", "--profile", "quick", "--jobs", "1", "--results", "local")
    assert code == 0, err
    certs = self_signed(tmp_path_factory.mktemp("certs"))
    stranger = self_signed(tmp_path_factory.mktemp("stranger"), "stranger")  # another authority
    with Cluster(tmp_path_factory.mktemp("cluster"), workers=2, tls=certs) as cluster:
        assert cluster.address.startswith("tls://127.0.0.1:")
        run = ("run", "--profile", "quick", "--executor", "dask", "--scheduler", cluster.address)
        proc = _litrec(sweep_project, *run, "--results", "dask", env=certs.client_env())
        assert proc.returncode == 0, proc.stderr + cluster.log("scheduler")
        assert f"to dask (the scheduler at {cluster.address}, 2 workers)" in proc.stderr
        # a client whose certificate the cluster's authority did not sign is refused
        refused = _litrec(sweep_project, *run, "--results", "stranger",
                          env={**stranger.client_env(), "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3s"})
        assert refused.returncode == 2, refused.stderr
        assert f"litrec: error: cannot reach the dask scheduler at {cluster.address}" in refused.stderr
        assert "Traceback" not in refused.stderr
        # and so is one without TLS, at the same port
        plain = cluster.address.replace("tls://", "tcp://")
        refused = _litrec(sweep_project, "run", "--profile", "quick", "--executor", "dask", "--scheduler", plain,
                          "--results", "plain", env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3s"})
        assert refused.returncode == 2, refused.stderr
        assert f"litrec: error: cannot reach the dask scheduler at {plain}" in refused.stderr
    assert but_hermetic(_result(sweep_project, "dask")) == but_hermetic(_result(sweep_project, "local"))
    assert not sweep_project.joinpath("stranger", *RESULT).exists()
    assert not sweep_project.joinpath("plain", *RESULT).exists()


def test_workers_with_other_thread_counts_are_refused_with_the_fix(sweep_project, cli, tmp_path_factory,
                                                                   monkeypatch):
    for name in THREADS:
        monkeypatch.delenv(name, raising=False)
    write_toy(sweep_project)
    with Cluster(tmp_path_factory.mktemp("cluster"), workers=1) as cluster:
        code, _, err = cli("run", "--profile", "quick", "--executor", "dask", "--scheduler", cluster.address,
                           "--results", "dask")
    assert code == 1 and "Traceback" not in err
    assert "OMP_NUM_THREADS" in err and "set the same where litrec runs" in err
    assert not sweep_project.joinpath("dask", *RESULT).exists()
