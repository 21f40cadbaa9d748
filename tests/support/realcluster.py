"""A real dask cluster for the tests: `dask scheduler` and `dask worker` processes.

Started as site/scale-out.md tells a user to start them: one scheduler on loopback, each
worker its own `dask worker ADDRESS --nthreads 1` process (with its nanny), in a working
folder of its own, away from the project. Each process leads its own process group, so
`kill` takes a worker and its nanny down together, as a machine that is lost would.
Optional TLS: `tls` is a `Certificates`, given to every process on its command line.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

DASK = [sys.executable, "-m", "dask"]
START_TIMEOUT = 120  # seconds for the cluster to come up on a loaded two-core machine


@dataclass(frozen=True)
class Certificates:
    """A certificate authority's file and one certificate and key signed by it (PEM)."""

    ca: Path
    cert: Path
    key: Path

    def flags(self) -> list[str]:
        """The `dask scheduler` / `dask worker` options that use them."""
        return ["--tls-ca-file", str(self.ca), "--tls-cert", str(self.cert), "--tls-key", str(self.key)]

    def client_env(self) -> dict[str, str]:
        """dask's settings for a client (litrec) that connects with them, as environment variables."""
        return {"DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION": "True",
                "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": str(self.ca),
                "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": str(self.cert),
                "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": str(self.key)}


def self_signed(folder: Path, name: str = "litrec-test") -> Certificates:
    """A self-signed certificate (its own authority) for 127.0.0.1, made with openssl."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = folder / f"{name}.pem", folder / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", f"/CN={name}",
                    "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    return Certificates(ca=cert, cert=cert, key=key)


class Cluster:
    """A scheduler and `workers` worker processes; `close` (or the with block) stops them all."""

    def __init__(self, folder: Path, workers: int = 2, tls: Certificates | None = None,
                 env: dict[str, str] | None = None):
        self.folder = folder
        self.tls = tls
        self.env = {**os.environ, **(env or {}), **({"DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION": "True"}
                                                   if tls else {})}
        self.procs: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        folder.mkdir(parents=True, exist_ok=True)
        try:
            self.address = self._scheduler()
            for i in range(workers):
                self.workers.append(self._worker(i))
            self.wait_for_workers(workers)
        except BaseException:
            self.close()
            raise

    def _start(self, name: str, argv: list[str], cwd: Path) -> subprocess.Popen:
        cwd.mkdir(parents=True, exist_ok=True)
        log = (self.folder / f"{name}.log").open("wb")
        proc = subprocess.Popen(DASK + argv + (self.tls.flags() if self.tls else []), cwd=cwd, env=self.env,
                                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        log.close()
        self.procs.append(proc)
        return proc

    def _scheduler(self) -> str:
        info = self.folder / "scheduler.json"
        proc = self._start("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                         "--scheduler-file", str(info),
                                         *(["--protocol", "tls"] if self.tls else [])],
                           self.folder / "scheduler")
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"dask scheduler exited ({proc.returncode}):\n{self.log('scheduler')}")
            try:
                return json.loads(info.read_text())["address"]
            except (OSError, ValueError, KeyError):
                time.sleep(0.1)
        raise TimeoutError(f"no dask scheduler after {START_TIMEOUT} s:\n{self.log('scheduler')}")

    def _worker(self, i: int) -> subprocess.Popen:
        # the workers' own folder: nothing of the project there (the project is on a path they share)
        return self._start(f"worker{i}", ["worker", self.address, "--nthreads", "1", "--name", f"w{i}",
                                          "--no-dashboard", "--local-directory", str(self.folder / "scratch")],
                           self.folder / "workers")

    def client(self):
        """A dask client of the cluster (the caller closes it)."""
        from distributed import Client
        from distributed.security import Security

        security = (Security(tls_ca_file=str(self.tls.ca), tls_client_cert=str(self.tls.cert),
                             tls_client_key=str(self.tls.key), require_encryption=True) if self.tls else None)
        return Client(self.address, security=security, timeout=START_TIMEOUT)

    def wait_for_workers(self, n: int) -> None:
        with self.client() as client:
            client.wait_for_workers(n, timeout=START_TIMEOUT)

    def worker_of(self, pid: int) -> subprocess.Popen:
        """The `dask worker` process whose group holds the process `pid` (its worker, or its nanny)."""
        group = os.getpgid(pid)
        (worker,) = [w for w in self.workers if w.pid == group]
        return worker

    def kill(self, worker: subprocess.Popen) -> None:
        """Kill a worker, its nanny and everything they started at once (SIGKILL to its group)."""
        _signal_group(worker, signal.SIGKILL)
        worker.wait(30)

    def log(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def close(self) -> None:
        for proc in reversed(self.procs):  # workers first, then the scheduler
            _signal_group(proc, signal.SIGTERM)
        for proc in reversed(self.procs):
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                pass
            _signal_group(proc, signal.SIGKILL)  # whatever of its group is left
            proc.wait(10)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass  # the group is gone
