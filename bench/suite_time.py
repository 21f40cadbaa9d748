"""`make test` on a fresh clone of this repository's HEAD, first run and warm, against 2 minutes.

Clones HEAD into a temporary folder (`git clone`, so nothing ignored comes
along: no virtual environment, no caches, no compiled bytecode), makes its
virtual environment (`make venv`, timed apart: pip's work, not the tests'),
then times `make test` twice in a row as a developer's shell runs it: the
first run, which also fills the clone's caches (the JAX compilation cache in
`.litrec-cache/jax/`, the tests' bytecode), and a warm one. The figures are
the two wall times; goal: each under 2 minutes on 2 quiet cores. A run that
fails is reported as failed and has no figure.

It loads both cores for minutes: run it alone, or read the load average it
prints beside the figures.

    python bench/suite_time.py [--json PATH] [--timeout 1800]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import report  # noqa: E402

GOAL_MIN = 2.0


def _timed(argv: list[str], cwd: Path, env: dict[str, str], timeout: float) -> tuple[float, float]:
    """Wall and CPU seconds (the whole process tree) of `argv`; exits with its output when it fails."""
    load0 = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=timeout)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    tail = done.stdout.strip().splitlines()[-1:] or [""]
    print(f"{' '.join(argv)}: {wall:.1f} s wall, {cpu:.0f} s CPU (load average {load0:.1f} at the "
          f"start, {os.getloadavg()[0]:.1f} at the end) {tail[0]}", flush=True)
    if done.returncode != 0:
        print(done.stdout[-4000:])
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}): no figure")
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds before a step is stopped")
    report.add_json_argument(ap)
    args = report.parse(ap)
    goal = f"< {GOAL_MIN:.0f} min"
    if args.smoke:  # CI runs the smoke runs inside its own test suite: this one would run it again
        report.cannot_measure("a smoke run starts no test suite: the figure is the whole of "
                              "`make test` on a fresh clone (minutes), run by CI itself",
                              args.json, goal)
        return
    with tempfile.TemporaryDirectory(prefix="litrec-test-time-") as tmp:
        clone = Path(tmp) / "repo"
        subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True)
        # a developer's shell: no virtual environment active, no LITREC_ settings, bytecode cached
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("VIRTUAL_ENV", "LITREC_")) and k != "PYTHONDONTWRITEBYTECODE"}
        _timed(["make", "venv"], clone, env, args.timeout)
        first, _ = _timed(["make", "test"], clone, env, args.timeout)
        warm, _ = _timed(["make", "test"], clone, env, args.timeout)
    report.emit([report.Row("make test: fresh clone, first run (venv made before)", first / 60, "min",
                            "", None, goal, first / 60 < GOAL_MIN),
                 report.Row("make test: warm", warm / 60, "min", "", None, goal, warm / 60 < GOAL_MIN)],
                args.json)


if __name__ == "__main__":
    main()
