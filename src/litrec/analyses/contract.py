"""The analysis contract: what a module of `analysis/` must provide, in one place.

A registered module provides

- `PROFILES`: a mapping of profile names (`quick`, `paper`, ...) to its
  configuration, a frozen dataclass;
- `run(config, progress=None) -> dict`: the analysis; it returns `metrics`
  (numbers, booleans, strings, lists of them or nested mappings), and
  optionally `figures` (name -> matplotlib figure; the name is its file's,
  `figure_name_problem`: no folder, no leading dot) and `notes` (strings);
- optionally `SEEDS`: per profile, the seeds to run (`{"paper": (0, 1, 2)}`);
  each seed runs `run` once with `config.seed` set, and the judge decides on
  the interval over seeds;
- optionally `SWEEP`: per profile, other config fields to vary and their
  values (`{"paper": {"N": [10, 20]}}`); each point runs `run` once;
- optionally `seed_figures(points) -> {name: figure}`: figures drawn over all
  seeds once they ran (each point `{"seed": s, "metrics": {...}}`), e.g. every
  seed's training curve;
- optionally `METRICS`: the names of the metrics `run` returns, a literal
  tuple of text (`("loss_trained", "ood.max_rel_gap", "training")`), dotted
  for nested mappings; a name covers the metric itself and everything nested
  under it (`"training"` covers `training.step`). `litrec validate` checks
  every metric a claim's expectations name against it, and the runner notes
  in the result any metric it returns that METRICS does not declare;
- optionally `run_seeds(config, seeds, progress=None) -> [output, ...]`: all
  of a profile's SEEDS in one call (e.g. trained side by side in one compiled
  step), one output per seed in the order given, each what
  `run(replace(config, seed=s))` returns; the runner then calls it once per
  point of the other SWEEP fields instead of `run` once per seed (on several
  workers, once per group of the seeds per worker), and stores the same result.

A module (or a helper of its package that it imports) may also declare its inputs beyond its
code: `DATA`, the data files it reads (`litrec.analyses.datafiles`), and `ENV`, the environment
variables it reads, a literal tuple of names (`ENV = ("TOY_DRAWS",)`): a point sees only
those of the environment and the few every point keeps, and their values are part of the
result's key (`litrec.analyses.environ`).

`run` may also return `noise`: per dotted metric name, the standard error of
that metric due to the finite evaluation set, shown beside it.

The contract is checked twice. `litrec validate` reads each registered
module's source (never importing it) and reports a missing piece at the
registry entry's line; the runner checks the imported module and what `run`
returned, and a breach is a `ContractError` naming the entry and the piece,
not an `AttributeError` in the middle of a run.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypedDict

from litrec.analyses.environ import name_problem
from litrec.util.errors import ContractError
from litrec.util.formatting import excerpt

Progress = Callable[..., None]  # progress(done, total, description="")


class Output(TypedDict, total=False):
    """What `run` returns; only `metrics` is required."""

    metrics: dict[str, Any]
    figures: dict[str, Any]
    notes: list[str]
    noise: dict[str, float]


class AnalysisModule(Protocol):
    """The names a registered analysis module defines (`SEEDS`, `SWEEP`, `run_seeds` are optional)."""

    PROFILES: Mapping[str, Any]

    def run(self, config: Any, progress: Progress | None = None) -> Output:
        """Run the analysis for one configuration."""


def bound_names(tree: ast.Module) -> dict[str, ast.AST]:
    """Names bound at module level, with the statement that binds each."""
    names: dict[str, ast.AST] = {}
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names[(alias.asname or alias.name).split(".")[0]] = node
        for t in targets:
            for leaf in ast.walk(t):
                if isinstance(leaf, ast.Name):
                    names[leaf.id] = node
    return names


def source_problems(source: str) -> list[str]:
    """What a module's source lacks of the contract (empty when it keeps it), without importing it."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return [f"does not parse: line {exc.lineno}: {exc.msg}"]
    names = bound_names(tree)
    problems = []
    if "PROFILES" not in names:
        problems.append("defines no PROFILES (a mapping of profile names to its Config)")
    run = names.get("run")
    if run is None:
        problems.append("defines no run(config, progress=None) function")
    elif isinstance(run, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = run.args
        positional = args.posonlyargs + args.args
        takes_progress = (any(a.arg == "progress" for a in positional + args.kwonlyargs)
                          or args.kwarg is not None)
        if not positional and args.vararg is None:
            problems.append("run() takes no config argument; define run(config, progress=None)")
        elif not takes_progress:
            problems.append("run() takes no 'progress' argument; define run(config, progress=None)")
    run_seeds = names.get("run_seeds")
    if isinstance(run_seeds, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = run_seeds.args
        params = [a.arg for a in args.posonlyargs + args.args]
        if len([a for a in params if a != "progress"]) < 2 and args.vararg is None:
            problems.append("run_seeds() must take the config and the seeds; define "
                            "run_seeds(config, seeds, progress=None)")
        elif "progress" not in params + [a.arg for a in args.kwonlyargs] and args.kwarg is None:
            problems.append("run_seeds() takes no 'progress' argument; define "
                            "run_seeds(config, seeds, progress=None)")
        if "SEEDS" not in names:
            problems.append("defines run_seeds() but no SEEDS (the seeds it runs, per profile)")
    if "ENV" in names:
        problems += env_problems(getattr(names["ENV"], "value", None))
    if "METRICS" in names and source_metrics(source) is None:
        problems.append("METRICS is not a literal tuple of metric names "
                        "(METRICS = (\"loss\", \"ood.max_gap\"))")
    return problems


ENV_EXAMPLE = 'ENV = ("TOY_DRAWS",)'


def env_problems(node: ast.AST | None) -> list[str]:
    """What is wrong with the value an `ENV = ...` statement gives (its AST node): not a literal
    tuple of text, or a text that cannot name a variable an analysis declares."""
    elts = node.elts if isinstance(node, (ast.Tuple, ast.List)) else None
    if elts is None or not all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in elts):
        return [f"ENV is not a literal tuple of environment variable names ({ENV_EXAMPLE})"]
    return [f"ENV: {why}" for e in elts if (why := name_problem(getattr(e, "value", None)))]


def check_module(mod: Any, name: str) -> None:
    """ContractError unless the imported module `mod` (registry entry `name`) keeps the contract."""
    where = f"analysis '{name}' ({mod.__name__})"
    profiles = getattr(mod, "PROFILES", None)
    if not isinstance(profiles, Mapping) or not profiles:
        raise ContractError(f"{where}: PROFILES must be a non-empty mapping of profile names to "
                            f"configs, found {type(profiles).__name__}")
    if not callable(getattr(mod, "run", None)):
        raise ContractError(f"{where}: no run(config, progress=None) function")
    sweep = getattr(mod, "SWEEP", None)
    if sweep is not None and not isinstance(sweep, Mapping):
        raise ContractError(f"{where}: SWEEP must map profile names to {{field: [values]}}, "
                            f"found {type(sweep).__name__}")
    seeds = getattr(mod, "SEEDS", None)
    if seeds is not None:
        if not isinstance(seeds, Mapping):
            raise ContractError(f"{where}: SEEDS must map profile names to lists of seeds, "
                                f"found {type(seeds).__name__}")
        for profile, values in seeds.items():
            if (isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple))
                    or not values or not all(isinstance(v, int) and not isinstance(v, bool)
                                             for v in values)
                    or len(set(values)) != len(values)):
                raise ContractError(f"{where}: SEEDS['{profile}'] must be a non-empty list of "
                                    f"distinct whole numbers, found {values!r}")
            if isinstance(sweep, Mapping) and "seed" in (sweep.get(profile) or {}):
                raise ContractError(f"{where}: profile '{profile}' names seeds in both SEEDS and "
                                    "SWEEP; keep them in SEEDS")
    if getattr(mod, "run_seeds", None) is not None and not callable(mod.run_seeds):
        raise ContractError(f"{where}: run_seeds must be a function run_seeds(config, seeds, "
                            "progress=None)")
    env = getattr(mod, "ENV", None)
    if env is not None:
        if isinstance(env, (str, bytes)) or not isinstance(env, (list, tuple)):
            raise ContractError(f"{where}: ENV must be a tuple of environment variable names "
                                f"({ENV_EXAMPLE}), found {type(env).__name__}")
        for value in env:
            why = name_problem(value)
            if why is not None:
                raise ContractError(f"{where}: ENV: {why}; declare the variables it reads, {ENV_EXAMPLE}")
    metrics = getattr(mod, "METRICS", None)
    if metrics is not None and (isinstance(metrics, (str, bytes)) or not isinstance(
            metrics, (list, tuple, set, frozenset)) or not all(isinstance(m, str) for m in metrics)):
        raise ContractError(f"{where}: METRICS must be a tuple of metric names, found "
                            f"{type(metrics).__name__}")
    if getattr(mod, "seed_figures", None) is not None and not callable(mod.seed_figures):
        raise ContractError(f"{where}: seed_figures must be a function of the points")


def metric_names(metrics: Mapping, prefix: str = "") -> list[str]:
    """The dotted names of a metrics mapping's leaves (`{"ood": {"alpha": ...}}` -> `ood.alpha`)."""
    names = []
    for key, value in metrics.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            names.extend(metric_names(value, name + "."))
        else:
            names.append(name)
    return names


def declares(declared: Any, name: str) -> bool:
    """Whether the METRICS `declared` cover the metric `name` (itself or a name above it)."""
    parts = name.split(".")
    return any(".".join(parts[:i]) in declared for i in range(1, len(parts) + 1))


def undeclared(metrics: Mapping, declared: Any) -> list[str]:
    """The metrics of an output its module's METRICS do not declare (none when it declares none)."""
    if declared is None:
        return []
    return [n for n in metric_names(metrics) if not declares(declared, n)]


def check_output(out: Any, where: str, fn: str = "run", declared: Any = None) -> Output:
    """`out` if it is what `run` must return; ContractError naming the wrong piece otherwise.

    `declared`: the module's METRICS, when it has them; a metric it does not
    declare is named in the output's notes (stored with the result)."""
    if not isinstance(out, Mapping) or not isinstance(out.get("metrics"), Mapping):
        found = type(out).__name__ if not isinstance(out, Mapping) else \
            f"metrics of type {type(out.get('metrics')).__name__}"
        raise ContractError(f"{where}.{fn} returned {found}; expected a dict with a 'metrics' mapping")
    if not isinstance(out.get("figures", {}), Mapping):
        raise ContractError(f"{where}.{fn} returned 'figures' that is not a mapping of names to figures")
    check_figure_names(out.get("figures") or {}, f"{where}.{fn}")
    notes = out.get("notes", [])
    if isinstance(notes, (str, bytes)) or not isinstance(notes, (list, tuple)):
        raise ContractError(f"{where}.{fn} returned 'notes' that is not a list of strings")
    noise = out.get("noise", {})
    if not isinstance(noise, Mapping) or not all(isinstance(k, str) for k in noise):
        raise ContractError(f"{where}.{fn} returned 'noise' that is not a mapping of metric names "
                            "to standard errors")
    extra = undeclared(out["metrics"], declared)
    if extra:  # kept, and said in the result's notes: a run is never lost to a missing declaration
        shown = ", ".join(extra[:8]) + (f" and {len(extra) - 8} more" if len(extra) > 8 else "")
        out = {**out, "notes": [*notes, f"{where}.{fn} returned metrics its METRICS do not "
                                         f"declare: {shown}; add them to METRICS"]}
    return out


FIGURE_NAME_FIX = ("a figure's name is the name of its file in results/<analysis>/<profile>/: give a "
                   "plain name, such as 'loss_curve' (letters, digits, '_', '-', '.'; no folder)")


def figure_name_problem(name: Any) -> str | None:
    """Why `name` cannot name a figure's file inside its result's folder (None when it can): it
    would lead out of the folder (a slash or backslash, `..`, an absolute path, a drive),
    hide or clash with litrec's own files (a leading dot), or is empty, not text, or holds a
    control character."""
    if not isinstance(name, str):
        return f"a {type(name).__name__}, not text"
    if not name:
        return "empty"
    if any(c in name for c in "/\\:"):
        return "it names a folder or a drive, which would write outside the result's folder"
    if name.startswith("."):
        return "it starts with a dot ('..' leads out of the result's folder; '.' hides the file)"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return "it holds a control character"
    return None


def check_figure_names(figures: Mapping, where: str) -> None:
    """ContractError naming `where` (the module and function that drew them), the figure's name
    and the fix, for the first name of `figures` that `figure_name_problem` refuses."""
    for name in figures:
        why = figure_name_problem(str(name))  # the runner names the file str(name).svg
        if why is not None:
            raise ContractError(f"{where} returned a figure named {excerpt(repr(name), 80)}: {why}; "
                                f"{FIGURE_NAME_FIX}. No result was written")


def check_seed_outputs(outs: Any, seeds: list[int], where: str,
                       declared: Any = None) -> list[Output]:
    """The outputs of `run_seeds`, one per seed, each checked as `check_output` checks `run`'s."""
    if isinstance(outs, Mapping) or not isinstance(outs, (list, tuple)) or len(outs) != len(seeds):
        found = (f"{len(outs)} outputs" if isinstance(outs, (list, tuple))
                 else type(outs).__name__)
        raise ContractError(f"{where}.run_seeds returned {found} for the {len(seeds)} seeds "
                            f"{list(seeds)}; expected a list of one output per seed, in order")
    return [check_output(out, where, f"run_seeds (seed {seed})", declared)
            for out, seed in zip(outs, seeds)]


def source_profiles(source: str) -> frozenset[str] | None:
    """The profile names a module's source gives PROFILES, read without importing it.

    None when they cannot be read from the source alone: PROFILES is not a
    literal mapping (`{"quick": ..., ...}` or `dict(quick=..., ...)`) with
    text keys, or the source does not parse.
    """
    order = source_profile_order(source)
    return None if order is None else frozenset(order)


def source_profile_order(source: str) -> tuple[str, ...] | None:
    """The profile names of `source_profiles`, in the order PROFILES lists them (smallest first,
    by the contract: the project's scales are ordered so, `litrec.analyses.scales`)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    node = bound_names(tree).get("PROFILES")
    value = getattr(node, "value", None)
    if isinstance(value, ast.Dict):
        keys = value.keys
        if all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in keys):
            return tuple(dict.fromkeys(k.value for k in keys))  # type: ignore[union-attr]
    elif (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
          and value.func.id == "dict" and not value.args
          and all(k.arg is not None for k in value.keywords)):
        return tuple(dict.fromkeys(k.arg for k in value.keywords))  # type: ignore[misc]
    return None


def source_metrics(source: str) -> frozenset[str] | None:
    """The metric names a module's source gives METRICS, read without importing it.

    None when it has no METRICS, or they are not a literal tuple (list, set) of
    text, or the source does not parse: then nothing is checked against them.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    value = getattr(bound_names(tree).get("METRICS"), "value", None)
    if isinstance(value, (ast.Tuple, ast.List, ast.Set)):
        texts = [e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if len(texts) == len(value.elts):
            return frozenset(texts)
    return None
