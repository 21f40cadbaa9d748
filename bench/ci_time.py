"""CI's time: `.ci/run` on a fresh clone of this repository's HEAD, against 8 minutes.

Clones HEAD into a temporary folder (`git clone`, so nothing ignored comes
along: no virtual environment, no caches), runs `.ci/run` there as CI does and
times it, whole and step by step (the lines `ci: STEP: N s` it prints), with
the CPU seconds of everything it started. The figure is the whole wall time;
goal: under 8 minutes. Its name says whether the machine's JAX compile cache
(which `.ci/run` keeps from one CI run to the next) was cold, as on a machine's
first CI run, or warm. A CI run that fails is reported as failed and has no
figure. The chromium install step is CI's and is skipped where chromium is
missing and apt-get cannot run.

It takes as long as CI does (minutes) and loads both cores: run it alone, or
read the load average it prints beside the figure.

With `--against REV` it runs CI at REV too, right after (as long again), and
gives HEAD's figure beside it: the machine's speed varies by some 15% from one
hour to the next, so two figures taken apart compare less than these.

    python bench/ci_time.py [--against REV] [--json PATH] [--timeout 3600]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import report  # noqa: E402

GOAL_MIN = 8.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds before CI is stopped")
    ap.add_argument("--against", metavar="REV", default="",
                    help="also run CI on a fresh clone at REV, after HEAD's, as the baseline (twice as long)")
    report.add_json_argument(ap)
    args = report.parse(ap)
    if args.smoke:  # CI runs the smoke runs: this one would start CI inside itself
        report.cannot_measure("a smoke run starts no CI: the figure is the whole of .ci/run on a "
                              "fresh clone (minutes), and CI is what runs every script's smoke run",
                              args.json, f"< {GOAL_MIN:.0f} min")
        return
    kept = _kept_programs()
    base = args.against
    walls = {rev: _ci(rev, args.timeout) for rev in ("HEAD", *([base] if base else []))}
    where = (f"this machine's JAX compile cache warm ({kept} programs)" if kept
             else "this machine's JAX compile cache cold")
    print(f"at the start: {where}")
    report.emit([report.Row(f"CI: .ci/run on a fresh clone, {where}", walls["HEAD"] / 60, "min", base,
                            walls[base] / 60 if base else None, f"< {GOAL_MIN:.0f} min",
                            walls["HEAD"] / 60 < GOAL_MIN)], args.json)


def _ci(rev: str, timeout: float) -> float:
    """.ci/run on a fresh clone of this repository at `rev`: prints its steps, returns its wall
    seconds (exits, with no figure, where it fails)."""
    print(f"---- CI of {rev}")
    with tempfile.TemporaryDirectory(prefix="litrec-ci-") as tmp:
        clone = Path(tmp) / "repo"
        subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True)
        if rev != "HEAD":  # the clone's HEAD is this repository's: check the other out
            subprocess.run(["git", "-C", str(clone), "checkout", "-q", "--detach", rev], check=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "LITREC_"))}
        load0 = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        try:
            done = subprocess.run([str(clone / ".ci" / "run")], cwd=clone, env=env, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
            out, code = done.stdout, done.returncode
        except subprocess.TimeoutExpired as exc:
            out, code = (exc.stdout or b"").decode("utf-8", "replace"), "timeout"
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    for line in out.splitlines():
        if re.match(r"ci: [^:]+: \d+ s", line) or line.startswith("="):
            print(line)
    print(f"load average {load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; "
          f"CPU {cpu:.0f} s in {wall:.0f} s of wall time")
    if code != 0:
        print(out[-4000:])
        sys.exit(f"CI of {rev} failed ({code}): no figure")
    return wall


def _kept_programs() -> int:
    """How many compiled programs CI's cache of this machine holds (.ci/run keeps JAX's
    programs there from one CI run to the next): 0 on a first run."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    try:
        return sum(1 for p in (base / "litrec-ci" / "jax").iterdir() if p.name.endswith("-cache"))
    except OSError:
        return 0


if __name__ == "__main__":
    main()
