"""`litrec run` and `litrec status`: rerun what is stale, judge every claim.

An analysis runs in this process: its module is imported from the project's
`analysis/` package (the name resolved through the registry, never a path from
a record), `run(PROFILES[profile], progress)` is called, and its metrics and
figures are written atomically with provenance. JAX is imported only when an
analysis actually runs, so a run with nothing stale returns at once.

An analysis that declares a SWEEP runs once per point (`litrec.sweep`); the
points go to worker processes or a dask cluster (`litrec.executors`, chosen by
`--executor`), and its result, written only once every point is back, holds
their mean, spread and each point. `--executor dask` sends single-point
analyses to the cluster too.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import json
import sys
import time
import traceback
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from litrec import __version__
from litrec.project import Project
from litrec.results import (Fingerprint, fingerprint, load_result, result_path,
                            write_result)
from litrec.sweep import (Point, SweepError, aggregate, load_analysis, make_config, plan,
                          run_point, to_json)
from litrec.report import console as make_console
from litrec.report import print_table, row
from litrec.verdicts import claim_statuses


class RunError(Exception):
    pass


# ---------------------------------------------------------------- targets


def resolve_targets(proj: Project, targets: list[str]) -> tuple[list[str], set[str] | None]:
    """Analysis names to consider and the claim refs to judge (None: all)."""
    from litrec.cli import UsageError

    reg = proj.registry
    names = sorted(reg.entries) if reg else []
    if not targets:
        used = {c.check.analysis for _, c in proj.claims() if c.check}
        used |= {d.analysis for r in proj.records.values()
                 for d in getattr(r, "discrepancies", []) or [] if d.analysis}
        return [n for n in names if n in used], None
    chosen: list[str] = []
    claims: set[str] = set()
    for t in targets:
        if "#" in t:
            found = proj.claim(t)
            if found is None or found[1].check is None:
                all_refs = [f"{r.id}#{c.id}" for r, c in proj.claims()]
                close = difflib.get_close_matches(t, all_refs, n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                raise UsageError(f"no checked claim '{t}'{hint}")
            chosen.append(found[1].check.analysis)
            claims.add(t)
        elif t in proj.records:
            rec = proj.records[t]
            for c in getattr(rec, "claims", []) or []:
                if c.check:
                    chosen.append(c.check.analysis)
                    claims.add(f"{t}#{c.id}")
            for d in getattr(rec, "discrepancies", []) or []:
                if d.analysis:
                    chosen.append(d.analysis)
        elif t in names:
            chosen.append(t)
            claims |= {f"{r.id}#{c.id}" for r, c in proj.claims()
                       if c.check and c.check.analysis == t}
        else:
            close = difflib.get_close_matches(t, names + sorted(proj.records), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise UsageError(f"'{t}' is not a claim ref, record id or analysis name{hint}")
    seen: list[str] = []
    for n in chosen:
        if n not in seen:
            seen.append(n)
    return seen, claims


# ---------------------------------------------------------------- running


@dataclasses.dataclass
class Job:
    """One analysis to run: its fingerprint, its points and, once sent, their futures."""

    name: str
    title: str
    profile: str
    module: str
    fp: Fingerprint
    config: Any
    sweep: dict[str, list] | None
    points: list[Point]
    futures: list | None = None
    started: dt.datetime | None = None
    t0: float = 0.0


def prepare(proj: Project, name: str, profile: str) -> Job:
    """Import the analysis here (no work happens at import) and lay out its points."""
    reg = proj.registry
    entry = reg.entries[name]
    fp = fingerprint(reg, name, profile)
    root = str(reg.path.parent.parent.resolve())
    package = reg.path.parent.name
    try:
        module, _ = load_analysis(root, package, entry.module)
        sweep, grid = plan(module, profile)
    except SweepError as exc:
        raise RunError(f"analysis '{name}': {exc}") from None
    points = [Point(root, package, entry.module, profile, overrides, fp.files, fp.versions,
                    figures=i == 0) for i, overrides in enumerate(grid)]
    return Job(name, entry.title, profile, module.__name__, fp,
               make_config(module, profile, {}), sweep, points)


def submit(job: Job, executor) -> None:
    job.started, job.t0 = dt.datetime.now(dt.timezone.utc), time.perf_counter()
    job.futures = [executor.submit(run_point, p) for p in job.points]


class PointFailed(Exception):
    """A point of a sweep failed; says which."""


def _outputs(job: Job, executor, progress) -> list[dict]:
    """Every point's output, in grid order; in this process unless the job was submitted."""
    n = len(job.points)
    if job.futures is None:
        job.started, job.t0 = dt.datetime.now(dt.timezone.utc), time.perf_counter()
        outs = []
        for i, point in enumerate(job.points):
            try:
                outs.append(run_point(point, progress if n == 1 else None))
            except Exception as exc:
                if n == 1:
                    raise
                raise PointFailed(f"{type(exc).__name__}: {exc} (point {_point(point)})") from exc
            if progress and n > 1:
                progress(i + 1, n, f"{i + 1}/{n} points")
        return outs
    index = {f: i for i, f in enumerate(job.futures)}
    done: dict[int, dict] = {}
    try:
        for fut in executor.as_completed(job.futures):
            i = index[fut]
            try:
                done[i] = fut.result()
            except BrokenProcessPool as exc:
                raise PointFailed("a worker process died (killed, or out of memory); the local "
                                  "executor does not retry: rerun, or use --executor dask, "
                                  "which does") from exc
            except Exception as exc:
                if n == 1:
                    raise
                raise PointFailed(f"{type(exc).__name__}: {exc} (point {_point(job.points[i])})") from exc
            if progress:
                progress(len(done), n, f"{len(done)}/{n} points" if n > 1 else "")
    finally:
        executor.cancel(job.futures)  # frees the workers when a point failed
        job.futures = None
    return [done[i] for i in range(n)]


def _point(point: Point) -> str:
    return " ".join(f"{k}={v!r}" for k, v in point.overrides.items())


def finish(job: Job, results_dir: Path, executor=None, progress=None) -> dict:
    """Wait for (or run) every point, then write the result; a failed point writes nothing."""
    outs = _outputs(job, executor, progress)
    first = outs[0]
    # one point: the analysis's own run time, as always; a sweep: first point sent to last back
    wall = first["wall_time_s"] if job.sweep is None else time.perf_counter() - job.t0
    cfg = to_json(dataclasses.asdict(job.config) if dataclasses.is_dataclass(job.config)
                  else dict(vars(job.config)))
    seed = cfg.get("seed")
    metrics, spread, notes = first["metrics"], None, first["notes"]
    if job.sweep is not None:
        metrics, spread, agg_notes = aggregate([o["metrics"] for o in outs])
        notes = list(dict.fromkeys([n for o in outs for n in o["notes"]] + agg_notes))
        if "seed" in job.sweep:
            seed = to_json(job.sweep["seed"])
    payload = {
        "format": 1,
        "analysis": job.name,
        "title": job.title,
        "profile": job.profile,
        "module": job.module,
        "code_hash": job.fp.code_hash,
        "code_files": job.fp.files,
        "versions": job.fp.versions,
        "litrec": __version__,
        "platform": first["platform"],
        "device": first["device"],
        "config": cfg,
        **({"sweep": to_json(job.sweep)} if job.sweep is not None else {}),
        "seed": seed,
        "started": job.started.isoformat(timespec="seconds"),
        "wall_time_s": round(wall, 3),
        "metrics": metrics,
        **({"spread": spread,
            "points": [{"overrides": to_json(p.overrides), "metrics": o["metrics"]}
                       for p, o in zip(job.points, outs)]} if job.sweep is not None else {}),
        "figures": {name: f"{job.profile}/{name}.svg" for name in first["figures"]},
        "notes": notes,
    }
    figures = {f"{name}.svg": data for name, data in first["figures"].items()}
    write_result(results_dir, job.name, job.profile, payload, figures)
    return payload


def run_analysis(proj: Project, name: str, profile: str, results_dir: Path,
                 progress=None, executor=None) -> dict:
    """Run one analysis (its points on `executor`, or here) and write its result."""
    job = prepare(proj, name, profile)
    if executor is not None:
        submit(job, executor)
    return finish(job, results_dir, executor, progress)


def cmd_run(args) -> int:
    from litrec.cli import UsageError, load_valid_project

    if getattr(args, "scheduler", None) and args.executor != "dask":
        raise UsageError("--scheduler names a dask scheduler; add --executor dask")
    if getattr(args, "scheduler", None) and args.jobs:
        raise UsageError("--jobs sizes the executor litrec starts; a cluster at --scheduler "
                         "has the workers it was given")
    proj = load_valid_project(args)
    if proj is None:
        return 1
    names, only = resolve_targets(proj, args.targets)
    todo, current = [], []
    for name in names:
        result = load_result(args.results, name, args.profile)
        fp = fingerprint(proj.registry, name, args.profile)
        if result is not None and fp.matches(result) and not args.force:
            current.append(name)
        else:
            why = "forced" if result is not None and fp.matches(result) else (
                "no result" if result is None else fp.why_stale(result))
            todo.append((name, why))
    failed = []
    if todo:
        failed = _run_all(proj, todo, args)
    statuses = claim_statuses(proj, args.results, args.profile, only)
    if args.format == "json":
        print(json.dumps({
            "profile": args.profile,
            "ran": [n for n, _ in todo if n not in failed],
            "current": current,
            "failed": failed,
            "claims": [row(s) for s in statuses],
        }, indent=2, default=str))
    else:
        if not todo:
            print(f"nothing to run: {len(current)} analyses current for profile '{args.profile}'",
                  file=sys.stderr)
        print_table(statuses)
    bad = [s for s in statuses if s.verdict == "error"
           or (s.verdict == "not_reproduced" and not args.allow_not_reproduced)]
    return 1 if bad or failed else 0


def _run_all(proj: Project, todo: list[tuple[str, str]], args) -> list[str]:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from litrec.cli import UsageError
    from litrec.executors import ExecutorError, default_jobs, open_executor

    console = make_console(stderr=True)
    failed: list[str] = []

    def fail(name: str, exc: Exception) -> None:
        failed.append(name)
        log = result_path(args.results, name, args.profile).with_suffix(".error.log")
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(traceback.format_exc(), encoding="utf-8")
        what = str(exc) if isinstance(exc, PointFailed) else f"{type(exc).__name__}: {exc}"
        console.print(f"[red]analysis {name} failed: {what} "
                      f"(traceback in {log}); its previous result is kept")

    jobs: dict[str, Job] = {}
    for name, _ in todo:
        try:
            jobs[name] = prepare(proj, name, args.profile)
        except Exception as exc:  # a bad profile or SWEEP: say so, go on
            fail(name, exc)
    kind = getattr(args, "executor", "local")
    n_jobs = getattr(args, "jobs", None) or default_jobs()
    # dask: every point goes to the cluster; local: sweeps go to worker processes
    # when there is more than one job, and a single point runs here as it always did.
    sent = [j for j in jobs.values()
            if kind == "dask" or (len(j.points) > 1 and n_jobs > 1)]
    executor = None
    try:
        if sent:
            n_points = sum(len(j.points) for j in sent)
            try:
                executor = open_executor(kind, min(n_jobs, n_points), getattr(args, "scheduler", None))
            except ExecutorError as exc:
                raise UsageError(str(exc)) from None
            console.print(f"{n_points} points of {len(sent)} "
                          f"analys{'is' if len(sent) == 1 else 'es'} to {executor.describe()}")
            for job in sent:
                submit(job, executor)
        with Progress(TextColumn("{task.description}"), BarColumn(),
                      TextColumn("{task.percentage:>3.0f}%"), TimeElapsedColumn(),
                      console=console, transient=False, disable=args.format == "json") as bar:
            for name, why in todo:
                if name not in jobs:
                    continue
                job = jobs[name]
                task = bar.add_task(f"{name} [{args.profile}]", total=1.0)

                def progress(done, total, description="", _task=task, _name=name):
                    bar.update(_task, completed=done / max(total, 1),
                               description=f"{_name} [{args.profile}] {description}".rstrip())

                points = f" ({len(job.points)} points)" if len(job.points) > 1 else ""
                console.print(f"running {name} ({args.profile}): {why}{points}")
                try:
                    payload = finish(job, args.results, executor, progress)
                except KeyboardInterrupt:
                    console.print(f"[red]interrupted: {name}; its previous result is kept")
                    raise
                except Exception as exc:  # an analysis bug: say so, keep the old result, go on
                    fail(name, exc)
                    continue
                bar.update(task, completed=1.0)
                console.print(f"  {name}: {payload['wall_time_s']:.1f} s")
    except KeyboardInterrupt:
        if executor is not None:
            executor.close(wait=False)
            executor = None
        raise
    finally:
        if executor is not None:
            executor.close()
    return failed
