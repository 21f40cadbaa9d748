"""The installed distributions an analysis imports, and their versions, without importing them.

Versions are read from the names of the `NAME-VERSION.dist-info` folders on
`sys.path` (what pip installs, in the project's `.venv` or anywhere else);
only a distribution installed otherwise costs importing `importlib.metadata`.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from pathlib import Path

VERSIONED = ("jax", "jaxlib", "numpy", "optax")  # what an analysis that imports JAX records
JAX_IMPORTS = frozenset({"jax", "jaxlib", "optax"})


def package_versions(names=VERSIONED) -> dict[str, str | None]:
    """Installed versions of the named distributions, in order (None: not installed); an
    editable install (`pip install -e`, whose source changes under one version) as
    `editable sha256:HEX`, the SHA-256 of the files its import names load (`editable_source`),
    so that an edit to them is seen, whether the analysis imports it or what it imports
    requires it (litrec aside: a result records its version apart, `_NOT_DEPENDENCIES`).

    Read from the names of the `NAME-VERSION.dist-info` folders on `sys.path`
    (what pip installs, in the project's `.venv` or anywhere else), in the order
    `importlib.metadata` searches; only a distribution installed otherwise costs
    importing `importlib.metadata`, whose import alone is a tenth of a no-op `litrec run`.
    """
    found = dist_info_versions()
    folders = _dist_info_folders()
    out: dict[str, str | None] = {}
    for name in names:
        key = _normalized(name)
        source = editable_source(folders[key], name) if key in folders and key not in _NOT_DEPENDENCIES else None
        out[name] = (f"editable sha256:{source_digest(source)}" if source
                     else found.get(key) or _metadata_version(name))
    return out


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _dist_infos() -> dict[str, tuple[str, str]]:
    """Normalised distribution name -> (its version, its `NAME-VERSION.dist-info` folder), the
    first on sys.path (as `importlib.metadata` searches)."""
    found: dict[str, tuple[str, str]] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            if folder.endswith(".dist-info"):
                name, sep, version = folder[: -len(".dist-info")].rpartition("-")
                if sep and name and version:
                    found.setdefault(_normalized(name), (version, os.path.join(entry or ".", folder)))
    return found


def dist_info_versions() -> dict[str, str]:
    """Normalised distribution name -> version, from the dist-info folders on sys.path."""
    return _dist_info_table(installed_key())[0]


@functools.lru_cache(maxsize=1)  # keyed on the environment: a changed sys.path or an install, read anew
def _dist_info_table(key: bytes) -> tuple[dict[str, str], dict[str, str]]:
    """`_dist_infos` as (name -> version, name -> folder), for the environment `key` names."""
    infos = _dist_infos()
    return ({name: version for name, (version, _) in infos.items()},
            {name: folder for name, (_, folder) in infos.items()})


def _metadata_version(name: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def installed_key() -> bytes:
    """What an install, upgrade or removal of a distribution changes: the interpreter and, in
    each folder on `sys.path`, the name and time of every `.dist-info`, `.egg-info`, `.egg-link`,
    `.egg` and `.pth` entry (pip adds and removes them, never edits one in place). Other files
    are left out: the project folder, on the path when litrec runs as `python -m litrec`,
    changes with every run."""
    parts = [sys.executable, sys.version]
    for entry in sys.path:
        path = os.path.abspath(entry or ".")
        try:
            names = sorted(n for n in os.listdir(path) if n.endswith(_INSTALLED))
        except OSError:
            parts.append(f"{path} -")
            continue
        for name in names:
            try:
                parts.append(f"{path}/{name} {os.stat(os.path.join(path, name)).st_mtime_ns}")
            except OSError:
                parts.append(f"{path}/{name} -")
    return "\n".join(parts).encode()


_INSTALLED = (".dist-info", ".egg-info", ".egg-link", ".egg", ".pth")


def _distributions_of(root: Path | None = None) -> dict[str, tuple[str, ...]]:
    """Top-level import name -> the installed distributions that provide it
    (`importlib.metadata.packages_distributions`, which reads every installed distribution's
    file list: a seventh of a second, in every status). Kept in the project at `root`
    (`litrec.cache.sourcefacts`) under `installed_key`, so a status or run of an unchanged
    environment reads one slot; None: worked out, kept in this process only. The answer is the
    environment's, not the project's: a process that works it out for one project hands it to
    the next project's slot under the same key, where `fact` would work it out again."""
    from litrec.cache.sourcefacts import fact  # which holds this process's answers too

    key = installed_key()
    return fact(Path(root) if root is not None else None, "installed distributions", key,
                lambda: _of_environment(key))


@functools.lru_cache(maxsize=1)  # one environment at a time: a new key drops the old answer
def _of_environment(key: bytes) -> dict[str, tuple[str, ...]]:
    """`_packages_distributions` of the environment `installed_key` names."""
    return _packages_distributions()


def _packages_distributions() -> dict[str, tuple[str, ...]]:
    """`importlib.metadata.packages_distributions`, and the names an editable install loads
    that its file list does not show (`_editable_names`)."""
    from importlib import metadata

    out = {k: tuple(v) for k, v in metadata.packages_distributions().items()}
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        for top in _editable_names(dist) if name else ():
            if name not in out.get(top, ()):
                out[top] = (*out.get(top, ()), name)
    return out


def _editable_names(dist) -> set[str]:
    """The top-level names an editable install (PEP 610's `dir_info.editable`) loads: its
    file list holds no module, only how to find them: the keys of the `MAPPING` of a setuptools
    `__editable___*_finder.py` (name -> folder), and the modules and packages of the folders a
    `.pth` file of it puts on the path (setuptools' src layout, hatchling, flit)."""
    import ast
    import json

    try:
        direct = json.loads(dist.read_text("direct_url.json") or "null")
    except ValueError:
        return set()
    if not (isinstance(direct, dict) and isinstance(direct.get("dir_info"), dict)
            and direct["dir_info"].get("editable")):
        return set()
    names: set[str] = set()
    for file in dist.files or ():
        path = str(dist.locate_file(file))
        if file.name.startswith("__editable__") and file.name.endswith("_finder.py"):
            try:
                tree = ast.parse(_read_text(path))
            except (SyntaxError, ValueError):
                continue
            for node in ast.walk(tree):
                if (isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "MAPPING" for t in node.targets)
                        and isinstance(node.value, ast.Dict)):
                    names |= {str(k.value).partition(".")[0] for k in node.value.keys
                              if isinstance(k, ast.Constant) and isinstance(k.value, str)}
        elif file.name.endswith(".pth"):
            for line in _read_text(path).splitlines():  # a folder, relative to the .pth's own
                line = line.strip()
                folder = os.path.join(os.path.dirname(path), line)
                if line and not line.startswith(("#", "import ", "import\t")) and os.path.isdir(folder):
                    names |= _module_names(folder)
    return names


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read(1 << 20)
    except OSError:
        return ""


def _module_names(folder: str) -> set[str]:
    """The importable top-level names in `folder`: its `.py` modules and its packages."""
    out: set[str] = set()
    try:
        entries = os.listdir(folder)
    except OSError:
        return out
    for entry in entries:
        stem, dot, ext = entry.partition(".")
        if not stem.isidentifier():
            continue
        if (dot and ext == "py") or (not dot and os.path.isfile(os.path.join(folder, entry, "__init__.py"))):
            out.add(stem)
    return out


def versioned_packages(imports, root: Path | None = None) -> tuple[str, ...]:
    """The distributions whose versions a result records, from the top-level names imported
    (the project at `root` keeps which distribution provides which name: `_distributions_of`).

    With JAX among them: exactly `VERSIONED`. Otherwise the distribution of
    each third-party name (the standard library and names no installed
    distribution provides are left out), sorted.
    """
    tops = set(imports)
    if tops & JAX_IMPORTS:
        return VERSIONED
    dists = {d for top in tops - set(sys.stdlib_module_names) - {"__future__"}
             for d in _distributions_of(root).get(top, ())}
    return tuple(sorted(dists, key=str.lower))


# ---------------------------------------------------------------- what those packages depend on

# litrec records its own version apart ("litrec" in a result); what runs an analysis is not one of
# its dependencies, even where the analysis imports it.
_NOT_DEPENDENCIES = frozenset({"litrec"})


def _dist_info_folders() -> dict[str, str]:
    """Normalised distribution name -> its `.dist-info` folder, the first on sys.path."""
    return _dist_info_table(installed_key())[1]


def _metadata_headers(folder: str) -> list[tuple[str, str]]:
    """The (field, value) headers of a dist-info folder's METADATA (up to its first blank line)."""
    try:
        with open(os.path.join(folder, "METADATA"), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return []
    out = []
    for line in text.split("\n\n", 1)[0].splitlines():
        field, sep, value = line.partition(":")
        if sep and not line[:1].isspace():
            out.append((field.strip().lower(), value.strip()))
    return out


def _requirement_name(text: str) -> str | None:
    """The distribution a `Requires-Dist` value names, or None for one of an extra."""
    spec, _, marker = text.partition(";")
    if "extra" in marker:
        return None
    name = re.split(r"[\s<>=!~\[(@]", spec.strip(), maxsplit=1)[0]
    return name or None


def dependencies(imports, recorded=(), root: Path | None = None) -> tuple[str, ...]:
    """Every installed distribution the analysis can load, from the top-level names it imports:
    the distributions of those names and, transitively, what each requires (`Requires-Dist`
    of its installed metadata; requirements of extras left out, and those not installed here),
    but the ones in `recorded` (the versions a result records already) and litrec. Sorted, by
    the names their metadata give.

    Read from the installed metadata, not from what a run happened to load, so that a local
    run and a dask worker, a first point and a warm worker's tenth, record the same list. Read
    from the dist-info folders' files; only an imported name that is not its distribution's
    name (`yaml` of PyYAML) costs importing `importlib.metadata`."""
    folders = _dist_info_folders()
    tops = sorted(set(imports) - set(sys.stdlib_module_names) - {"__future__"})
    todo: list[str] = []
    for top in tops:
        todo += [top] if _normalized(top) in folders else list(_distributions_of(root).get(top, ()))
    seen: dict[str, str] = {}
    while todo:
        key = _normalized(todo.pop())
        folder = folders.get(key)
        if key in seen or folder is None:
            continue
        headers = _metadata_headers(folder)
        seen[key] = next((v for f, v in headers if f == "name"), key)
        todo += [n for f, v in headers if f == "requires-dist" for n in [_requirement_name(v)] if n]
    skip = {_normalized(n) for n in recorded} | set(_NOT_DEPENDENCIES)
    return tuple(sorted((n for k, n in seen.items() if k not in skip), key=str.lower))


def dependency_versions(names) -> dict[str, str | None]:
    """Each named distribution's version, in order, as `package_versions` reads it (None: not
    installed; an editable install as the SHA-256 of its source)."""
    return package_versions(names)


def editable_source(folder: str, name: str) -> list[str] | None:
    """The folders (or single-module files) an editable install's import names load from, or
    None for a distribution installed as files (its version names its code). `folder` is its
    dist-info folder, whose `direct_url.json` says whether it is editable (PEP 610)."""
    import json

    try:
        with open(os.path.join(folder, "direct_url.json"), encoding="utf-8") as fh:
            direct = json.loads(fh.read(1 << 20))
    except (OSError, ValueError):
        return None
    if not (isinstance(direct, dict) and isinstance(direct.get("dir_info"), dict)
            and direct["dir_info"].get("editable")):
        return None
    import importlib.util

    own = _normalized(name)
    try:
        direct_name = importlib.util.find_spec(own) is not None
    except (ImportError, ValueError):
        direct_name = False
    tops = [own] if direct_name else sorted(
        t for t, ds in _distributions_of().items() if own in {_normalized(d) for d in ds})
    places: list[str] = []
    for top in tops:
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            continue
        if spec.submodule_search_locations:
            places += [os.path.realpath(p) for p in spec.submodule_search_locations]
        elif spec.origin and os.path.isfile(spec.origin):
            places.append(os.path.realpath(spec.origin))
    return sorted(set(places)) or [f"(nothing importable of {name})"]


def editable_places(names) -> list[str]:
    """The source folders and files of the editable installs among the distributions `names`."""
    out: list[str] = []
    for name in names:
        folder = _dist_info_folders().get(_normalized(name))
        out += (editable_source(folder, name) or []) if folder else []
    return out


def editable_digests() -> dict[str, str]:
    """Every editable install on sys.path but litrec (whose source litrec hashes itself), by
    name, with `source_digest` of its source: what a cache keyed on installed packages adds."""
    out = {}
    for key, folder in sorted(_dist_info_folders().items()):
        if key in _NOT_DEPENDENCIES:
            continue
        source = editable_source(folder, key)
        if source:
            out[key] = source_digest(source)
    return out


def source_digest(places: list[str]) -> str:
    """SHA-256 of every file under `places` (a file, or a folder walked), by path and bytes;
    compiled files (`__pycache__`, `.pyc`) and hidden folders left out."""
    import hashlib

    h = hashlib.sha256()
    for place in places:
        h.update(f"{place}\n".encode())
        if os.path.isfile(place):
            files = [place]
        else:
            files = []
            for folder, subs, names in os.walk(place):
                subs[:] = sorted(d for d in subs if not d.startswith(".") and d != "__pycache__")
                files += [os.path.join(folder, n) for n in sorted(names)
                          if not n.endswith((".pyc", ".pyo"))]
        for path in files:
            try:
                with open(path, "rb") as fh:
                    data = fh.read()
            except OSError:
                data = b"(unreadable)"
            h.update(f"{os.path.relpath(path, place)}\0{len(data)}\0".encode() + data)
    return h.hexdigest()


def version_changes(old: dict, new: dict, names=None) -> list[str]:
    """`name OLD -> NEW` for each distribution of `names` (default: of either, sorted) whose
    version differs between `old` and `new` (`short_version`)."""
    keys = names if names is not None else sorted(set(old) | set(new), key=str.lower)
    return [f"{k} {short_version(old.get(k))} -> {short_version(new.get(k))}" for k in keys
            if old.get(k) != new.get(k)]


def short_version(version) -> str:
    """A dependency's version in a message: an editable install's source hash cut to 12 digits."""
    if version is None:
        return "(not installed)"
    text = str(version)
    return text[:len("editable sha256:") + 12] if text.startswith("editable sha256:") else text
