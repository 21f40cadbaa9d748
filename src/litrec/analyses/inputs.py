"""A result's inputs: everything a fresh run's numbers depend on, in one model.

`result_inputs(registry, name, profile)` is the one function every consumer
calls (staleness in `litrec.results.state`, the runner and its workers, the run memo,
`site serve`'s watcher). What it returns, `Inputs`, holds

- **code**: the SHA-256 of the analysis module and of every module of
  `analysis/` it imports, transitively, found by reading the sources: `import`
  statements, and modules loaded by name, `importlib.import_module("analysis.x")`
  or `__import__("x")` with a literal name. A name computed at run time is
  refused (`problems`), with the line, unless the module lists what it may load
  in `IMPORTS = ("analysis.x", ...)`; `code_hash` is the SHA-256 of those hashes;
- **data**: the files the analysis reads, declared in its module (or a helper it
  imports) as `DATA = ("data/prices.csv", "analysis/tables/*.json")`: paths or
  globs relative to the project folder, each inside the project and matching at
  least one regular file (like DVC's `deps`); each file's SHA-256;
- **versions**: the installed distributions it imports, wherever installed (the
  project's own `.venv` included). An analysis that imports JAX (or optax, or
  jaxlib) records jax, jaxlib, numpy and optax, as results always have; one that
  imports no JAX records the distributions of what it does import; an editable install
  (`pip install -e`) by the SHA-256 of the files it loads (`litrec.analyses.packages.package_versions`);
- **dependencies**: what its imports' distributions require, transitively (installed metadata,
  `litrec.analyses.packages.dependencies`), each with its version or, installed editable, the SHA-256
  of its sources; stored apart (a result written before them is judged on the rest);
- **python**: the interpreter; **env**: the variables that can change numbers (`litrec.analyses.numerics`);
- **isa**: the machine and the CPU's instruction-set features that change what
  XLA and the BLAS libraries compile, hence float round-off (`litrec.analyses.machine`),
  for an analysis that imports a compiled numerics package (`NUMERIC_IMPORTS`);
  None for one that does not.

A result stores all of it (`record`), is current only when every part matches (`matches`), and
is stale when it lacks a part (written before litrec kept it); `why_stale` says what differs. Its
claims' expectations are stored with it and compared by `litrec.verdicts.claims`.

Reading the sources is cheap: what a module imports and declares is kept per content
(`litrec.cache.sourcefacts`); nothing here imports JAX. The runner imports an analysis from
the very bytes hashed here (`litrec.analyses.analysisimport`, never a `.pyc`).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import hashlib
import platform
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from litrec.analyses.datafiles import data_files, watch_paths
from litrec.analyses.environ import declared_values, env_diff, environ_changed
from litrec.analyses.importscan import read_source
from litrec.analyses.machine import other_cores, other_cpu
from litrec.analyses.numerics import numeric_env
from litrec.analyses.packages import (
    JAX_IMPORTS,
    VERSIONED,
    dependencies,
    dependency_versions,
    package_versions,
    version_changes,
    versioned_packages,
)
from litrec.cache.sourcefacts import fact
from litrec.util.canonical import canonical_digest
from litrec.util.confine import Refused, project_root, read_file
from litrec.util.cores import usable_cores
from litrec.util.errors import InputsChanged

__all__ = ["JAX_IMPORTS", "RESULT_FORMAT", "VERSIONED", "Inputs", "analysis_inputs",
           "data_files", "environment", "module_closure", "module_imports", "package_versions",
           "result_inputs", "watch_paths"]

RESULT_FORMAT = 2  # 2: sealed (content hash), pre-registered expectations, seeds
# The packages of compiled numerics whose float round-off follows the CPU's instruction set.
NUMERIC_IMPORTS = frozenset({"jax", "jaxlib", "optax", "numpy", "scipy", "sklearn", "torch",
                             "tensorflow", "numba"})


# ---------------------------------------------------------------- the machine


def interpreter() -> str:
    """The Python interpreter: implementation and version (`CPython 3.12.3`)."""
    return f"{platform.python_implementation()} {platform.python_version()}"


def machine_cores() -> int:
    """The cores this process may run on: XLA splits its sums by them, so they change float
    round-off too (`litrec.analyses.machine`)."""
    return usable_cores()


@functools.lru_cache(maxsize=1)
def machine_isa() -> tuple[str, ...]:
    """The machine and its instruction-set features that change float round-off
    (`x86_64`, then `litrec.analyses.machine.ISA_FLAGS` the CPU has)."""
    from litrec.analyses.machine import cpu_isa

    return (platform.machine(), *cpu_isa())


# ---------------------------------------------------------------- reading the sources


def _module_facts(project: Path, digest: str, raw: bytes, package: str, current: str,
                  path: str) -> dict:
    """`read_source` of a module's source (SHA-256 `digest`), parsed once per content and name,
    then kept (`litrec.cache.sourcefacts`): the analyses share their helpers, and a no-op run
    parses nothing."""
    def compute():
        try:
            tree = ast.parse(raw.decode("utf-8", "replace"))
        except SyntaxError:
            return {"modules": [], "tops": [], "data": [], "problems": []}
        return read_source(tree, package, current, path)

    return fact(project, f"inputs {package} {current} {path}", raw, compute, digest)


@dataclass
class Closure:
    """The modules of an analysis package one module imports, and what they declare."""

    files: dict[str, str]                     # path relative to the project -> SHA-256
    tops: set[str]                            # top-level names of the other modules imported
    data: list[str] = field(default_factory=list)      # declared DATA patterns, in order
    env: list[str] = field(default_factory=list)       # declared ENV variables, in order
    problems: list[str] = field(default_factory=list)  # located


def module_closure(root: Path, module: str) -> Closure:
    """The import closure of module `module` of the analysis package in folder `root`."""
    package = root.name
    start = f"{package}.{module}"
    project = project_root(root)
    todo, seen = [start], set()
    out = Closure({}, set())
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        seen.add(mod)
        parts = mod.split(".")[1:]
        todo += [".".join([package, *parts[:i]]) for i in range(len(parts))]  # its packages run too
        path = root.joinpath(*parts).with_suffix(".py") if parts else root / "__init__.py"
        if not path.is_file():
            pkg_init = root.joinpath(*parts, "__init__.py")
            if not pkg_init.is_file():
                continue  # a name imported from a module, not a module itself
            path = pkg_init
        try:
            raw = read_file(path, project)
        except (Refused, OSError):
            continue  # not a module litrec reads (a link out, a FIFO): the registry reports it
        digest = hashlib.sha256(raw).hexdigest()
        rel = path.relative_to(root.parent).as_posix()
        out.files[rel] = digest
        facts = _module_facts(project, digest, raw, package, mod, rel)
        todo.extend(facts["modules"])
        out.tops |= set(facts["tops"])
        out.data += [d for d in facts["data"] if d not in out.data]
        out.env += [e for e in facts.get("env", ()) if e not in out.env]
        out.problems += facts["problems"]
    out.files = dict(sorted(out.files.items()))
    return out


def module_imports(root: Path, module: str) -> tuple[dict[str, str], set[str]]:
    """(code files, top-level names imported) of `module_closure` (what a worker checks)."""
    closure = module_closure(root, module)
    return closure.files, closure.tops


# ---------------------------------------------------------------- the model


class ModuleAt(Protocol):
    """Where an analysis module lives, as a run names it (a point of a sweep is one): the
    project folder, the analysis package's name in it, the module's name in the package."""

    @property
    def root(self) -> str:
        """The project folder holding the analysis package."""
        ...

    @property
    def package(self) -> str:
        """The analysis package's name (`analysis`)."""
        ...

    @property
    def module(self) -> str:
        """The module's name in the package (`prop1_identity`)."""
        ...


class Declared(Protocol):
    """What `result_inputs` reads of an analysis's registry entry: its module's name."""

    @property
    def module(self) -> str:
        """The module's name in the analysis package."""
        ...


class Analyses(Protocol):
    """What `result_inputs` reads of the registry (`litrec.analyses.registry.Registry`, which
    imports this module): its file, whose folder is the analysis package, and its entries."""

    @property
    def path(self) -> Path:
        """The registry file (`analysis/registry.yaml`)."""
        ...

    @property
    def entries(self) -> Mapping[str, Declared]:
        """Each analysis's entry, by name."""
        ...


@dataclass(frozen=True)
class Inputs:
    """Everything a result of one analysis for one profile is computed from."""

    code_hash: str
    files: dict[str, str]
    profile: str
    versions: dict[str, str | None]
    data: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    python: str = ""
    isa: tuple[str, ...] | None = None
    cores: int | None = None         # the cores it may run on; with `isa`, for numeric analyses only
    problems: tuple[str, ...] = ()   # located: what keeps these inputs from being known
    patterns: tuple[str, ...] = ()   # the DATA entries that `data` was expanded from
    deps: dict[str, str | None] = field(default_factory=dict)  # the distributions those require
    environ: dict[str, str | None] = field(default_factory=dict)  # the ENV declared: value, None unset

    @property
    def uses_jax(self) -> bool:
        """Whether the analysis imports JAX (it records JAX's version)."""
        return "jax" in self.versions

    def record(self) -> dict:
        """What a result stores of its inputs beside `code_hash`, `code_files` and `versions`."""
        return {"data": dict(self.data), "env": dict(self.env), "python": self.python,
                "isa": list(self.isa) if self.isa is not None else None, "cores": self.cores,
                **({"environ": dict(self.environ)} if self.environ else {})}  # only where declared

    def header(self) -> dict:
        """The inputs a result stores (what `matches` reads); also a run's marker (`resume.mark`)."""
        return {"format": RESULT_FORMAT, "profile": self.profile, "code_hash": self.code_hash,
                "code_files": dict(self.files), "versions": dict(self.versions), "inputs": self.record(),
                "dependencies": self.deps}

    def key(self) -> str:
        """A hash of every input: a key for what is computed from them."""
        body = {"code": self.code_hash, "profile": self.profile, "versions": self.versions,
                **self.record(), "problems": list(self.problems), "dependencies": self.deps}
        return canonical_digest(body, ascii=True, compact=False)  # the form results were keyed in

    def matches(self, result: dict) -> bool:
        """Whether a stored result was computed from exactly this."""
        return (
            not self.problems
            and result.get("format") == RESULT_FORMAT
            and result.get("code_hash") == self.code_hash
            and result.get("profile") == self.profile
            and {k: (result.get("versions") or {}).get(k) for k in self.versions} == self.versions
            and stored_inputs(result) == self.record()
            and result.get("dependencies", self.deps) == self.deps
        )

    def only_machine_differs(self, result: dict) -> bool:
        """Whether the stored result was computed from these inputs on a CPU with other
        instruction-set features or with another number of usable cores: the project's inputs
        (code, data, profile, packages, interpreter, numerics environment) are the same; only
        the machine is not. Its float32 digits may differ here (measured: a result of the same
        code on another CPU differs from the 7th significant digit), so it is stale here, but
        not behind its project (`litrec status --check-current --any-machine`)."""
        stored = stored_inputs(result)
        if self.matches(result) or not isinstance(stored, dict) or self.isa is None:
            return False
        if not isinstance(stored.get("isa"), list):
            return False
        return dataclasses.replace(self, isa=tuple(stored["isa"]), cores=stored.get("cores")).matches(result)

    def check_unchanged(self, where: ModuleAt, name: str) -> None:
        """InputsChanged unless the inputs of analysis `name`, module `where.module` of the
        package `where.package` in the folder `where.root`, are still these (an edit while it ran
        would store its numbers under inputs they are not)."""
        now = analysis_inputs(Path(where.root) / where.package, where.module, self.profile)
        if now.key() != self.key():
            raise InputsChanged(f"analysis '{name}': its inputs changed while it ran "
                                f"({now.why_stale(self.header())}); nothing was stored: run again")

    def why_stale(self, result: dict) -> str:
        """What changed since the result was computed, in words."""
        if self.problems:
            return "; ".join(self.problems)
        if result.get("code_hash") != self.code_hash:
            old = result.get("code_files", {})
            changed = [f for f, h in self.files.items() if old.get(f) != h]
            changed += [f for f in old if f not in self.files]
            return "code changed: " + ", ".join(changed or ["(unknown)"])
        diff = version_changes(result.get("versions") or {}, self.versions, self.versions)  # editable: hash
        if diff:
            return "versions changed: " + ", ".join(diff)
        deps = result.get("dependencies", self.deps)
        diff = version_changes(deps if isinstance(deps, dict) else {}, self.deps)
        if diff:
            return "dependencies changed: " + ", ".join(diff)
        stored = stored_inputs(result)
        if not isinstance(stored, dict):
            return ("the result records no data files, numerics environment, interpreter or "
                    "instruction set (written by an older litrec); rerun it to record them")
        now = self.record()
        parts = []
        old = stored.get("data")
        old_data = old if isinstance(old, dict) else {}
        changed = sorted(f for f in set(old_data) | set(self.data) if old_data.get(f) != self.data.get(f))
        if changed:
            parts.append("data changed: " + ", ".join(changed))
        if stored.get("env") != now["env"]:
            parts.append(f"numerics environment changed: {env_diff(stored.get('env'), self.env)}")
        parts += [w] if (w := environ_changed(stored.get("environ"), self.environ)) else []  # ENV
        if stored.get("python") != now["python"]:
            parts.append(f"interpreter changed: {stored.get('python')} -> {self.python}")
        if stored.get("isa") != now["isa"]:
            parts.append(other_cpu(result, stored.get("isa"), now["isa"]))
        elif stored.get("cores") != now["cores"]:
            parts.append(other_cores(stored.get("cores"), now["cores"]))
        if parts:
            return "; ".join(parts)
        if result.get("profile") != self.profile:
            return f"profile changed: {result.get('profile')} -> {self.profile}"
        return "result format changed"


def stored_inputs(result: dict) -> dict | None:
    """A stored result's `inputs`, with the cores it ran on filled in for one stored before they
    were among them: litrec never confined a run, so such a result could use every CPU its
    platform reports (`platform.cpu_count`); None for an analysis without an instruction set."""
    stored = result.get("inputs")
    if not isinstance(stored, dict) or "cores" in stored:
        return stored
    plat = result.get("platform")
    count = plat.get("cpu_count") if isinstance(plat, dict) else None
    ran_on = count if isinstance(stored.get("isa"), list) and isinstance(count, int) else None
    return {**stored, "cores": ran_on}


def result_inputs(registry: Analyses, name: str, profile: str,
                  versions: dict[str, str | None] | None = None) -> Inputs:
    """The inputs of analysis `name` of `registry` for `profile`, as they are now.

    `versions` holds versions already read (distribution -> version); the ones
    this analysis needs and it lacks are read and added, so that callers can
    share one dict between analyses.
    """
    return analysis_inputs(registry.path.parent, registry.entries[name].module, profile, versions)


def analysis_inputs(root: Path, module: str, profile: str,
                    versions: dict[str, str | None] | None = None) -> Inputs:
    """`result_inputs` of module `module` of the analysis package in folder `root` (what a
    worker or the run memo checks, with no registry at hand)."""
    root = Path(root)
    closure = module_closure(root, module)
    h = hashlib.sha256()
    for path, digest in closure.files.items():
        h.update(f"{path}\0{digest}\n".encode())
    known = versions if versions is not None else {}
    project = project_root(root)
    packages = versioned_packages(closure.tops, project)
    missing = [p for p in packages if p not in known]
    if missing:
        known.update(package_versions(missing))
    data, data_problems = data_files(project, closure.data)
    numeric = bool(closure.tops & NUMERIC_IMPORTS)
    return Inputs(h.hexdigest(), closure.files, profile, {p: known[p] for p in packages},
                  data, numeric_env(), interpreter(), machine_isa() if numeric else None,
                  machine_cores() if numeric else None, tuple(closure.problems + data_problems),
                  tuple(closure.data), dependency_versions(dependencies(closure.tops, packages, project)),
                  declared_values(closure.env))


def environment() -> dict:
    """The inputs every result shares, whatever its analysis: the interpreter, the numerics
    environment and the machine's instruction set (what the run memo keys on)."""
    return {"python": interpreter(), "executable": sys.executable, "env": numeric_env(),
            "isa": list(machine_isa()), "cores": machine_cores()}
