"""A new analysis from the contract: `litrec new analysis NAME`.

Three files, each valid as it is: the module `analysis/<module>.py` (a frozen
`Config` with a seed, `PROFILES` quick and paper, a NumPy-only `run` that
returns metrics, a figure and their noise; nothing runs at import), its entry
appended to `analysis/registry.yaml` (the file's comments kept), and its test
`tests/analyses/test_<module>.py`, which imports it and runs the quick
profile. The name is the registry's (lower-case words joined by '-'); the
module is the name with '_' for '-'.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from pathlib import Path

from litrec.analyses.contract import source_problems
from litrec.analyses.registry import Entry
from litrec.records.newrecord import display, write_new, write_replace, yaml_scalar
from litrec.util.confine import Refused, project_root, read_file
from litrec.util.errors import InputError
from litrec.util.yamlsafe import MAX_BYTES, YamlProblem, load_bytes, locate

NAME_RULE = "lower-case words joined by '-', starting with a letter (e.g. lln-uniform-mean)"
_NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")

_MODULE = '''\
"""{title}.

Which claim this analysis regenerates (RECORD#ID), what it computes and how
that answers the claim. Scaffolded by `litrec new analysis {name}`: replace
the example computation (the mean of standard normal draws) with your own.
The contract is in site/writing-analyses.md.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure


@dataclass(frozen=True)
class Config:
    """The settings of one run; every random quantity derives from `seed`."""

    seed: int = 0        # the generator of every random quantity
    n: int = 100_000     # number of draws


PROFILES = {{
    "quick": Config(n=2_000),   # seconds on a CPU: what the tests run
    "paper": Config(),          # the paper's settings
}}

# An analysis that trains a model runs several seeds; each runs `run` once with
# `config.seed` set, and claims are judged on the interval over seeds:
# SEEDS = {{"quick": (0, 1, 2), "paper": (0, 1, 2)}}


def run(config: Config, progress=None) -> dict:
    """The analysis for one configuration: its metrics, figures and evaluation noise."""
    rng = np.random.default_rng(config.seed)
    xs = rng.standard_normal(config.n)  # (n,)
    if progress is not None:
        progress(1, 1, "draws")
    fig = Figure()
    ax = fig.subplots()
    ax.hist(xs, bins=40)
    ax.set_xlabel("x")
    std = float(xs.std(ddof=1))
    return {{
        "metrics": {{"mean": float(xs.mean()), "std": std}},
        "figures": {{"histogram": fig}},
        "noise": {{"mean": std / float(np.sqrt(config.n))}},  # standard error of the mean
        "notes": [f"{{config.n}} draws"],
    }}
'''

_TEST = '''\
"""The quick profile of {name}: the relation its claim states holds."""

from analysis import {module} as analysis


def test_quick_profile_reports_its_metrics():
    out = analysis.run(analysis.PROFILES["quick"])
    metrics = out["metrics"]
    assert abs(metrics["mean"]) < 5 * out["noise"]["mean"]  # replace: the relation the claim states
    assert 0.9 < metrics["std"] < 1.1
'''


@dataclass(frozen=True)
class NewAnalysis:
    """What `litrec new analysis` writes: paths and their text."""

    name: str
    module: str
    title: str
    module_path: Path
    test_path: Path
    registry_path: Path
    module_text: str
    test_text: str
    registry_text: str  # the whole registry, the new entry appended
    registered_at: int | None = None  # the line of an entry of the same name already there


def module_name(name: str) -> str:
    """The module of an analysis name (`lln-uniform-mean` -> `lln_uniform_mean`); ValueError if bad."""
    module = name.replace("-", "_")
    if not _NAME.match(name) or keyword.iskeyword(module):
        raise ValueError(f"analysis name '{name}' must be {NAME_RULE}"
                         + ("; it is a Python keyword" if _NAME.match(name) else ""))
    return module


def plan(name: str, analysis_dir: Path, title: str | None = None) -> NewAnalysis:
    """The files of a new analysis; ValueError for a bad name, InputError for a broken registry."""
    module = module_name(name)
    title = title or name.replace("-", " ").capitalize()
    analysis_dir = Path(analysis_dir)
    tests = analysis_dir.resolve().parent / "tests" / "analyses"
    registry = analysis_dir / "registry.yaml"
    old, registered_at = _registry_text(registry, name)
    head = old if not old or old.endswith("\n") else old + "\n"
    if not head:
        head = ("# Stable analysis names -> modules under analysis/ (see site/writing-analyses.md).\n"
                "# Plain data, read with a safe YAML loader; nothing here is imported by litrec validate.\n")
    entry = f"\n{name}:\n  module: {module}\n  title: {yaml_scalar(title)}\n"
    new = NewAnalysis(name, module, title, analysis_dir / f"{module}.py",
                      tests / f"test_{module}.py", registry,
                      _MODULE.format(name=name, title=_docstring_text(title.rstrip("."))),
                      _TEST.format(name=name, module=module), head + entry, registered_at)
    if registered_at is None:
        _check(new)
    return new


def existing(new: NewAnalysis) -> str | None:
    """What already holds the name, in words with its place; None when it is free."""
    if new.registered_at is not None:
        return f"analysis '{new.name}' is registered: {display(new.registry_path)}:{new.registered_at}"
    for path in (new.module_path, new.test_path, new.module_path.with_suffix("")):
        if path.exists():
            return f"{display(path)} exists"
    return None


def write(new: NewAnalysis) -> list[Path]:
    """Write the module and its test (never overwriting), then register it; the paths written."""
    written = []
    init = new.module_path.parent / "__init__.py"
    if not init.exists():
        write_new(init, '"""The analyses: one module per registered analysis name."""\n')
        written.append(init)
    write_new(new.module_path, new.module_text)
    write_new(new.test_path, new.test_text)
    write_replace(new.registry_path, new.registry_text)
    return [*written, new.module_path, new.test_path, new.registry_path]


def _registry_text(path: Path, name: str) -> tuple[str, int | None]:
    """The registry's text ("" when there is none) and the line of `name`'s entry in it."""
    if not path.exists():
        return "", None
    try:
        raw = read_file(path, project_root(path.parent), MAX_BYTES)
        text = raw.decode("utf-8")
        if all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
            return text, None  # comments only: no entry yet
        loaded = load_bytes(raw)
    except YamlProblem as p:
        raise InputError(f"{display(path)}:{p.line}:{p.col}: {p.message}; fix the registry "
                         "first") from None
    except Refused as r:
        raise InputError(f"{display(path)}: {r.message}") from None
    except OSError as exc:
        raise InputError(f"{display(path)}: cannot read the registry: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{display(path)}: the registry is not UTF-8 text") from None
    line = locate(loaded.root, (name,), key=True)[0] if name in loaded.data else None
    return text, line


def _docstring_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')


def _check(new: NewAnalysis) -> None:
    """The scaffold keeps the contract and the registry still parses; a failure is a bug here."""
    assert source_problems(new.module_text) == [], source_problems(new.module_text)
    data = load_bytes(new.registry_text.encode("utf-8")).data
    Entry.model_validate(data[new.name])


def new_analysis(analysis_dir: Path, name: str | None, title: str | None = None
                 ) -> tuple[NewAnalysis, list[Path]]:
    """`litrec new analysis NAME` below the command: write the analysis, its registry entry and
    its test; (the analysis, the files written, the registry last). `UsageError` for a name
    that cannot be, `NotCreated` when it is taken."""
    from litrec.util.confine import need_dir
    from litrec.util.errors import NotCreated, UsageError

    if not name:
        raise UsageError(f"give the analysis's name: {NAME_RULE}")
    need_dir(analysis_dir, "analysis")
    try:
        new = plan(name, analysis_dir, title)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    taken = existing(new)
    if taken:
        raise NotCreated(f"{taken}; choose another name")
    try:
        return new, write(new)
    except FileExistsError as exc:  # created since we looked
        raise NotCreated(f"{display(Path(exc.filename))} exists; choose another name") from None
