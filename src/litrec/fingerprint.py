"""Fingerprints: what a result was computed from, so that a change makes it stale.

A result's fingerprint is the SHA-256 of the analysis module's source and of
every module of `analysis/` it imports (found by reading import statements,
transitively), the profile name, and the installed versions of the
third-party packages those modules import. An analysis that imports JAX (or
optax, or jaxlib) records jax, jaxlib, numpy and optax, as results always
have; one that imports no JAX records the distributions of what it does
import (numpy, matplotlib, ...), so a new JAX release leaves it current.
Nothing here imports JAX, so checking staleness is cheap.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from litrec.confine import Refused, project_root, read_file
from litrec.sourcefacts import fact

if TYPE_CHECKING:  # a worker checks its code without the registry (and pydantic)
    from litrec.registry import Registry

RESULT_FORMAT = 2  # 2: sealed (content hash), pre-registered expectations, seeds
VERSIONED = ("jax", "jaxlib", "numpy", "optax")  # what an analysis that imports JAX records
JAX_IMPORTS = frozenset({"jax", "jaxlib", "optax"})


def package_versions(names=VERSIONED) -> dict[str, str | None]:
    """Installed versions of the named distributions, in order (None: not installed).

    Read from the names of the `NAME-VERSION.dist-info` folders on `sys.path`
    (what pip installs), in the order `importlib.metadata` searches; only a
    distribution installed otherwise costs importing `importlib.metadata`, whose
    import alone is a tenth of a no-op `litrec run`.
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


def _imports(tree: ast.AST, package: str, current: str) -> tuple[frozenset[str], frozenset[str]]:
    """(modules of `package` a module imports, top-level names of the other modules it imports).

    Both absolute and relative imports of `package` count; the other names are
    those of absolute imports (`numpy`, `jax`, `dataclasses`, ...).
    """
    found: set[str] = set()
    tops: set[str] = set()
    cur_pkg = current.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == package or alias.name.startswith(package + "."):
                    found.add(alias.name)
                tops.add(alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = cur_pkg.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
                if mod:
                    tops.add(mod.split(".")[0])
            if mod == package or mod.startswith(package + "."):
                found.add(mod)
                for alias in node.names:  # `from analysis import lsa` names a module
                    found.add(f"{mod}.{alias.name}")
    return frozenset(found), frozenset(tops - {package})


def _module_imports(project: Path, digest: str, raw: bytes, package: str, current: str):
    """`_imports` of a module's source (SHA-256 `digest`), parsed once per content and name,
    then kept (`litrec.sourcefacts`): the analyses share their helpers, and a no-op run
    parses nothing."""
    def compute():
        try:
            tree = ast.parse(raw.decode("utf-8", "replace"))
        except SyntaxError:
            return [[], []]
        return [sorted(names) for names in _imports(tree, package, current)]

    modules, tops = fact(project, f"imports {package} {current}", raw, compute, digest)
    return modules, set(tops)


def analysis_imports(registry: Registry, name: str) -> tuple[dict[str, str], set[str]]:
    """The analysis's code files (relative path -> SHA-256) and the top-level names of the
    other modules they import (`numpy`, `jax`, `dataclasses`, ...)."""
    return module_imports(registry.path.parent, registry.entries[name].module)


def module_imports(root: Path, module: str) -> tuple[dict[str, str], set[str]]:
    """`analysis_imports` of the module `module` of the analysis package in folder `root`
    (what a worker checks, with no registry at hand)."""
    package = root.name
    start = f"{package}.{module}"
    project = project_root(root)
    todo, seen, hashes, tops = [start], set(), {}, set()
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        seen.add(mod)
        parts = mod.split(".")[1:]
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
        hashes[path.relative_to(root.parent).as_posix()] = digest
        modules, names = _module_imports(project, digest, raw, package, mod)
        todo.extend(modules)
        tops |= names
    return dict(sorted(hashes.items())), tops


@dataclass(frozen=True)
class Fingerprint:
    """What a result is computed from: code hashes, profile, package versions."""

    code_hash: str
    files: dict[str, str]
    profile: str
    versions: dict[str, str | None]

    def matches(self, result: dict) -> bool:
        """Whether a stored result was computed from exactly this."""
        return (
            result.get("format") == RESULT_FORMAT
            and result.get("code_hash") == self.code_hash
            and result.get("profile") == self.profile
            and {k: (result.get("versions") or {}).get(k) for k in self.versions} == self.versions
        )

    def why_stale(self, result: dict) -> str:
        """What changed since the result was computed, in words."""
        if result.get("code_hash") != self.code_hash:
            old = result.get("code_files", {})
            changed = [f for f, h in self.files.items() if old.get(f) != h]
            changed += [f for f in old if f not in self.files]
            return "code changed: " + ", ".join(changed or ["(unknown)"])
        got = result.get("versions") or {}
        diff = [f"{k} {got.get(k)} -> {v}" for k, v in self.versions.items() if got.get(k) != v]
        if diff:
            return "versions changed: " + ", ".join(diff)
        return "result format changed"


def fingerprint(registry: Registry, name: str, profile: str,
                versions: dict[str, str | None] | None = None) -> Fingerprint:
    """The fingerprint of an analysis for a profile, as the code and packages are now.

    `versions` holds versions already read (distribution -> version); the ones
    this analysis needs and it lacks are read and added, so that callers can
    share one dict between analyses.
    """
    files, imports = analysis_imports(registry, name)
    h = hashlib.sha256()
    for path, digest in files.items():
        h.update(f"{path}\0{digest}\n".encode())
    known = versions if versions is not None else {}
    packages = versioned_packages(imports)
    missing = [p for p in packages if p not in known]
    if missing:
        known.update(package_versions(missing))
    return Fingerprint(h.hexdigest(), files, profile, {p: known[p] for p in packages})
