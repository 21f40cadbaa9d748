"""The whole `paper_full` profile: what its stored results say it cost, against 90 minutes.

Reads, for every analysis of the registry with a `paper_full` profile (or
profiles named `paper_full_...`), the committed result `results/<analysis>/
<profile>.json` and adds up its stored wall times: the run that wrote it
(from its `started` time for `wall_time_s`: its own workers, whatever `--jobs`
it had; results one `litrec run` wrote together overlap in time, and each
moment is counted once, so one `litrec run --profile paper_full --jobs 2` counts
as its own wall time) and, for a run
split across sittings, each point it kept from an earlier one (`points[i].
wall_time_s` where `kept`; a point's own time, so two points that ran side by
side count twice: the sum can only overstate), and for a point whose training
the last run continued from a checkpoint, the training time of the earlier
sittings (its `timing` keeps the whole training's `seconds` and the steps of
the last sitting, `cpu_steps`: the rest is `seconds x (steps - cpu_steps) /
steps`). The goal is the whole profile
in at most 90 minutes on two cores; a profile without its result is listed as
missing, and the goal is then not met, whatever the sum says.

It adds up the CPU time of the trainings too (each `timing.<model>.cpu_seconds`;
a training continued from a checkpoint counted at its CPU time per step over all
its steps): over two cores, the least wall time the profile's trainings can take
on this machine, whatever the executor and the load.

It also checks the goal that every trained model records what its training
cost: a result whose analysis trains (its code includes `analysis/lib/train.py`)
must hold, at every point (every seed), a `timing` entry per trained model
with its steps and its wall and CPU time per step.

The wall times are those of the runs that made the results, on the machine and
under the load they had (each result's `platform`), which the script prints;
the CPU time per training step each result keeps (`timing`) depends less on
the load.

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

from litrec.analyses.contract import source_profiles  # noqa: E402
from litrec.analyses.registry import load_registry  # noqa: E402

GOAL_MIN = 90.0


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


def resumed_seconds(point: dict) -> float:
    """The training time a point's trainings spent in sittings before the one that finished
    them (0 for a training run in one go): each `timing` entry's share of `seconds` that
    the steps before the last sitting took."""
    timing = (point.get("metrics") or {}).get("timing")
    out = 0.0
    for t in (timing.values() if isinstance(timing, dict) else []):
        if not isinstance(t, dict):
            continue
        steps, last, seconds = t.get("steps"), t.get("cpu_steps"), t.get("seconds")
        if all(isinstance(v, (int, float)) for v in (steps, last, seconds)) and 0 <= last < steps:
            out += seconds * (steps - last) / steps
    return out


COST_FIELDS = ("steps", "ms_per_step", "cpu_ms_per_step")


def training_cost(result: dict) -> tuple[bool, list[str] | None]:
    """(whether the result's analysis trains, the models whose cost every point records, or None
    when a point lacks it)."""
    if "analysis/lib/train.py" not in (result.get("code_files") or {}):
        return False, []
    points = result.get("points") or [{"metrics": result.get("metrics")}]
    models: set[str] = set()
    for point in points:
        timing = (point.get("metrics") or {}).get("timing")
        if not isinstance(timing, dict) or not timing or not all(
                isinstance(t, dict) and all(isinstance(t.get(k), (int, float)) for k in COST_FIELDS)
                for t in timing.values()):
            return True, None
        models |= set(timing)
    return True, sorted(models)


def training_cpu(result: dict) -> float:
    """CPU seconds of every training the result records (`timing`), a training continued
    from a checkpoint counted whole (its CPU time per step over all its steps)."""
    points = result.get("points") or [{"metrics": result.get("metrics")}]
    out = 0.0
    for point in points:
        timing = (point.get("metrics") or {}).get("timing")
        for t in (timing.values() if isinstance(timing, dict) else []):
            if not isinstance(t, dict):
                continue
            cpu, steps, ran = t.get("cpu_seconds"), t.get("steps"), t.get("cpu_steps")
            if all(isinstance(v, (int, float)) for v in (cpu, steps, ran)) and ran > 0:
                out += cpu * steps / ran
    return out


def span(result: dict) -> tuple[float, float] | None:
    """(start, end) of the run that wrote the result, in seconds since the epoch; None when it
    does not say when it started."""
    from datetime import datetime

    try:
        start = datetime.fromisoformat(str(result["started"])).timestamp()
    except (KeyError, ValueError):
        return None
    return start, start + float(result.get("wall_time_s") or 0.0)


def covered(spans: list[tuple[float, float]]) -> float:
    """Seconds covered by the union of the spans: runs that overlapped count once."""
    total, end = 0.0, float("-inf")
    for a, b in sorted(spans):
        if b > end:
            total += b - max(a, end)
            end = b
    return total


def _earlier(result: dict) -> tuple[list, list[float]]:
    """The wall times of the points kept from earlier sittings, and the earlier sittings'
    training time of each point the run finished."""
    points = result.get("points") or []
    return ([p.get("wall_time_s") for p in points if p.get("kept")],
            [resumed_seconds(p) for p in points if not p.get("kept")])


def earlier_seconds(result: dict) -> float:
    """The wall time of earlier sittings: the points kept from them and the earlier sittings of
    the trainings the run continued."""
    return _seconds(*_earlier(result))


def _seconds(kept: list, resumed: list[float]) -> float:
    return sum(w for w in kept if isinstance(w, (int, float))) + sum(resumed)


def cost(result: dict) -> tuple[float, str]:
    """(seconds: the run's wall time, that of the points it kept from earlier sittings and the
    earlier sittings of the trainings it continued, how)."""
    kept, resumed = _earlier(result)
    run = float(result.get("wall_time_s") or 0.0)
    how = ["the last run"] if kept or any(resumed) else ["one run"]
    if kept:
        how.append(f"{len(kept)} point{'s' * (len(kept) != 1)} kept from earlier sittings")
    if any(resumed):
        n = sum(1 for r in resumed if r)
        how.append(f"earlier sittings of {n} training{'s' * (n != 1)} it continued")
    return run + _seconds(kept, resumed), " and ".join(how)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    report.add_json_argument(ap)
    args = report.parse(ap)
    total, missing, trained, recorded, cpu_total = 0.0, [], [], [], 0.0
    spans, unplaced = [], 0.0                   # runs with a start time; the others' wall time
    for name, profile in profiles(ROOT):
        path = ROOT / "results" / name / f"{profile}.json"
        try:
            result = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            missing.append(f"{name}/{profile}")
            print(f"{name:28} {profile:24} missing")
            continue
        seconds, how = cost(result)
        where = span(result)
        if where is None:
            unplaced += float(result.get("wall_time_s") or 0.0)
        else:
            spans.append(where)
        total += earlier_seconds(result)
        cpu = (result.get("platform") or {}).get("processor", "?")
        trains, models = training_cost(result)
        cpu_total += training_cpu(result)
        if trains:
            trained.append(f"{name}/{profile}")
            if models is not None:
                recorded.append(f"{name}/{profile}")
        says = ("" if not trains else f"; training cost of {', '.join(models)}" if models is not None
                else "; its training cost NOT recorded at every point")
        print(f"{name:28} {profile:24} {seconds / 60:7.1f} min ({how}; {cpu}{says})")
    total += covered(spans) + unplaced
    wall_min = total / 60
    print(f"whole paper_full: {wall_min:.1f} min of stored wall time (runs that overlapped counted once)"
          + (f"; missing: {', '.join(missing)}" if missing else ""))
    known = len(recorded) == len(trained) and not missing
    print(f"CPU time of the trainings the results record: {cpu_total / 60:.1f} min, so at least "
          f"{cpu_total / 120:.1f} min of wall time on two cores"
          + ("" if known else " (not every training records it: a lower bound)"))
    base = "goal 90 min" + (f"; {len(missing)} results missing" if missing else "")
    report.emit([report.Row("paper_full, every seed (stored wall times, overlaps once)", wall_min, "min",
                            base, GOAL_MIN, f"<= {GOAL_MIN:.0f} min, nothing missing",
                            wall_min <= GOAL_MIN and not missing),
                 report.Row("paper_full: its trainings' CPU time over two cores", cpu_total / 120, "min",
                            "stored wall times", wall_min, "(floor on two cores)"),
                 report.Row("paper_full results recording every trained model's cost", len(recorded),
                            "results", "results that train", len(trained),
                            "all (steps, wall and CPU ms per step)",
                            bool(trained) and len(recorded) == len(trained) and not missing)], args.json)


if __name__ == "__main__":
    main()
