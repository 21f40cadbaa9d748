"""A result's inputs: everything a fresh run's numbers depend on, in one model.

`result_inputs(registry, name, profile)` is the one function every consumer
calls (staleness in `litrec.state`, the runner and its workers, the run memo,
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
  imports no JAX records the distributions of what it does import;
- **python**: the interpreter (implementation and version);
- **env**: the environment variables that change numbers, `NUMERIC_ENV`, those set;
- **isa**: the machine and the CPU's instruction-set features that change what
  XLA and the BLAS libraries compile, hence float round-off (`litrec.machine`),
  for an analysis that imports a compiled numerics package (`NUMERIC_IMPORTS`);
  None for one that does not.

A result stores all of it (`record`), and is current only when every part
matches (`matches`); a result that lacks a part (written before litrec kept it)
is stale, and `why_stale` says what differs. The claims' expectations a result
was judged against are stored with it and compared by `litrec.verdicts`.

Reading the sources is cheap: what a module imports and declares is kept per
content (`litrec.sourcefacts`), and nothing here imports JAX. The runner
imports an analysis from the very bytes hashed here (`load_analysis` in
`litrec.sweep` compiles the source it checks, never a `.pyc`).
"""

from __future__ import annotations

import ast
import functools
import glob
import hashlib
import itertools
import os
import platform
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from litrec.confine import Refused, project_root, read_file
from litrec.sourcefacts import fact

RESULT_FORMAT = 2  # 2: sealed (content hash), pre-registered expectations, seeds
VERSIONED = ("jax", "jaxlib", "numpy", "optax")  # what an analysis that imports JAX records
JAX_IMPORTS = frozenset({"jax", "jaxlib", "optax"})
# The environment variables that change the numbers an analysis computes: XLA's compiler
# options, JAX's default precision, dtypes, random-bit generator and platform, and Python's
# hash seed (the order of a set of strings).
NUMERIC_ENV = ("XLA_FLAGS", "JAX_ENABLE_X64", "JAX_DEFAULT_MATMUL_PRECISION",
               "JAX_DEFAULT_DTYPE_BITS", "JAX_THREEFRY_PARTITIONABLE", "JAX_PLATFORMS",
               "JAX_PLATFORM_NAME", "JAX_DISABLE_JIT", "PYTHONHASHSEED")
# The packages of compiled numerics whose float round-off follows the CPU's instruction set.
NUMERIC_IMPORTS = frozenset({"jax", "jaxlib", "optax", "numpy", "scipy", "sklearn", "torch",
                             "tensorflow", "numba"})
DATA_NAME = "DATA"        # a module's declared data files
IMPORTS_NAME = "IMPORTS"  # a module's declared modules loaded by a computed name
_GLOB = re.compile(r"[*?\[]")


# ---------------------------------------------------------------- installed packages


def package_versions(names=VERSIONED) -> dict[str, str | None]:
    """Installed versions of the named distributions, in order (None: not installed).

    Read from the names of the `NAME-VERSION.dist-info` folders on `sys.path`
    (what pip installs, in the project's `.venv` or anywhere else), in the order
    `importlib.metadata` searches; only a distribution installed otherwise costs
    importing `importlib.metadata`, whose import alone is a tenth of a no-op `litrec run`.
    """
    found = _dist_info_versions()
    out: dict[str, str | None] = {}
    for name in names:
        out[name] = found.get(_normalized(name)) or _metadata_version(name)
    return out


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


@functools.lru_cache(maxsize=1)
def _dist_info_versions() -> dict[str, str]:
    """Normalised distribution name -> version, from the dist-info folders on sys.path."""
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            if folder.endswith(".dist-info"):
                name, sep, version = folder[: -len(".dist-info")].rpartition("-")
                if sep and name and version:
                    found.setdefault(_normalized(name), version)
    return found


def _metadata_version(name: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


@functools.lru_cache(maxsize=1)
def _distributions_of() -> dict[str, tuple[str, ...]]:
    """Top-level import name -> the installed distributions that provide it."""
    from importlib import metadata

    return {k: tuple(v) for k, v in metadata.packages_distributions().items()}


def versioned_packages(imports) -> tuple[str, ...]:
    """The distributions whose versions a result records, from the top-level names imported.

    With JAX among them: exactly `VERSIONED`. Otherwise the distribution of
    each third-party name (the standard library and names no installed
    distribution provides are left out), sorted.
    """
    tops = set(imports)
    if tops & JAX_IMPORTS:
        return VERSIONED
    dists = {d for top in tops - set(sys.stdlib_module_names) - {"__future__"}
             for d in _distributions_of().get(top, ())}
    return tuple(sorted(dists, key=str.lower))


# ---------------------------------------------------------------- the machine


def interpreter() -> str:
    """The Python interpreter: implementation and version (`CPython 3.12.3`)."""
    return f"{platform.python_implementation()} {platform.python_version()}"


def numeric_env() -> dict[str, str]:
    """The variables of `NUMERIC_ENV` that are set, with their values."""
    return {k: os.environ[k] for k in NUMERIC_ENV if k in os.environ}


@functools.lru_cache(maxsize=1)
def machine_isa() -> tuple[str, ...]:
    """The machine and its instruction-set features that change float round-off
    (`x86_64`, then `litrec.machine.ISA_FLAGS` the CPU has)."""
    from litrec.machine import cpu_isa

    return (platform.machine(), *cpu_isa())


# ---------------------------------------------------------------- reading the sources


def _literal_strings(node: ast.AST | None) -> list[str] | None:
    """The strings of a literal tuple or list of strings (or of one string); None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    return None


def _loaded_by_name(node: ast.Call) -> str | None:
    """'import_module' or '__import__' when the call loads a module by name."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return name if name in ("import_module", "__import__") else None


def _resolve(name: str, package_arg: str | None, cur_pkg: str) -> str | None:
    """The absolute module name of `import_module(name, package)`; None when unknown."""
    if not name.startswith("."):
        return name
    base = package_arg if package_arg is not None else None
    if base is None:
        return None
    level = len(name) - len(name.lstrip("."))
    parts = base.split(".")
    parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
    rest = name[level:]
    return ".".join(parts + ([rest] if rest else []))


def _read_source(tree: ast.AST, package: str, current: str, path: str) -> dict:
    """What a module's source says of its inputs: the modules of `package` it imports (by
    statement or by a literal name), the top-level names of the others, its declared
    DATA, and the problems (a module loaded by a computed name, a DATA that is not literal)."""
    found: set[str] = set()
    tops: set[str] = set()
    data: list[str] = []
    problems: list[str] = []
    cur_pkg = current.rpartition(".")[0]

    def add(mod: str) -> None:
        if mod == package or mod.startswith(package + "."):
            found.add(mod)
        else:
            tops.add(mod.split(".")[0])

    declared = None
    for node in getattr(tree, "body", []):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if DATA_NAME in names:
                values = _literal_strings(node.value)
                if values is None:
                    problems.append(f"{path}:{node.lineno}: {DATA_NAME} must be a literal tuple "
                                    "of paths or globs relative to the project folder, e.g. "
                                    f"{DATA_NAME} = (\"data/prices.csv\",)")
                else:
                    data += values
            if IMPORTS_NAME in names:
                declared = _literal_strings(node.value)
                if declared is None:
                    problems.append(f"{path}:{node.lineno}: {IMPORTS_NAME} must be a literal tuple "
                                    f"of module names, e.g. {IMPORTS_NAME} = (\"{package}.helper\",)")
                    declared = []
                for mod in declared:
                    add(mod)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = cur_pkg.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod == package or mod.startswith(package + "."):
                found.add(mod)
                for alias in node.names:  # `from analysis import lsa` names a module
                    found.add(f"{mod}.{alias.name}")
            elif mod:
                tops.add(mod.split(".")[0])
        elif isinstance(node, ast.Call) and _loaded_by_name(node):
            how = _loaded_by_name(node)
            first = node.args[0] if node.args else None
            pkg = node.args[1] if len(node.args) > 1 and how == "import_module" else None
            pkg = pkg or next((k.value for k in node.keywords if k.arg == "package"), None)
            name = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) \
                else None
            pkg_name = (pkg.value if isinstance(pkg, ast.Constant) and isinstance(pkg.value, str)
                        else None if pkg is not None else cur_pkg)
            resolved = _resolve(name, pkg_name, cur_pkg) if name is not None else None
            if resolved is not None:
                add(resolved)
            elif declared is None:
                problems.append(
                    f"{path}:{node.lineno}: {how}() loads a module whose name is worked out at "
                    "run time, so litrec cannot tell which code the result depends on; import "
                    f"the module by name, or list every module it may load in {IMPORTS_NAME} = "
                    f"(\"{package}.name\", ...) at the top of the module")
    return {"modules": sorted(found), "tops": sorted(tops - {package}), "data": data,
            "problems": problems}


def _module_facts(project: Path, digest: str, raw: bytes, package: str, current: str,
                  path: str) -> dict:
    """`_read_source` of a module's source (SHA-256 `digest`), parsed once per content and name,
    then kept (`litrec.sourcefacts`): the analyses share their helpers, and a no-op run
    parses nothing."""
    def compute():
        try:
            tree = ast.parse(raw.decode("utf-8", "replace"))
        except SyntaxError:
            return {"modules": [], "tops": [], "data": [], "problems": []}
        return _read_source(tree, package, current, path)

    return fact(project, f"inputs {package} {current} {path}", raw, compute, digest)


@dataclass
class Closure:
    """The modules of an analysis package one module imports, and what they declare."""

    files: dict[str, str]                     # path relative to the project -> SHA-256
    tops: set[str]                            # top-level names of the other modules imported
    data: list[str] = field(default_factory=list)      # declared DATA patterns, in order
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
        out.problems += facts["problems"]
    out.files = dict(sorted(out.files.items()))
    return out


def module_imports(root: Path, module: str) -> tuple[dict[str, str], set[str]]:
    """(code files, top-level names imported) of `module_closure` (what a worker checks)."""
    closure = module_closure(root, module)
    return closure.files, closure.tops


def data_files(project: Path, patterns: list[str]) -> tuple[dict[str, str], list[str]]:
    """The declared data files (path relative to the project -> SHA-256) and the problems:
    a pattern that leaves the project or matches no regular file inside it."""
    project = Path(project)
    files: dict[str, str] = {}
    problems: list[str] = []
    for pattern in patterns:
        pure = Path(pattern)
        if pure.is_absolute() or ".." in pure.parts or not pattern.strip():
            problems.append(f"{DATA_NAME} entry '{pattern}' must be a path or glob relative to "
                            f"the project folder {project}, without '..'")
            continue
        paths = (sorted(project / p for p in glob.glob(pattern, root_dir=project, recursive=True))
                 if _GLOB.search(pattern) else [project / pattern])
        paths = [p for p in paths if "__pycache__" not in p.parts]
        matched = 0
        for path in paths:
            if path.is_dir() and not path.is_symlink():
                continue
            try:
                raw = read_file(path, project)
            except FileNotFoundError:
                continue
            except Refused as r:
                problems.append(f"{DATA_NAME} entry '{pattern}': {r.message}")
                continue
            except OSError as exc:
                problems.append(f"{DATA_NAME} entry '{pattern}': {path} cannot be read "
                                f"({exc.strerror or exc})")
                continue
            files[path.relative_to(project).as_posix()] = hashlib.sha256(raw).hexdigest()
            matched += 1
        if not matched and not any(p.startswith(f"{DATA_NAME} entry '{pattern}'") for p in problems):
            problems.append(f"{DATA_NAME} entry '{pattern}' matches no file in {project}; add the "
                            "file, or correct the entry")
    return dict(sorted(files.items())), problems


def watch_paths(project: Path, patterns) -> set[tuple[Path, bool]]:
    """The folders to watch for the declared data `patterns`, each with whether to watch it
    recursively: a file's folder, or a glob's folder above its first wildcard."""
    out = set()
    for pattern in patterns:
        parts = Path(pattern).parts
        if Path(pattern).is_absolute() or ".." in parts:
            continue
        fixed = [p for p in itertools.takewhile(lambda p: not _GLOB.search(p), parts)]
        if len(fixed) == len(parts):
            out.add((Path(project, *fixed[:-1]), False))
        else:
            out.add((Path(project, *fixed), True))
    return out


# ---------------------------------------------------------------- the model


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
    problems: tuple[str, ...] = ()   # located: what keeps these inputs from being known
    patterns: tuple[str, ...] = ()   # the DATA entries that `data` was expanded from

    @property
    def uses_jax(self) -> bool:
        """Whether the analysis imports JAX (it records JAX's version)."""
        return "jax" in self.versions

    def record(self) -> dict:
        """What a result stores of its inputs beside `code_hash`, `code_files` and `versions`."""
        return {"data": dict(self.data), "env": dict(self.env), "python": self.python,
                "isa": list(self.isa) if self.isa is not None else None}

    def key(self) -> str:
        """A hash of every input: a key for what is computed from them."""
        import json

        body = {"code": self.code_hash, "profile": self.profile, "versions": self.versions,
                **self.record(), "problems": list(self.problems)}
        return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()

    def matches(self, result: dict) -> bool:
        """Whether a stored result was computed from exactly this."""
        return (
            not self.problems
            and result.get("format") == RESULT_FORMAT
            and result.get("code_hash") == self.code_hash
            and result.get("profile") == self.profile
            and {k: (result.get("versions") or {}).get(k) for k in self.versions} == self.versions
            and result.get("inputs") == self.record()
        )

    def why_stale(self, result: dict) -> str:
        """What changed since the result was computed, in words."""
        if self.problems:
            return "; ".join(self.problems)
        if result.get("code_hash") != self.code_hash:
            old = result.get("code_files", {})
            changed = [f for f, h in self.files.items() if old.get(f) != h]
            changed += [f for f in old if f not in self.files]
            return "code changed: " + ", ".join(changed or ["(unknown)"])
        got = result.get("versions") or {}
        diff = [f"{k} {got.get(k)} -> {v}" for k, v in self.versions.items() if got.get(k) != v]
        if diff:
            return "versions changed: " + ", ".join(diff)
        stored = result.get("inputs")
        if not isinstance(stored, dict):
            return ("the result records no data files, numerics environment, interpreter or "
                    "instruction set (written by an older litrec); rerun it to record them")
        now = self.record()
        parts = []
        old_data = stored.get("data") if isinstance(stored.get("data"), dict) else {}
        changed = sorted(f for f in set(old_data) | set(self.data) if old_data.get(f) != self.data.get(f))
        if changed:
            parts.append("data changed: " + ", ".join(changed))
        if stored.get("env") != now["env"]:
            parts.append(f"numerics environment changed: {_env_diff(stored.get('env'), self.env)}")
        if stored.get("python") != now["python"]:
            parts.append(f"interpreter changed: {stored.get('python')} -> {self.python}")
        if stored.get("isa") != now["isa"]:
            parts.append(f"instruction set changed: {_isa_text(stored.get('isa'))} -> "
                         f"{_isa_text(now['isa'])}")
        if parts:
            return "; ".join(parts)
        if result.get("profile") != self.profile:
            return f"profile changed: {result.get('profile')} -> {self.profile}"
        return "result format changed"


def _env_diff(old, new: dict) -> str:
    old = old if isinstance(old, dict) else {}
    keys = sorted(set(old) | set(new))
    return ", ".join(f"{k} {old.get(k, '(unset)')!s} -> {new.get(k, '(unset)')!s}"
                     for k in keys if old.get(k) != new.get(k)) or "(recorded in another form)"


def _isa_text(isa) -> str:
    return "(not recorded)" if not isinstance(isa, list) else " ".join(map(str, isa)) or "(none)"


def result_inputs(registry: Any, name: str, profile: str,
                  versions: dict[str, str | None] | None = None) -> Inputs:
    """The inputs of analysis `name` of `registry` (`litrec.registry.Registry`) for `profile`,
    as they are now.

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
    packages = versioned_packages(closure.tops)
    missing = [p for p in packages if p not in known]
    if missing:
        known.update(package_versions(missing))
    data, data_problems = data_files(project_root(root), closure.data)
    numeric = bool(closure.tops & NUMERIC_IMPORTS)
    return Inputs(h.hexdigest(), closure.files, profile, {p: known[p] for p in packages},
                  data, numeric_env(), interpreter(), machine_isa() if numeric else None,
                  tuple(closure.problems + data_problems), tuple(closure.data))


def environment() -> dict:
    """The inputs every result shares, whatever its analysis: the interpreter, the numerics
    environment and the machine's instruction set (what the run memo keys on)."""
    return {"python": interpreter(), "executable": sys.executable, "env": numeric_env(),
            "isa": list(machine_isa())}
