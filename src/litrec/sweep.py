"""Sweeps: one analysis run over a grid of settings, each point an independent task.

An analysis module may declare, per profile, the `Config` fields to vary:

    SWEEP = {"quick": {"seed": [0, 1, 2]}, "paper": {"seed": [0, 1, 2, 3, 4], "N": [10, 20]}}

The points are the product of the lists, in the order written; each runs
`run(dataclasses.replace(PROFILES[profile], **point))`. A module without SWEEP
(or without an entry for the profile) has one point: the profile itself.

A point runs through `run_point`, a top-level function that an executor ships
to another process or machine. It imports the analysis by its registry module
name (never a path from a record), first checking that the worker sees the
same analysis code and package versions as the machine that fingerprinted the
run, so a result is never labelled with code it did not run.

The stored result aggregates the points: every numeric metric is the mean over
points (lists element-wise, booleans: all true), `spread` holds each numeric
metric's {std, min, max, n} (sample std), and `points` each point's overrides
and metrics, so expectations are judged on the aggregate.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import hashlib
import importlib
import importlib.machinery
import io
import itertools
import math
import socket
import sys
import time
from pathlib import Path
from typing import Any

from litrec import interrupt
from litrec.contract import check_module, check_output, check_seed_outputs
from litrec.errors import AnalysisExited, SweepError
from litrec.fingerprint import module_imports, package_versions
from litrec.jaxcache import compile_cache
from litrec.machine import device_info, platform_info
from litrec.resume import checkpoint_env


@dataclasses.dataclass(frozen=True)
class Point:
    """Everything a worker needs to run one point; small and picklable."""

    root: str                       # the project folder holding the analysis package
    package: str                    # the analysis package's name, e.g. "analysis"
    module: str                     # the registry's module name inside it, e.g. "prop1_identity"
    profile: str
    overrides: dict[str, Any]
    code_files: dict[str, str] | None = None   # what the driver fingerprinted; None: no check
    versions: dict[str, str | None] | None = None
    figures: bool = True            # render figures (only the first point's are kept)
    seeds: tuple[int, ...] | None = None  # all these seeds in one run_seeds call: one output each
    compile_cache: bool = True      # JAX's compile cache in root/.litrec-cache/jax (litrec.jaxcache)
    checkpoints: str | None = None  # the folder its trainings keep checkpoints in (litrec.resume)


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


def svg_bytes(fig) -> bytes:
    """A matplotlib figure as SVG, byte-identical from run to run; the figure is closed."""
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    with plt.rc_context({"svg.hashsalt": "litrec"}):  # fixed ids: no random salt per save
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    return buf.getvalue()


# ---------------------------------------------------------------- loading

_LOADED: dict[str, tuple[str, dict[str, str]]] = {}  # package -> (its folder, files imported)


def _code_files(analysis_dir: Path, module: str) -> dict[str, str]:
    return module_imports(analysis_dir, module)[0]


def _stale(package: str, where: str) -> bool:
    """Whether the imported `package` is not what its folder `where` now holds."""
    loaded = sys.modules.get(package)
    if loaded is None:
        return False
    if package not in _LOADED or _LOADED[package][0] != where \
            or where not in [str(p) for p in getattr(loaded, "__path__", [])]:
        return True  # imported from elsewhere, or by someone else: what it holds is unknown
    base = Path(where).parent
    for rel, digest in _LOADED[package][1].items():
        try:
            if hashlib.sha256((base / rel).read_bytes()).hexdigest() != digest:
                return True
        except OSError:
            return True
    return False


def load_analysis(root: str, package: str, module: str):
    """Import `package.module`, `root` first on the path; return (module, its code files).

    A long-lived worker re-imports the package when any of its files imported so
    far changed, or when the package now resolves to another folder (another
    project), so an edited analysis or helper never runs as its old self.
    """
    if not sys.path or sys.path[0] != root:
        if root in sys.path:
            sys.path.remove(root)
        sys.path.insert(0, root)
    importlib.invalidate_caches()
    spec = importlib.machinery.PathFinder.find_spec(package, sys.path)  # ignores sys.modules
    if spec is None:
        raise SweepError(f"cannot import the analysis package '{package}' on {socket.gethostname()}: "
                         f"it is neither in {root} nor on PYTHONPATH")
    where = str(Path(spec.origin).parent if spec.origin else list(spec.submodule_search_locations)[0])
    if _stale(package, where):
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]
    if package not in sys.modules:
        _LOADED[package] = (where, {})
    files = _code_files(Path(where), module)
    mod = importlib.import_module(f"{package}.{module}")
    _LOADED[package][1].update(files)
    return mod, files


def make_config(mod, profile: str, overrides: dict[str, Any]):
    """The module's config for `profile`, with a point's overrides applied."""
    profiles = mod.PROFILES
    if profile not in profiles:
        known = ", ".join(sorted(profiles))
        raise SweepError(f"{mod.__name__} has no profile '{profile}' in PROFILES (it has: {known})")
    config = profiles[profile]
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


def _check_worker(point: Point, files: dict[str, str], versions: dict) -> None:
    host = socket.gethostname()
    if point.code_files is not None and files != point.code_files:
        changed = sorted(f for f in set(files) | set(point.code_files)
                         if files.get(f) != point.code_files.get(f))
        raise SweepError(f"worker {host} sees different analysis code ({', '.join(changed)}) than "
                         "the machine that started the run; give the workers the project's "
                         "analysis folder as it is there (a shared filesystem or a synced copy)")
    if point.versions is not None and versions != point.versions:
        diff = [f"{k} {versions.get(k)} (here {v})" for k, v in point.versions.items()
                if versions.get(k) != v]
        raise SweepError(f"worker {host} has {', '.join(diff)}; install the same constraints "
                         "file on the workers")


def run_point(point: Point, progress=None) -> dict | list[dict]:
    """Run one point of an analysis; return its metrics, figures (SVG bytes) and provenance.

    A point that batches seeds (`Point.seeds`) returns a list: one such dict per
    seed, in order, all with the wall time of the one call.

    What the analysis prints goes to standard error: standard output is litrec's (JSON).
    An analysis that calls sys.exit or raises KeyboardInterrupt itself fails with
    AnalysisExited (here or in a worker); a real Ctrl-C or SIGTERM goes through.
    """
    try:
        with contextlib.redirect_stdout(sys.stderr):
            return _run_point(point, progress)
    except BaseException as exc:
        why = interrupt.stray(exc)
        if why is None:
            raise
        raise AnalysisExited(why) from None


def _run_point(point: Point, progress=None) -> dict | list[dict]:
    """One output (`run`), or one per seed in order when the point batches seeds (`run_seeds`)."""
    mod, files = load_analysis(point.root, point.package, point.module)
    check_module(mod, point.module)
    _check_worker(point, files, package_versions(tuple(point.versions or ())))
    config = make_config(mod, point.profile, point.overrides)
    uses_jax = "jax" in point.versions if point.versions is not None else "jax" in sys.modules

    with compile_cache(point.root if point.compile_cache and uses_jax else None), \
            checkpoint_env(point.checkpoints):
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
            "config": to_json(dataclasses.asdict(cfg) if dataclasses.is_dataclass(cfg)
                              else dict(vars(cfg))),
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
    return math.fsum(xs) / len(xs)


def _std(xs: list) -> float:
    if len(xs) < 2:
        return 0.0
    m = math.fsum(xs) / len(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1))


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
            spread[path] = {"std": _leaves(values, _std), "min": _leaves(values, min),
                            "max": _leaves(values, max), "n": len(values)}
        return mean

    metrics = walk(per_point, "")
    return metrics, spread, notes
