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

VERSIONED = ("jax", "jaxlib", "numpy", "optax")  # what an analysis that imports JAX records
JAX_IMPORTS = frozenset({"jax", "jaxlib", "optax"})


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
