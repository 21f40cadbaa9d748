"""Sweeps: one analysis run over a grid of settings, each point an independent task.

An analysis module may declare, per profile, the `Config` fields to vary:

    SWEEP = {"quick": {"seed": [0, 1, 2]}, "paper": {"seed": [0, 1, 2, 3, 4], "N": [10, 20]}}

The points are the product of the lists, in the order written; each runs
`run(dataclasses.replace(PROFILES[profile], **point))`. A module without SWEEP
(or without an entry for the profile) has one point: the profile itself.

A point runs through `run_point`, a top-level function that an executor ships
to another process or machine. It imports the analysis by its registry module
name (never a path from a record), compiling each module from the source whose
hash the run's inputs hold (`litrec.analyses.inputs`), and checks that the worker has the
same packages, interpreter, numerics environment and instruction set, and the
same declared data before and after the run: a result is never labelled with
inputs it was not computed from.

The stored result aggregates the points: every numeric metric is the mean over
points (lists element-wise, booleans: all true), `spread` holds each numeric
metric's {std, min, max, n} (sample std), and `points` each point's overrides
and metrics, so expectations are judged on the aggregate.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import io
import itertools
import socket
import sys
import time
from pathlib import Path
from typing import Any

from litrec.analyses.analysisimport import compiled_sources, expecting, load_analysis
from litrec.analyses.contract import check_module, check_output, check_seed_outputs
from litrec.analyses.datafiles import data_files
from litrec.analyses.environ import cleaned
from litrec.analyses.inputs import interpreter, machine_cores, machine_isa
from litrec.analyses.machine import device_info, platform_info
from litrec.analyses.numerics import numeric_env
from litrec.analyses.observe import check as check_observed
from litrec.analyses.observe import named_when_it_fails, observing
from litrec.analyses.packages import dependency_versions, editable_places, package_versions
from litrec.cache.jaxcache import compile_cache
from litrec.results.resume import checkpoint_env
from litrec.runs import interrupt, sandbox
from litrec.util.errors import AnalysisExited, InputsChanged, SweepError
from litrec.verdicts import stats


@dataclasses.dataclass(frozen=True)
class Point:
    """Everything a worker needs to run one point; small and picklable."""

    root: str                       # the project folder holding the analysis package
    package: str                    # the analysis package's name, e.g. "analysis"
    module: str                     # the registry's module name inside it, e.g. "prop1_identity"
    profile: str
    overrides: dict[str, Any]
    code_files: dict[str, str] | None = None   # the code the run hashed; None: no check
    versions: dict[str, str | None] | None = None
    figures: bool = True            # render figures (only the first point's are kept)
    seeds: tuple[int, ...] | None = None  # all these seeds in one run_seeds call: one output each
    compile_cache: bool = True      # JAX's compile cache in root/.litrec-cache/jax (litrec.cache.jaxcache)
    inputs: dict | None = None      # the rest of the run's inputs (`Inputs.record`); None: no check
    checkpoints: str | None = None  # the folder its trainings keep checkpoints in (litrec.results.resume)
    deps: dict[str, str | None] | None = None  # the run's `Inputs.deps`; None: no check
    no_sandbox: str | None = sandbox.NOT_ASKED  # why not in a sandbox; None: one where the machine has it


# ---------------------------------------------------------------- conversion


def to_json(value: Any) -> Any:
    """Metrics to plain JSON: arrays to lists, scalars to Python numbers, NaN to None."""
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if hasattr(value, "tolist"):
        return to_json(value.tolist())
    if isinstance(value, float) and value != value:
        return None
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return str(value)


def config_json(config: Any) -> Any:
    """A configuration as plain JSON: a dataclass's fields, else the object's attributes."""
    if dataclasses.is_dataclass(config) and not isinstance(config, type):
        return to_json(dataclasses.asdict(config))
    return to_json(dict(vars(config)))


def svg_bytes(fig) -> bytes:
    """A matplotlib figure as SVG, byte-identical from run to run; the figure is closed."""
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    with plt.rc_context({"svg.hashsalt": "litrec"}):  # fixed ids: no random salt per save
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    return buf.getvalue()


def make_config(mod, profile: str, overrides: dict[str, Any]):
    """The module's config for `profile`, with a point's overrides applied."""
    profiles = mod.PROFILES
    if profile not in profiles:
        known = ", ".join(sorted(profiles))
        raise SweepError(f"{mod.__name__} has no profile '{profile}' in PROFILES (it has: {known})")
    config = profiles[profile]
    if isinstance(config, type) and dataclasses.is_dataclass(config):  # Config, not Config(...)
        raise SweepError(f"{mod.__name__}: PROFILES['{profile}'] is the class {config.__name__}, not a "
                         f"configuration; write {config.__name__}() (with the profile's values)")
    if not overrides:
        return config
    return dataclasses.replace(config, **overrides)


def plan(mod, profile: str) -> tuple[dict[str, list] | None, list[dict[str, Any]]]:
    """The module's sweep for `profile` (None when it has none) and its points, in order.

    The profile's SEEDS come first in the grid (seed-major), then the SWEEP fields.
    """
    make_config(mod, profile, {})
    sweep = getattr(mod, "SWEEP", None)
    seeds = (getattr(mod, "SEEDS", None) or {}).get(profile)
    grid = dict(sweep[profile]) if sweep is not None and profile in sweep else None
    if seeds is not None:
        grid = {"seed": list(seeds), **(grid or {})}
    if grid is None:
        return None, [{}]
    where = f"{mod.__name__}: SWEEP['{profile}']"
    config = mod.PROFILES[profile]
    if not isinstance(grid, dict) or not grid:
        raise SweepError(f"{where} must map Config field names to lists of values")
    if not dataclasses.is_dataclass(config):
        raise SweepError(f"{where}: a sweep needs PROFILES['{profile}'] to be a dataclass")
    fields = [f.name for f in dataclasses.fields(config)]
    for name, values in grid.items():
        if name not in fields:
            close = difflib.get_close_matches(str(name), fields, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise SweepError(f"{where} varies '{name}', which is not a field of "
                             f"{type(config).__name__}{hint}")
        if not isinstance(values, (list, tuple)) or not values:
            raise SweepError(f"{where}['{name}'] must be a non-empty list, found {values!r}")
    names = list(grid)
    return {k: list(v) for k, v in grid.items()}, [
        dict(zip(names, combo)) for combo in itertools.product(*(grid[n] for n in names))]


# ---------------------------------------------------------------- one point


def _check_worker(point: Point, versions: dict) -> None:
    """SweepError unless this process has the packages, interpreter, numerics environment and
    instruction set the run's inputs hold (the code is checked as it is imported)."""
    host = socket.gethostname()
    if point.versions is not None and versions != point.versions:
        diff = [f"{k} {versions.get(k)} (here {v})" for k, v in point.versions.items()
                if versions.get(k) != v]
        raise SweepError(f"worker {host} has {', '.join(diff)}; install the same constraints "
                         "file on the workers")
    if point.deps:
        installed = dependency_versions(tuple(point.deps))
        diff = [f"{k} {installed.get(k)} (the run has {v})" for k, v in point.deps.items()
                if installed.get(k) != v]
        if diff:
            raise SweepError(f"worker {host} has {', '.join(diff)}; install the same constraints "
                             "file (and the same source of an editable install) on the workers")
    want = point.inputs
    if want is None:
        return
    env = numeric_env()
    if "PYTHONHASHSEED" not in (want.get("env") or {}):
        # the run's own hash seed is random, so any one a worker has is as good (dask's nannies
        # start their worker with one: 6640)
        env.pop("PYTHONHASHSEED", None)
    here = {"env": env, "python": interpreter(),
            "isa": list(machine_isa()) if want.get("isa") is not None else None,
            "cores": machine_cores() if want.get("cores") is not None else None}
    diff = [f"{k} {here[k]!r} (the run has {want.get(k)!r})" for k in here if here[k] != want.get(k)]
    if diff:
        hint = ""
        stored = want.get("env")
        stored = stored if isinstance(stored, dict) else {}
        if any(env.get(k) != stored.get(k)
               for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")):
            hint = (" (a `dask worker`'s nanny sets OMP_NUM_THREADS, MKL_NUM_THREADS and "
                    "OPENBLAS_NUM_THREADS to 1 in its worker, distributed.nanny.pre-spawn-environ: "
                    "set the same where litrec runs, or start the workers with the run's values)")
        raise SweepError(f"worker {host} has {'; '.join(diff)}; a result is computed with one "
                         "interpreter, numerics environment, instruction set and number of usable "
                         f"cores: run the workers alike{hint}")


def _check_data(point: Point, when: str) -> None:
    """InputsChanged unless the declared data files hold the bytes the run hashed."""
    recorded = (point.inputs or {}).get("data") or {}
    if not recorded:
        return
    now, problems = data_files(Path(point.root), list(recorded))
    changed = sorted(f for f in recorded if now.get(f) != recorded[f])
    if changed or problems:
        raise InputsChanged(f"the data file{'s' if len(changed) > 1 else ''} "
                            f"{', '.join(changed) or '; '.join(problems)} changed {when}; "
                            "nothing was stored: run again")


def run_point(point: Point, progress=None) -> dict | list[dict]:
    """Run one point of an analysis; return its metrics, figures (SVG bytes) and provenance.

    A point that batches seeds (`Point.seeds`) returns a list: one such dict per
    seed, in order, all with the wall time of the one call.

    What the analysis prints goes to standard error: standard output is litrec's (JSON).
    An analysis that calls sys.exit or raises KeyboardInterrupt itself fails with
    AnalysisExited (here or in a worker); a real Ctrl-C or SIGTERM goes through.

    Unless `Point.no_sandbox` says why not, the point runs in a sandbox that holds only its
    inputs where this machine can make one (`litrec.runs.sandbox`), else here; each output says
    which (`hermetic`, and `not_hermetic`: why not).
    """
    why = point.no_sandbox or sandbox.unavailable()
    if why is None:
        return sandbox.marked(sandbox.run(point, progress), None)
    return sandbox.marked(run_here(point, progress), why)


def run_here(point: Point, progress=None, seen: list | None = None) -> dict | list[dict]:
    """`run_point` in this process, in the environment the point sees (`litrec.analyses.environ`:
    the variables every point keeps and those its analysis declares, as the run keyed them);
    `seen` gets its observation (`litrec.analyses.observe`)."""
    try:
        with contextlib.redirect_stdout(sys.stderr), cleaned((point.inputs or {}).get("environ")):
            return _run_point(point, progress, seen)
    except BaseException as exc:
        why = interrupt.stray(exc)
        if why is None:
            raise
        raise AnalysisExited(why) from None


def editables(point: Point) -> list[str]:
    """The source folders and files of the editable installs among the run's packages."""
    return editable_places((*(point.versions or ()), *(point.deps or ())))


def _check_reads(point: Point, seen) -> None:
    """UndeclaredInput unless what the point read and imported inside the project is its inputs."""
    check_observed(seen, point.package, point.code_files, (point.inputs or {}).get("data"),
                   compiled_sources(), editables(point))


def _run_point(point: Point, progress=None, seen_out: list | None = None) -> dict | list[dict]:
    """One output (`run`), or one per seed in order when the point batches seeds (`run_seeds`)."""
    # what it reads and imports inside the project
    with observing(point.root, (point.checkpoints,)) as seen, named_when_it_fails(lambda: _check_reads(point, seen)):
        if seen_out is not None:
            seen_out.append(seen)
        mod, _ = load_analysis(point.root, point.package, point.module, point.code_files)
        check_module(mod, point.module)
        _check_worker(point, package_versions(tuple(point.versions or ())))
        _check_data(point, "since the run hashed it")
        config = make_config(mod, point.profile, point.overrides)
        uses_jax = "jax" in point.versions if point.versions is not None else "jax" in sys.modules

        with compile_cache(point.root if point.compile_cache and uses_jax else None), \
                expecting(point.package, point.code_files), checkpoint_env(point.checkpoints):
            t0 = time.perf_counter()
            if point.seeds is None:
                outs = [check_output(mod.run(config, progress=progress), mod.__name__,
                                     declared=getattr(mod, "METRICS", None))]
                configs = [config]
            else:
                seeds = list(point.seeds)
                outs = check_seed_outputs(mod.run_seeds(config, seeds, progress=progress), seeds,
                                          mod.__name__, getattr(mod, "METRICS", None))
                configs = [dataclasses.replace(config, seed=s) for s in seeds]
            metrics = [to_json(out["metrics"]) for out in outs]  # waits for JAX's asynchronous work
            wall = time.perf_counter() - t0
    _check_reads(point, seen)
    _check_data(point, "while the analysis ran")
    where = {"platform": platform_info(), "device": device_info(uses_jax)}
    done = []
    for i, (out, m, cfg) in enumerate(zip(outs, metrics, configs)):
        figures: dict[str, bytes] = {}
        for name, fig in (out.get("figures") or {}).items():
            if point.figures and i == 0:
                figures[str(name)] = svg_bytes(fig)
            else:
                import matplotlib.pyplot as plt

                plt.close(fig)
        done.append({
            "metrics": m,
            "figures": figures,
            "notes": [str(n) for n in out.get("notes", [])],
            "noise": to_json(dict(out.get("noise") or {})),
            "wall_time_s": wall,
            "config": config_json(cfg),
            **where,
        })
    return done[0] if point.seeds is None else done


# ---------------------------------------------------------------- aggregation


class _Unaggregable(ValueError):
    pass


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _leaves(values: list, fn):
    """Apply `fn` to the numbers at each position of same-shaped values (lists element-wise)."""
    if all(isinstance(v, list) for v in values):
        if len({len(v) for v in values}) != 1:
            raise _Unaggregable("its lists have different lengths at different points")
        return [_leaves(list(col), fn) for col in zip(*values)]
    if all(isinstance(v, bool) for v in values):
        return all(values) if fn is _mean else None
    if all(_is_num(v) or v is None for v in values) and any(_is_num(v) for v in values):
        return None if any(v is None for v in values) else fn(values)
    if all(v == values[0] for v in values):
        return values[0] if fn is _mean else None
    raise _Unaggregable("its values differ between points and are not numbers")


def _mean(xs: list) -> float | int:
    if all(x == xs[0] for x in xs):
        return xs[0]  # agreed values stay exact (an int stays an int)
    return stats.mean(xs)


def _numeric(v: Any) -> bool:
    return _is_num(v) or (isinstance(v, list) and bool(v) and all(_numeric(x) for x in v))


def aggregate(per_point: list[dict]) -> tuple[dict, dict, list[str]]:
    """(metrics, spread, notes) of the points' metrics; see the module docstring."""
    spread: dict[str, dict] = {}
    notes: list[str] = []

    def walk(values: list, path: str):
        if all(isinstance(v, dict) for v in values):
            out = {}
            for key in values[0]:
                sub = f"{path}.{key}" if path else key
                if all(key in v for v in values):
                    out[key] = walk([v[key] for v in values], sub)
                else:
                    out[key] = None
                    notes.append(f"metric '{sub}' is missing at some points; not aggregated")
            return out
        try:
            mean = _leaves(values, _mean)
        except _Unaggregable as exc:
            notes.append(f"metric '{path}' not aggregated: {exc}")
            return None
        if all(_numeric(v) for v in values):
            spread[path] = {"std": _leaves(values, stats.sample_std), "min": _leaves(values, min),
                            "max": _leaves(values, max), "n": len(values)}
        return mean

    metrics = walk(per_point, "")
    return metrics, spread, notes
