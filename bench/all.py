"""`make bench`: runs every benchmark in bench/ and prints their figures in one table.

Each script runs as its own process (its detail goes to the terminal as it
runs) with `--json` pointing at one temporary file; the rows they append there
are printed together at the end: each figure's median beside the baseline
measured in the same run, the ratio, and the goal with whether it was met.

    python bench/all.py [--only validate_scale,noop_run]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import report  # noqa: E402

# In the order of the table: validation, site, runs.
SCRIPTS = (
    "validate_scale",
    "site_scale",
    "serve_edit",
    "noop_run",
    "seeds_batched",
    "sweep_speedup",
    "cluster_speedup",
    "train_throughput",
)


def main() -> int:
    """Runs the scripts, then prints the table; exit 1 when a script failed or a goal was missed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated script names (default: all)")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n] or list(SCRIPTS)
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rows.jsonl"
        out.touch()
        for name in names:
            print(f"\n==== bench/{name}.py", flush=True)
            proc = subprocess.run([sys.executable, str(HERE / f"{name}.py"), "--json", str(out)])
            if proc.returncode != 0:
                failed.append(name)
        rows = report.load(str(out))
    print("\n==== all figures (medians; each baseline measured in the same run)")
    print(report.format_rows(rows))
    missed = [r.bench for r in rows if r.met is False]
    if failed:
        print(f"failed: {', '.join(failed)}")
    if missed:
        print(f"goals missed: {', '.join(missed)}")
    return 1 if failed or missed else 0


if __name__ == "__main__":
    sys.exit(main())
