"""`make bench`: runs every benchmark in bench/ and prints their figures in one table.

Each script runs as its own process (its detail goes to the terminal as it
runs) with `--json` pointing at a temporary file; the rows they append there
are printed together at the end: each figure's median beside the baseline
measured in the same run, the ratio, and the goal with whether it was met.
The rows are also stored in bench/results.json (a script's replace its earlier
ones; `--only` measures some scripts and keeps the others' figures) and
rendered into site/bench-table.md and README.md, the one table the docs include
(`bench/table.py`).

`--smoke` runs each script's smoke run instead (seconds at tiny sizes: that it
still works, as tests/bench does in CI): its figures are printed, never stored
in bench/results.json. `--results PATH` stores the rows in PATH instead of
bench/results.json (and leaves the docs' table as it is): a busy machine's or a
smoke run's figures, kept apart.

    python bench/all.py [--only validate_scale,noop_run] [--smoke] [--results PATH]
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

HELPERS, SCRIPTS = report.HELPERS, report.SCRIPTS  # the benchmarks, in the table's order


def main() -> int:
    """Runs the scripts, then prints the table; exit 1 when a script failed or a goal was missed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated script names (default: all)")
    ap.add_argument("--smoke", action="store_true",
                    help="each script's smoke run (seconds, tiny sizes); nothing stored unless --results")
    ap.add_argument("--results", type=Path, default=None, metavar="PATH",
                    help="store the rows in PATH, not bench/results.json (the docs' table unchanged)")
    args = ap.parse_args()
    unknown = [n for n in args.only.split(",") if n and n not in SCRIPTS]
    if unknown:
        ap.error(f"no script bench/{unknown[0]}.py; one of {', '.join(SCRIPTS)}")
    keep = args.results or (None if args.smoke else table.RESULTS)  # where the rows go, if anywhere
    names = [n for n in args.only.split(",") if n] or list(SCRIPTS)
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        rows, unmeasured = [], []
        for name in names:
            print(f"\n==== bench/{name}.py", flush=True)
            where = table.machine()
            mine = Path(tmp) / f"{name}.jsonl"
            mine.touch()
            proc = subprocess.run([sys.executable, str(HERE / f"{name}.py"), "--json", str(mine),
                                   *(["--smoke"] if args.smoke else [])])
            got = report.load(str(mine))
            rows += got
            if got and keep:
                table.store(name, got, where, keep)
            why = report.not_measured_reason(str(mine))
            if why and not got and proc.returncode == 0:
                if keep:  # this machine cannot: the table says so
                    table.not_measured(name, why[0], where, why[1], keep)
                unmeasured.append(f"{name} ({why[0]})")
            elif proc.returncode != 0 or not got:
                failed.append(name)  # without rows, its earlier figures stay in the table
    if keep is not None and keep.resolve() == table.RESULTS:
        table.write(list(SCRIPTS))
        print(f"\nwrote {table.TABLE.relative_to(HERE.parent)} and README.md's table")
    elif keep:
        print(f"\nstored the rows in {keep} (bench/results.json and the docs' table unchanged)")
    print("\n==== all figures (medians; each baseline measured in the same run)"
          + (": smoke runs, tiny sizes, no goal means anything" if args.smoke else ""))
    print(report.format_rows(rows))
    missed = [r.bench for r in rows if r.met is False]
    if unmeasured:
        print(f"not measured on this machine: {', '.join(unmeasured)}")
    if failed:
        print(f"failed: {', '.join(failed)}")
    if missed:
        print(f"goals missed: {', '.join(missed)}")
    return 1 if failed or (missed and not args.smoke) else 0


if __name__ == "__main__":
    sys.exit(main())
