"""Analysis results on disk: fingerprints, staleness, atomic writes.

A result lives at `results/<analysis>/<profile>.json`, its figures beside it in
`results/<analysis>/<profile>/`. A result is *current* when its fingerprint
matches: the SHA-256 of the analysis module's source and of every module of
`analysis/` it imports (found by reading import statements, transitively), the
profile name, and the installed versions of jax, jaxlib, numpy and optax.
Nothing here imports JAX, so checking staleness is cheap.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from litrec.registry import Registry

RESULT_FORMAT = 1
VERSIONED = ("jax", "jaxlib", "numpy", "optax")


def package_versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for name in VERSIONED:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def _imported_modules(source: str, package: str, current: str) -> set[str]:
    """Modules of `package` imported by a module's source (absolute and relative)."""
    found: set[str] = set()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return found
    cur_pkg = current.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == package or alias.name.startswith(package + "."):
                    found.add(alias.name)
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
    return found


def code_files(registry: Registry, name: str) -> dict[str, str]:
    """Relative path -> SHA-256 of the analysis module and the helpers it imports."""
    root = registry.path.parent  # analysis/
    package = root.name
    start = f"{package}.{registry.entries[name].module}"
    todo, seen, hashes = [start], set(), {}
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
        raw = path.read_bytes()
        hashes[path.relative_to(root.parent).as_posix()] = hashlib.sha256(raw).hexdigest()
        todo.extend(_imported_modules(raw.decode("utf-8", "replace"), package, mod))
    return dict(sorted(hashes.items()))


@dataclass(frozen=True)
class Fingerprint:
    code_hash: str
    files: dict[str, str]
    profile: str
    versions: dict[str, str | None]

    def matches(self, result: dict) -> bool:
        return (
            result.get("format") == RESULT_FORMAT
            and result.get("code_hash") == self.code_hash
            and result.get("profile") == self.profile
            and {k: result.get("versions", {}).get(k) for k in VERSIONED} == self.versions
        )

    def why_stale(self, result: dict) -> str:
        if result.get("code_hash") != self.code_hash:
            old = result.get("code_files", {})
            changed = [f for f, h in self.files.items() if old.get(f) != h]
            changed += [f for f in old if f not in self.files]
            return "code changed: " + ", ".join(changed or ["(unknown)"])
        got = result.get("versions", {})
        diff = [f"{k} {got.get(k)} -> {v}" for k, v in self.versions.items() if got.get(k) != v]
        if diff:
            return "versions changed: " + ", ".join(diff)
        return "result format changed"


def fingerprint(registry: Registry, name: str, profile: str,
                versions: dict[str, str | None] | None = None) -> Fingerprint:
    files = code_files(registry, name)
    h = hashlib.sha256()
    for path, digest in files.items():
        h.update(f"{path}\0{digest}\n".encode())
    return Fingerprint(h.hexdigest(), files, profile, versions or package_versions())


def result_path(results_dir: Path, name: str, profile: str) -> Path:
    return Path(results_dir) / name / f"{profile}.json"


def figure_dir(results_dir: Path, name: str, profile: str) -> Path:
    return Path(results_dir) / name / profile


def load_result(results_dir: Path, name: str, profile: str) -> dict | None:
    path = result_path(results_dir, name, profile)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_result(results_dir: Path, name: str, profile: str, payload: dict,
                 figures: dict[str, bytes]) -> Path:
    """Write a result and its figures so that a crash at any point leaves the old one whole.

    Figures go to a fresh temporary folder that replaces the old folder only once
    complete; the JSON is written to a temporary file and renamed over the old one.
    """
    out = result_path(results_dir, name, profile)
    out.parent.mkdir(parents=True, exist_ok=True)
    figs = figure_dir(results_dir, name, profile)
    tmp_dir = Path(tempfile.mkdtemp(prefix=f".{profile}-", dir=out.parent))
    tmp_json = None
    try:
        for fname, data in figures.items():
            (tmp_dir / fname).write_bytes(data)
        text = json.dumps(payload, indent=2, sort_keys=False, default=_json_default) + "\n"
        fd, tmp_json = tempfile.mkstemp(prefix=f".{profile}-", suffix=".json", dir=out.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        old = None
        if figs.exists():
            old = out.parent / f".{profile}-old-{os.getpid()}"
            figs.rename(old)
        tmp_dir.rename(figs)
        os.replace(tmp_json, out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if tmp_dir.exists():
            shutil.rmtree(tmp_dir, ignore_errors=True)
        if tmp_json is not None and os.path.exists(tmp_json):
            os.unlink(tmp_json)
    return out


def _json_default(obj: Any):
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if hasattr(obj, "isoformat"):
        return obj.isoformat()
    return str(obj)
