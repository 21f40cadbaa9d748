"""Importing an analysis from the source that was hashed, never from bytecode.

Python imports a module from its `__pycache__/*.pyc` while the source's size
and whole-second modification time match the ones the `.pyc` recorded, so an
edit that keeps both (two saves within a second, a checkout, a copy) would run
the old code under the new code's hash. The modules of an analysis package are
therefore found as usual but compiled from the bytes read (`_HashedSource`),
and with the hashes of the run's inputs (`litrec.analyses.inputs`) a module whose bytes
are others is refused (InputsChanged): the code that runs is the code hashed.
No `.pyc` is read or written for them.

What a module reads as it is imported (a data file read at its top level) is kept with it and
counted as read by every point that uses it (`litrec.analyses.observe.note_reads`), however
long before the point it was imported: the runner imports an analysis to lay out its points,
and a worker keeps what it imported for its next points.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.machinery
import socket
import sys
from pathlib import Path
from typing import cast

from litrec.analyses.observe import note_reads, recording
from litrec.util.errors import InputsChanged, SweepError


class _HashedSource(importlib.machinery.SourceFileLoader):
    """Compiles a module of an analysis package from the source it reads, never from a `.pyc`
    (which Python trusts while the source's size and whole-second mtime match): the code that
    runs is the code hashed. With expected hashes set (`_EXPECTED`), a module whose bytes are
    not the ones the run hashed is refused."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        raw = self.get_data(path)
        digest = hashlib.sha256(raw).hexdigest()
        if _EXPECTED is not None and _EXPECTED.get(path) != digest:
            raise InputsChanged(_changed_message(path))
        _READ[path] = digest
        return compile(raw, path, "exec", dont_inherit=True)

    def exec_module(self, module):
        with recording() as reads:  # what it reads as it is imported: for every point using it
            try:
                super().exec_module(module)
            finally:
                _IMPORT_READS[self.get_filename(module.__name__)] = tuple(reads)


class _AnalysisFinder:
    """Finds the modules of the analysis packages (`_PACKAGES`) as the path finder does, and
    loads them with `_HashedSource`; a module there that has no source is refused."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if fullname.partition(".")[0] not in _PACKAGES:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or spec.origin is None:
            return spec  # a namespace package: no code of its own
        if type(spec.loader) is not importlib.machinery.SourceFileLoader:
            raise SweepError(f"{spec.origin}: litrec imports analyses from their source only "
                             "(this is compiled or bytecode); keep the module as a .py file")
        spec.loader = _HashedSource(fullname, spec.origin)
        return spec

    @staticmethod
    def invalidate_caches():
        pass


_PACKAGES: set[str] = set()
_READ: dict[str, str] = {}                   # source path -> SHA-256 of the bytes compiled
_EXPECTED: dict[str, str] | None = None      # source path -> the hash the run expects
_LOADED: dict[str, str] = {}                 # package -> the folder it was imported from
_IMPORT_READS: dict[str, tuple[str, ...]] = {}  # source path -> the files read as it was imported


def _changed_message(path: str) -> str:
    return (f"{path} is not the source the run hashed (it changed since, or this machine, "
            f"{socket.gethostname()}, sees another copy); nothing was stored: run again (on "
            "several machines, give the workers the project's analysis folder as it is here)")


def _stale(package: str, where: str) -> bool:
    """Whether the imported `package` may hold other code than the run expects: imported from
    elsewhere or by someone else, or a module of it compiled from other bytes."""
    loaded = sys.modules.get(package)
    if loaded is None:
        return False
    if _LOADED.get(package) != where or where not in [str(p) for p in getattr(loaded, "__path__", [])]:
        return True  # imported from elsewhere, or by someone else: what it holds is unknown
    for name, mod in list(sys.modules.items()):
        if name != package and not name.startswith(package + "."):
            continue
        path = getattr(mod, "__file__", None)
        if path is None:
            continue
        if path not in _READ:
            return True
        if _EXPECTED is not None:
            if _EXPECTED.get(path) != _READ[path]:
                return True
        else:
            try:
                with open(path, "rb") as fh:
                    if hashlib.sha256(fh.read()).hexdigest() != _READ[path]:
                        return True
            except OSError:
                return True
    return False


def load_analysis(root: str, package: str, module: str, expected: dict[str, str] | None = None):
    """Import `package.module`, `root` first on the path; return (module, the code files it
    loaded, path inside the project -> SHA-256 of the bytes compiled).

    Every module of the package is compiled from its source as read (`_HashedSource`). With
    `expected` (path inside the project -> SHA-256, the inputs' `files`), a module whose
    bytes are others is refused (InputsChanged), now or when the analysis imports it later.
    A long-lived worker imports the package again when a module it holds is not what is
    expected (or, without `expected`, what its file holds now), or when the package now
    resolves to another folder (another project): an edited analysis never runs as its old self.
    """
    global _EXPECTED
    if not sys.path or sys.path[0] != root:
        if root in sys.path:
            sys.path.remove(root)
        sys.path.insert(0, root)
    if not any(f is _AnalysisFinder for f in sys.meta_path):
        sys.meta_path.insert(0, _AnalysisFinder)
    _PACKAGES.add(package)
    importlib.invalidate_caches()
    spec = importlib.machinery.PathFinder.find_spec(package, sys.path)  # ignores sys.modules
    if spec is None:
        raise SweepError(f"cannot import the analysis package '{package}' on {socket.gethostname()}: "
                         f"it is neither in {root} nor on PYTHONPATH")
    # no origin: a namespace package, which has its folders
    where = str(Path(spec.origin).parent if spec.origin
                else list(cast("list[str]", spec.submodule_search_locations))[0])
    base = Path(where).parent
    _EXPECTED = None if expected is None else {str(base / rel): d for rel, d in expected.items()}
    if _stale(package, where):
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]
    _LOADED[package] = where
    try:
        mod = importlib.import_module(f"{package}.{module}")
    finally:
        _EXPECTED = None
    files = {}
    for name, loaded in list(sys.modules.items()):
        path = getattr(loaded, "__file__", None)
        if (name == package or name.startswith(package + ".")) and path in _READ:
            files[Path(path).relative_to(base).as_posix()] = _READ[path]
            note_reads(_IMPORT_READS.get(path, ()))  # imported before this point, perhaps
    return mod, dict(sorted(files.items()))


def compiled_sources() -> dict[str, str]:
    """Every module source of an analysis package compiled in this process: path -> SHA-256."""
    return dict(_READ)


@contextlib.contextmanager
def expecting(package: str, expected: dict[str, str] | None):
    """While inside: a module of `package` the analysis imports late (inside `run`) must have
    the bytes `expected` (path inside the project -> SHA-256) too."""
    global _EXPECTED
    if expected is None or package not in _LOADED:
        yield
        return
    base = Path(_LOADED[package]).parent
    _EXPECTED = {str(base / rel): d for rel, d in expected.items()}
    try:
        yield
    finally:
        _EXPECTED = None
