"""The whole `paper_full` profile: what its stored results say it cost, against 90 minutes.

Reads, for every analysis of the registry with a `paper_full` profile (or
profiles named `paper_full_...`), the committed result `results/<analysis>/
<profile>.json` and adds up the wall time of its points: each point's own
`wall_time_s` where the result keeps it (a run split across sittings keeps
every point's, those kept from an interrupted run too), else the run's whole
`wall_time_s`. The figure is the time of the whole profile on two cores with
two points at a time, the sum of the points' wall times over 2 (a run that
kept only its own wall time counts with it as it was, its own workers
included); goal: at most 90 minutes. A profile without its result is listed
as missing, and the figure is then not met, whatever it says.

The wall times are those of the runs that made the results, on the machine
and under the load they had (each result's `platform`); the script prints
both, and the training's own CPU time per step where the result keeps it
(`timing`), which the load changes less.

    python bench/paper_full_time.py [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import report  # noqa: E402
from litrec.runs.contract import source_profiles  # noqa: E402
from litrec.runs.registry import load_registry  # noqa: E402

GOAL_MIN = 90.0
CORES = 2


def profiles(root: Path) -> list[tuple[str, str]]:
    """(analysis, profile) for every paper_full profile of the registry's analyses."""
    reg = load_registry(root / "analysis", [])
    out = []
    for name in sorted(reg.entries):
        path = reg.module_path(name)
        try:
            names = source_profiles(path.read_text(encoding="utf-8")) or frozenset()
        except OSError:
            continue
        out += [(name, p) for p in sorted(names) if p == "paper_full" or p.startswith("paper_full_")]
    return out


def cost(result: dict) -> tuple[float, str]:
    """(seconds on one core's share: the points' wall times summed, or the run's, times CORES
    when only the run's is kept), how it was counted."""
    points = result.get("points") or []
    walls = [p.get("wall_time_s") for p in points]
    if points and all(isinstance(w, (int, float)) for w in walls):
        return float(sum(walls)), f"{len(points)} points' own wall times"
    return float(result.get("wall_time_s") or 0.0) * CORES, "the run's wall time (its own workers)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    report.add_json_argument(ap)
    args = ap.parse_args()
    total, missing = 0.0, []
    for name, profile in profiles(ROOT):
        path = ROOT / "results" / name / f"{profile}.json"
        try:
            result = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            missing.append(f"{name}/{profile}")
            print(f"{name:28} {profile:24} missing")
            continue
        seconds, how = cost(result)
        total += seconds
        cpu = (result.get("platform") or {}).get("processor", "?")
        print(f"{name:28} {profile:24} {seconds / 60:7.1f} point-minutes ({how}; {cpu})")
    wall_min = total / CORES / 60
    print(f"whole paper_full on {CORES} cores: {wall_min:.1f} min"
          + (f"; missing: {', '.join(missing)}" if missing else ""))
    base = "goal 90 min" + (f"; {len(missing)} results missing" if missing else "")
    report.emit([report.Row("paper_full, every seed, on 2 cores (stored wall times)", wall_min, "min",
                            base, GOAL_MIN, f"<= {GOAL_MIN:.0f} min, nothing missing",
                            wall_min <= GOAL_MIN and not missing)], args.json)


if __name__ == "__main__":
    main()
