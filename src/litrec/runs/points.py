"""An analysis's layout for one profile, worked out where the analysis is imported.

Before anything runs, the runner needs to know, of each analysis, its module,
its points (the SWEEP and SEEDS of the profile), whether `run_seeds` takes
the seeds in one call, its configuration and whether it draws figures over
the seeds. All of it is read from the imported module, and importing an
analysis imports what it imports (JAX, for most): about a second.

`layout` returns that as plain data, so it can be worked out in the worker
that runs the points: when they go to workers, litrec's own process imports
neither the analysis nor JAX, and the workers' start is the only import on
the way to the first point. `draw_seed_figures` draws the figures over the
seeds there too, once every seed's metrics are back.

`lay_out_remotely` sends the layouts to the executor: on dask every
analysis's (all points go there), on the local executor those whose source
binds SWEEP or SEEDS (`declares_points`): an analysis of one point runs in
litrec's process, as it always has, and is laid out there.
"""

from __future__ import annotations

import ast
import dataclasses
import sys
from typing import TYPE_CHECKING, Any

from litrec.analyses.analysisimport import load_analysis
from litrec.analyses.contract import bound_names, check_figure_names, check_module
from litrec.runs import interrupt
from litrec.runs.sweep import config_json, make_config, plan, svg_bytes
from litrec.util.confine import Refused, project_root, read_file
from litrec.util.errors import AnalysisExited, ContractError, RunError, SweepError

if TYPE_CHECKING:
    from litrec.records.project import Project
    from litrec.runs.executors import Executor


@dataclasses.dataclass(frozen=True)
class Spec:
    """Which analysis, for which profile, and where its package is (small and picklable)."""

    root: str        # the project folder holding the analysis package
    package: str     # the analysis package's name, e.g. "analysis"
    module: str      # the registry's module name inside it
    name: str        # the registry's analysis name
    profile: str


@dataclasses.dataclass(frozen=True)
class Layout:
    """What the runner needs of an imported analysis for one profile (plain data)."""

    module: str                      # the module's full name, e.g. "analysis.prop1_identity"
    sweep: dict[str, list] | None    # the varied fields and their values; None: one point
    grid: list[dict[str, Any]]       # every point's overrides, in order (seed-major)
    n_seeds: int                     # the profile's SEEDS (0: none)
    batched: bool                    # the seeds go to one run_seeds call per point
    config: dict[str, Any]           # the profile's configuration, as JSON
    seed_figures: bool               # seed_figures(points) draws figures over the seeds


def layout(spec: Spec) -> Layout:
    """Import the analysis (no work happens at import) and lay out its points for the profile.

    A broken contract is a ContractError, a bad SWEEP a RunError, and an analysis
    that calls sys.exit at import an AnalysisExited, each naming the analysis.
    """
    try:
        module, _ = load_analysis(spec.root, spec.package, spec.module)
        check_module(module, spec.name)
        sweep, grid = plan(module, spec.profile)
        config = make_config(module, spec.profile, {})
    except ContractError:
        raise
    except SweepError as exc:
        raise RunError(f"analysis '{spec.name}': {exc}") from None
    except BaseException as exc:  # sys.exit or KeyboardInterrupt at import: a failure
        why = interrupt.stray(exc)
        if why is None:
            raise
        raise AnalysisExited(f"analysis '{spec.name}': {why}") from None
    if "jax" in sys.modules:  # start its backend now: the points will need it
        sys.modules["jax"].devices()
    seeds = (getattr(module, "SEEDS", None) or {}).get(spec.profile)
    cfg = config_json(config)
    return Layout(module.__name__, sweep, grid, len(seeds) if seeds else 0,
                  bool(seeds) and callable(getattr(module, "run_seeds", None)), cfg,
                  bool(sweep and "seed" in sweep and getattr(module, "seed_figures", None)))


def draw_seed_figures(job: tuple[Spec, list[dict]]) -> dict[str, bytes]:
    """`seed_figures(points)` of the analysis of `job = (spec, points)`, as SVG bytes by name."""
    spec, points = job
    module, _ = load_analysis(spec.root, spec.package, spec.module)
    drawn = module.seed_figures(points)
    check_figure_names(drawn or {}, f"{module.__name__}.seed_figures")
    return {str(name): svg_bytes(fig) for name, fig in (drawn or {}).items()}


def declares_points(source: str) -> bool:
    """Whether a module's source binds SWEEP or SEEDS at its top level (it may have many
    points); True when it does not parse (the import will say why, in a worker)."""
    try:
        names = bound_names(ast.parse(source))
    except SyntaxError:
        return True
    return "SWEEP" in names or "SEEDS" in names


def spec_of(proj: Project, name: str, profile: str) -> Spec:
    """Where analysis `name` is, for `layout` here or in a worker."""
    reg = proj.registry
    return Spec(str(reg.path.parent.parent.resolve()), reg.path.parent.name,
                reg.entries[name].module, name, profile)


def laid_out_remotely(proj: Project, name: str) -> bool:
    """Whether the analysis may have many points (its source binds SWEEP or SEEDS): then,
    where points go to workers, a worker lays it out and this process never imports it."""
    reg = proj.registry
    try:
        source = read_file(reg.module_path(name), project_root(reg.path.parent))
    except (Refused, OSError):
        return False  # laid out here, where the import says what is wrong
    return declares_points(source.decode("utf-8", "replace"))


def lay_out_remotely(proj: Project, names: list[str], profile: str, spec, early
                     ) -> tuple[Executor | None, dict]:
    """(executor, layout futures by name): where points go to workers (`spec`, an
    `ExecutorSpec`), the analyses that may have many points are laid out there, so this
    process imports none of them (nor JAX)."""
    if not spec.parallel:
        return None, {}
    names = [n for n in names if spec.sends(2 if laid_out_remotely(proj, n) else 1)]
    if not names:
        return None, {}
    from litrec.runs.executors import start_executor  # the pools' machinery: only now

    executor = early.take() if early is not None else start_executor(spec)
    try:
        futures = {n: executor.submit(layout, spec_of(proj, n, profile)) for n in names}
        for _ in range(spec.workers - len(names)):  # the other workers start (and import) meanwhile
            executor.submit(layout, spec_of(proj, names[0], profile))
        return executor, futures
    except BaseException:
        executor.close(wait=False)
        raise
