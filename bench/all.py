"""`make bench`: runs every benchmark in bench/ and prints their figures in one table.

Each script runs as its own process (its detail goes to the terminal as it
runs) with `--json` pointing at a temporary file; the rows they append there
are printed together at the end: each figure's median beside the baseline
measured in the same run, the ratio, and the goal with whether it was met.
The rows are also stored in bench/results.json (a script's replace its earlier
ones; `--only` measures some scripts and keeps the others' figures) and
rendered into site/bench-table.md and README.md, the one table the docs include
(`bench/table.py`).

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
import table  # noqa: E402

# In the order of the table: validation, site, runs; then any other script of bench/.
ORDER = (
    "validate_scale",
    "site_scale",
    "serve_edit",
    "noop_run",
    "seeds_batched",
    "sweep_speedup",
    "cluster_speedup",
    "train_throughput",
    "deep_lsa_step",
    "train_speed",
    "official_step",
    "accelerator_seeds",
    "paper_full_time",
    "ci_time",
)
HELPERS = {"all", "release", "report", "table"}  # modules of bench/ that are not benchmarks


def scripts() -> list[str]:
    """Every benchmark script in bench/, in the table's order."""
    found = {p.stem for p in HERE.glob("*.py")} - HELPERS
    return [n for n in ORDER if n in found] + sorted(found - set(ORDER))


SCRIPTS = tuple(scripts())


def main() -> int:
    """Runs the scripts, then prints the table; exit 1 when a script failed or a goal was missed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated script names (default: all)")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n] or list(SCRIPTS)
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        rows, unmeasured = [], []
        for name in names:
            print(f"\n==== bench/{name}.py", flush=True)
            where = table.machine()
            mine = Path(tmp) / f"{name}.jsonl"
            mine.touch()
            proc = subprocess.run([sys.executable, str(HERE / f"{name}.py"), "--json", str(mine)])
            got = report.load(str(mine))
            rows += got
            if got:
                table.store(name, got, where)
            why = report.not_measured_reason(str(mine))
            if why and not got and proc.returncode == 0:
                table.not_measured(name, why[0], where, why[1])  # this machine cannot: the table says so
                unmeasured.append(f"{name} ({why[0]})")
            elif proc.returncode != 0 or not got:
                failed.append(name)  # without rows, its earlier figures stay in the table
    table.write(list(SCRIPTS))
    print(f"\nwrote {table.TABLE.relative_to(HERE.parent)} and README.md's table")
    print("\n==== all figures (medians; each baseline measured in the same run)")
    print(report.format_rows(rows))
    missed = [r.bench for r in rows if r.met is False]
    if unmeasured:
        print(f"not measured on this machine: {', '.join(unmeasured)}")
    if failed:
        print(f"failed: {', '.join(failed)}")
    if missed:
        print(f"goals missed: {', '.join(missed)}")
    return 1 if failed or missed else 0


if __name__ == "__main__":
    sys.exit(main())
