"""Running analyses: choose what to run, run each point, write each result whole.

An analysis of one point runs in this process: its module is imported from
the project's `analysis/` package (the name resolved through the registry,
never a path from a record), `run(PROFILES[profile], progress)` is called, and
its metrics and figures are written atomically with provenance. JAX is
imported only when an analysis actually runs, so a run with nothing stale
returns at once; where the points go to workers, a worker lays the analysis
out (`litrec.runs.points`) and this process never imports it.

An analysis that declares a SWEEP runs once per point (`litrec.runs.sweep`); the
points go to worker processes or a dask cluster (`litrec.runs.executors`, chosen by
`--executor`), and its result, written only once every point is back, holds
their mean, spread and each point. `--executor dask` sends single-point
analyses to the cluster too. An analysis with `run_seeds` takes a profile's
SEEDS in one call per point of its other fields (on workers, a group of seeds
per worker); its outputs are stored as one point per seed, as if alone.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from litrec import __version__
from litrec.analyses.inputs import RESULT_FORMAT, Inputs
from litrec.records.project import Project
from litrec.results import ledger, resume
from litrec.results.seal import seal
from litrec.results.signing import unsign
from litrec.results.store import keep_elsewhere, result_path, write_result
from litrec.runs import interrupt, sandbox
from litrec.runs.options import RunOptions
from litrec.runs.points import Layout, Spec, draw_seed_figures, layout, spec_of
from litrec.runs.sweep import Point, aggregate, run_point, to_json
from litrec.util import git
from litrec.util.errors import ResultsUnwritable
from litrec.verdicts import stats
from litrec.verdicts.stored import expectation_record

if TYPE_CHECKING:  # the executors' machinery is imported only once a point is sent
    from litrec.runs.executors import Executor

# ---------------------------------------------------------------- running


@dataclasses.dataclass
class Job:
    """One analysis to run: its inputs, its points and, once sent, their futures."""

    name: str
    title: str
    profile: str
    module: str
    fp: Inputs
    config: dict[str, Any]          # the profile's configuration, as JSON
    sweep: dict[str, list] | None
    points: list[Point]
    grid: list[dict]                # the stored points' overrides, in order
    expectations: dict[str, dict] = dataclasses.field(default_factory=dict)
    seed_figures: Spec | None = None  # the analysis draws figures over the seeds
    git: dict | None = None         # the commit checked out (git.commit_of), None outside git
    futures: list | None = None
    keys: list[str] = dataclasses.field(default_factory=list)  # each point's input key (litrec.results.resume)
    partials: Path | None = None    # results folder whose <profile>.partial/ keeps finished points
    kept: dict[int, dict] = dataclasses.field(default_factory=dict)  # points kept from an earlier run
    started: dt.datetime | None = None
    t0: float = 0.0


def prepare(proj: Project, name: str, fp: Inputs, options: RunOptions,
            lay: Layout | None = None, workers: int = 1) -> Job:
    """A job of the analysis's points at the run's profile, from its layout (`lay`, from a
    worker; else worked out here, importing the analysis: no work happens at import).

    The seeds of an analysis with `run_seeds` go to it in one call per point of its
    other SWEEP fields; with `workers` > 1 (its points go to that many workers), they are
    split into that many groups, one call each, so every worker trains some of them.

    Each point gets its input key and, unless `options.force` (`--force`), a folder under the
    run's results folder for its training checkpoints (`litrec.results.resume`); with `force`,
    the folder is emptied. `options.compile_cache` False: its points run without JAX's
    compile cache.
    """
    profile, results_dir = options.chosen_profile, Path(options.results)
    spec = spec_of(proj, name, profile)
    lay = lay if lay is not None else layout(spec)
    why = sandbox.refused(options.executor.kind)  # dask's workers, LITREC_SANDBOX=off: the audit hook alone
    grid, seeds = lay.grid, lay.n_seeds
    common = (spec.root, spec.package, spec.module, profile)
    if lay.batched and lay.sweep is not None:  # SEEDS make it a sweep, seed-major: the seeds first
        rest = [{k: v for k, v in o.items() if k != "seed"} for o in grid[:len(grid) // seeds]]
        seed_list, n = tuple(lay.sweep["seed"]), min(max(workers, 1), seeds)
        groups = [seed_list[seeds * g // n: seeds * (g + 1) // n] for g in range(n)]
        points = [Point(*common, o, fp.files, fp.versions, figures=g == i == 0, seeds=group,
                        compile_cache=options.compile_cache, inputs=fp.record(), deps=fp.deps, no_sandbox=why)
                  for g, group in enumerate(groups) for i, o in enumerate(rest)]
    else:
        points = [Point(*common, overrides, fp.files, fp.versions, figures=i == 0,
                        compile_cache=options.compile_cache, inputs=fp.record(), deps=fp.deps, no_sandbox=why)
                  for i, overrides in enumerate(grid)]
    expectations = {f"{rec.id}#{claim.id}": expectation_record(claim.check.expect, profile)
                    for rec, claim in proj.claims()
                    if claim.check is not None and claim.check.analysis == name}
    every = {**fp.versions, "(every input)": fp.key()}  # data, environment, instruction set too
    keys = [resume.point_key(lay.module, profile, lay.config, p.overrides, p.seeds, fp.files, every)
            for p in points]
    folders = [resume.checkpoint_dir(results_dir, name, profile, key) for key in keys]
    if options.force:
        for folder in filter(None, folders):
            shutil.rmtree(folder, ignore_errors=True)
    points = [dataclasses.replace(p, checkpoints=folder) for p, folder in zip(points, folders)]
    return Job(name, proj.registry.entries[name].title, profile, lay.module, fp, lay.config,
               lay.sweep, points, grid, expectations, spec if lay.seed_figures else None,
               git.commit_of(proj.records_dir.parent), keys=keys)


def keep_partials(job: Job, results_dir: Path) -> None:
    """Let a sweep keep its finished points (one per seed) as sealed partial results, and take
    those an interrupted run of the same inputs kept (`litrec.results.resume`)."""
    if len(job.points) < 2 or job.points[0].seeds is not None:
        return  # one point, or seeds in groups: nothing finishes on its own
    job.partials = Path(results_dir)
    for i, (point, key) in enumerate(zip(job.points, job.keys)):
        out = resume.kept(results_dir, job.name, job.profile, point.overrides, key)
        if out is not None:
            job.kept[i] = out


def mark_started(job: Job, results_dir: Path) -> None:
    """Say in the run's partial folder which inputs it computes from and the keys of its points
    (`resume.mark`): `litrec status` then tells its kept points and checkpoints for a rerun of
    the present inputs, under way, while the run goes on over several sessions."""
    resume.mark(results_dir, job.name, job.profile, job.fp.header(), job.keys)


def unmark_failed(job: Job, results_dir: Path) -> None:
    """A job that failed takes back its marker where it did nothing (`resume.unmark`)."""
    resume.unmark(results_dir, job.name, job.profile)


def _keep(job: Job, i: int, out: dict | list[dict]) -> None:
    if job.partials is None or isinstance(out, list):
        return  # kept only where each point is one output (`keep_partials`)
    try:
        resume.keep(job.partials, job.name, job.profile, job.points[i].overrides, job.keys[i], out)
    except OSError:
        return  # not kept: a rerun computes the point again, and the run goes on
    folder = job.points[i].checkpoints
    if folder:  # the point is kept whole: its trainings' states are done with
        shutil.rmtree(folder, ignore_errors=True)


def submit(job: Job, executor: Executor) -> None:
    """Send every point of a job to the executor, as one group: the local executor starts
    the job's other points once its first is back (`litrec.runs.leads`)."""
    job.started, job.t0 = dt.datetime.now(dt.UTC), time.perf_counter()
    job.futures = [executor.submit(run_point, p, group=job.name)
                   for i, p in enumerate(job.points) if i not in job.kept]


class PointFailed(Exception):
    """A point of a sweep failed; says which."""


def _outputs(job: Job, executor: Executor | None, progress) -> list[dict | list[dict]]:
    """Every point's output (a list of them where the point took a group of seeds), in grid
    order; in this process unless the job was submitted."""
    n = len(job.points)
    if job.futures is None:
        job.started, job.t0 = dt.datetime.now(dt.UTC), time.perf_counter()
        outs: list[dict | list[dict]] = []
        for i, point in enumerate(job.points):
            if i in job.kept:
                outs.append(job.kept[i])
                continue
            try:
                outs.append(run_point(point, progress if n == 1 else None))
                _keep(job, i, outs[-1])
            except Exception as exc:
                if n == 1:
                    raise
                raise PointFailed(f"{type(exc).__name__}: {exc} (point {_point(point)})") from exc
            if progress and n > 1:
                progress(i + 1, n, f"{i + 1}/{n} points")
        return outs
    from concurrent.futures.process import BrokenProcessPool  # imported once a point is sent

    assert executor is not None, "a job's futures come from the executor it was sent to"
    index = dict(zip(job.futures, [i for i in range(n) if i not in job.kept]))
    done: dict[int, dict | list[dict]] = dict(job.kept)
    try:
        for fut in executor.as_completed(job.futures):
            i = index[fut]
            try:
                done[i] = fut.result()
                _keep(job, i, done[i])
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
    seeds = {} if point.seeds is None else {"seeds": list(point.seeds)}
    return " ".join(f"{k}={v!r}" for k, v in {**point.overrides, **seeds}.items())


def _per_seed(job: Job, outs: list) -> list[dict]:
    """One output per stored point, in grid order (seed-major): the lists of the points that
    took a group of seeds each (group-major, then the other SWEEP fields) spread out."""
    if job.points[0].seeds is None or job.sweep is None:  # (groups of seeds: SEEDS, so a sweep)
        return outs
    m = len(job.grid) // len(job.sweep["seed"])           # points of the other SWEEP fields
    at = []                                               # seed position -> (group, index in it)
    for g in range(len(job.points) // m):
        at += [(g, k) for k in range(len(job.points[g * m].seeds or ()))]
    return [outs[at[i // m][0] * m + i % m][at[i // m][1]] for i in range(len(job.grid))]


def _point_time(out: dict, kept: bool) -> dict:
    """A point's own wall time (seeds trained in one call share their call's), and whether it was
    kept from an interrupted run: what the whole profile cost, summed over sittings."""
    wall = out.get("wall_time_s")
    where = out.get("sitting") if kept else None
    return {**({"wall_time_s": round(wall, 3)} if isinstance(wall, (int, float)) else {}),
            **({"kept": where if isinstance(where, dict) else True} if kept else {})}


def finish(job: Job, results_dir: Path, executor: Executor | None = None, progress=None) -> dict:
    """Wait for (or run) every point, then write the result; a failed point writes nothing."""
    sent = job.futures is not None
    outs = _per_seed(job, _outputs(job, executor, progress))
    assert job.started is not None  # set as the points were sent or run
    first = outs[0]
    # one point: the analysis's own run time, as always; a sweep: first point sent to last back
    wall = first["wall_time_s"] if job.sweep is None else time.perf_counter() - job.t0
    cfg = job.config
    seed = cfg.get("seed")
    metrics, spread, notes = first["metrics"], None, first["notes"]
    noise = first.get("noise") or {}
    figures = {f"{name}.svg": data for name, data in first["figures"].items()}
    if job.sweep is not None:
        metrics, spread, agg_notes = aggregate([o["metrics"] for o in outs])
        notes = list(dict.fromkeys([n for o in outs for n in o["notes"]] + agg_notes))
        noise = stats.mean_noise([o.get("noise") or {} for o in outs])
        if "seed" in job.sweep:
            seed = to_json(job.sweep["seed"])
        if job.kept:
            notes.append(f"{len(job.kept)} of {len(outs)} points were kept from an interrupted run "
                         "of the same inputs (litrec.results.resume): "
                         + "; ".join(resume.sitting_words(job.grid[i], job.kept[i].get("sitting"))
                                  for i in sorted(job.kept)))
    why = next((o.get("not_hermetic") or "ran before litrec sandboxed points" for o in outs
                if o.get("hermetic") is not True), None)
    if why is not None:
        notes = [*notes, f"not hermetic on this machine: {why}; the audit hook alone watched what it read"]
    if job.seed_figures is not None:  # where the points ran, ahead of those still queued: this
        # process need not import it, and the result is written before other analyses' points end
        draw = (job.seed_figures, [{"seed": p.get("seed"), "metrics": o["metrics"]}
                                   for p, o in zip(job.grid, outs)])
        drawn = (executor.submit_first(draw_seed_figures, draw).result() if sent and executor is not None
                 else draw_seed_figures(draw))
        figures.update({f"{name}.svg": data for name, data in drawn.items()})
    payload = {
        "format": RESULT_FORMAT,
        "analysis": job.name,
        "title": job.title,
        "profile": job.profile,
        "module": job.module,
        "code_hash": job.fp.code_hash,
        "code_files": job.fp.files,
        "versions": job.fp.versions,
        "dependencies": job.fp.deps,
        "inputs": job.fp.record(),
        "litrec": __version__,
        **({"git": job.git} if job.git else {}),
        **({"history": f"{job.profile}{ledger.SUFFIX}",
            "ledger": ledger.anchor(results_dir, job.name, job.profile)} if job.expectations else {}),
        "platform": first["platform"],
        "device": first["device"],
        "hermetic": all(o.get("hermetic") is True for o in outs),  # each point in a sandbox of its inputs
        "config": cfg,
        **({"sweep": to_json(job.sweep)} if job.sweep is not None else {}),
        "seed": seed,
        **({"seeds": to_json(job.sweep["seed"])} if job.sweep and "seed" in job.sweep else {}),
        "started": job.started.isoformat(timespec="seconds"),
        "wall_time_s": round(wall, 3),
        "metrics": metrics,
        **({"noise": noise} if noise else {}),
        **({"spread": spread,
            "points": [{"overrides": to_json(p), "metrics": o["metrics"],
                        **({"noise": o["noise"]} if o.get("noise") else {}),
                        **_point_time(o, i in job.kept)}
                       for i, (p, o) in enumerate(zip(job.grid, outs))]} if job.sweep is not None else {}),
        "figures": {name[:-4]: f"{job.profile}/{name}" for name in figures},
        "notes": notes,
        "expectations": job.expectations,
    }
    job.fp.check_unchanged(job.points[0], job.name)  # its root, package and module
    payload = seal(payload, figures, default=to_json)
    try:
        with interrupt.deferred():  # a Ctrl-C waits until the result is written whole
            write_result(results_dir, job.name, job.profile, payload, figures)
            unsign(result_path(results_dir, job.name, job.profile))  # it signed the old one
            resume.drop(results_dir, job.name, job.profile)  # finished points and checkpoints
    except OSError as exc:
        folder = result_path(results_dir, job.name, job.profile).parent
        try:
            kept = f"what was computed is kept in {keep_elsewhere(job.name, job.profile, payload, figures)}"
        except OSError as again:
            kept = f"nor could it be kept in a temporary folder ({again.strerror or again})"
        raise ResultsUnwritable(f"cannot write the result to '{folder}' ({exc.strerror or exc}); "
                                f"{kept}") from None
    return payload
