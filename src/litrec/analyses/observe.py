"""What an analysis reads and imports, seen while it runs, against what its result declares.

A result is current while its inputs are (`litrec.analyses.inputs`): the code of the
analysis package that its module imports, the data files it declares in `DATA`,
the packages it imports, and so on. Those are worked out before the run, from the
source; an analysis can read past them (`open` on a file it never declared, a
helper module beside `analysis/`, `exec(open(path).read())`, `runpy.run_path`,
`importlib.util.spec_from_file_location`), and its result would stay current
while what it read changes.

So every point runs observed. Python's audit hooks (PEP 578) see every file
opened for reading, whatever opens it (`open`, `numpy.load`, the import system,
`runpy`), and after the point every module in `sys.modules` with a file is
looked at. Inside the project, a file or module is allowed when the result's
inputs hold it: the analysis package's modules (`analysis/`, compiled from the
bytes hashed), the declared data files, and what litrec and the installed
packages bring (the virtual environment, litrec's own source, litrec's caches
(`litrec.cache`), the training checkpoints it keeps for the run). Anything else read inside the project fails the point
with `UndeclaredInput`, naming the file and the fix; nothing is stored. The rule
is a refusal, not an automatic addition: a file added to the inputs on the fly
would make the result depend on what a run happened to open, and `status` could
not tell it was stale without running it again.

Outside the project nothing is refused (Python, its packages, fonts, `/proc`): the
packages are inputs by their versions, and an editable install by the hash of its source
(`litrec.analyses.packages`), which is also allowed where it lies inside the project.

What a module reads as it is imported counts too. An analysis module, or a helper of its
package, that reads a file at its top level (`VALUE = json.loads(Path(__file__).with_name(
"values.json").read_text())`) reads it once, when it is imported: perhaps before any point runs
(the runner imports an analysis to lay out its points) and never again for the points after
(a worker keeps what it imported). So each module of an analysis package is imported while its
reads are recorded (`recording`, observed or not), and they count as read by every point that
uses the module (`note_reads`, from `litrec.analyses.analysisimport.load_analysis`).

The hook also keeps the paths inside the project handed to other readers (a program started,
SQLite, a C function called through ctypes where Python audits it, `_TRIED`): one naming a file
the inputs do not hold is refused too. What reads past Python altogether is kept out by the
sandbox each point runs in where the machine has one (`litrec.runs.sandbox`), and a point that
fails on an undeclared read is refused for that read (`named_when_it_fails`).

An audit hook cannot be removed, so one is installed per process, the first time a
point runs, and does nothing (one attribute test) outside a point.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from litrec.cache.slots import cache_folder
from litrec.util.errors import UndeclaredInput


@dataclass
class Observation:
    """What one point read inside `root`, the project folder."""

    root: str
    skip: tuple[str, ...]                      # folders inside root whose files are not the project's
    opened: dict[str, None] = field(default_factory=dict)   # absolute paths, in order, once each
    tried: dict[str, None] = field(default_factory=dict)    # paths handed to other readers (`_TRIED`)

    def inside(self, path: str) -> str | None:
        """`path` relative to the project when it is inside it and not in a skipped folder."""
        if not path.startswith(self.root):
            return None
        if path.startswith(self.skip):
            return None
        rel = path[len(self.root):].lstrip(os.sep)
        return rel or None


_CURRENT: Observation | None = None
_RECORDING: list[dict[str, None]] = []  # the reads of the modules being imported (`recording`)
_INSTALLED = False


# Readers past `open`: a program started (its arguments), a C function called through ctypes (its
# text arguments), an SQLite database opened. Their paths inside the project are kept as tried:
# one naming a file there that the inputs do not hold is refused (`check`), and under the
# sandbox (`litrec.runs.sandbox`), where such a file is absent, it names what the point missed.
_TRIED = frozenset({"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
                    "ctypes.call_function", "sqlite3.connect"})


def _hook(event: str, args: tuple) -> None:
    if event != "open":
        if event in _TRIED and _CURRENT is not None:
            _note_tried(_CURRENT, event, args)
        return
    obs = _CURRENT
    if obs is None and not _RECORDING:
        return
    path, mode = args[0], args[1]
    if not isinstance(path, (str, bytes, os.PathLike)) or isinstance(path, int):
        return
    if isinstance(mode, str) and ("w" in mode or "a" in mode or "x" in mode) and "+" not in mode:
        return  # written, not read
    if isinstance(mode, int) or mode is None:
        flags = args[2] if len(args) > 2 and isinstance(args[2], int) else 0
        if flags & (os.O_WRONLY | os.O_RDWR) == os.O_WRONLY:
            return
    try:
        text = os.fsdecode(path)
        full = os.path.normpath(text if os.path.isabs(text) else os.path.join(os.getcwd(), text))
    except (TypeError, ValueError, OSError):
        return
    if obs is not None:
        obs.opened.setdefault(full, None)
    for reads in _RECORDING:
        reads.setdefault(full, None)


def _note_tried(obs: Observation, event: str, args: tuple) -> None:
    """Keep the paths inside the project among a reader's text arguments (`_TRIED`)."""
    where = os.getcwd()
    if event == "subprocess.Popen" and len(args) > 2 and isinstance(args[2], (str, bytes, os.PathLike)):
        where = os.path.join(where, os.fsdecode(args[2]))
    items: list = []
    for arg in args:
        items.extend(arg if isinstance(arg, (list, tuple)) else [arg])
    for item in items:
        if not isinstance(item, (str, bytes, os.PathLike)):
            continue
        try:
            text = os.fsdecode(item)
        except (TypeError, ValueError):
            continue
        for word in text.split():
            for token in {word, word.rpartition("=")[2], word.removeprefix("file:").partition("?")[0]}:
                full = os.path.normpath(os.path.join(where, token.strip("'\"")))
                if token and obs.inside(full) is not None:
                    obs.tried.setdefault(full, None)


def _install() -> None:
    global _INSTALLED
    if not _INSTALLED:
        sys.addaudithook(_hook)
        _INSTALLED = True


def _skipped(root: Path) -> tuple[str, ...]:
    """Folders inside the project whose files are not the project's inputs: the interpreter's
    environment (a `.venv` in the project), every site-packages folder on the path, litrec's
    own source and its caches."""
    import litrec

    candidates = {sys.prefix, sys.exec_prefix, sys.base_prefix,
                  str(Path(litrec.__file__).resolve().parent), str(cache_folder(root))}
    candidates |= {p for p in sys.path if p and ("site-packages" in p or "dist-packages" in p)}
    out = []
    for c in candidates:
        full = os.path.normpath(os.path.abspath(c))
        if full.startswith(str(root)) and full != str(root):
            out.append(full + os.sep)
    return tuple(sorted(out))


@contextlib.contextmanager
def observing(root: str | Path, litrecs: tuple[str | None, ...] = ()) -> Iterator[Observation]:
    """While inside: record every file opened for reading under the project folder `root`,
    but in folders litrec keeps for the run (`litrecs`: its training checkpoints)."""
    global _CURRENT
    real = Path(os.path.realpath(root))
    own = tuple(os.path.normpath(os.path.realpath(f)) + os.sep for f in litrecs if f)
    obs = Observation(str(real) + os.sep, tuple(sorted(_skipped(real) + own)))
    _install()
    before, _CURRENT = _CURRENT, obs
    try:
        yield obs
    finally:
        _CURRENT = before


@contextlib.contextmanager
def recording() -> Iterator[dict[str, None]]:
    """While inside: every file opened for reading, anywhere, observed or not, into the dict
    given (absolute paths, in order, once each): what a module reads as it is imported
    (`litrec.analyses.analysisimport`), which may be before any point is observed."""
    _install()
    reads: dict[str, None] = {}
    _RECORDING.append(reads)
    try:
        yield reads
    finally:
        _RECORDING[:] = [r for r in _RECORDING if r is not reads]


def note_reads(paths: Iterable[str]) -> None:
    """Count `paths` as read by the point observed now (no point: nothing): what the modules it
    uses read when they were imported, in this point or before it (`recording`)."""
    obs = _CURRENT
    if obs is not None:
        for path in paths:
            obs.opened.setdefault(path, None)


@contextlib.contextmanager
def named_when_it_fails(check: Callable[[], None]) -> Iterator[None]:
    """A point that fails having read past its inputs fails with the UndeclaredInput that
    `check()` raises, naming what it read (a file the sandbox did not hold, that it failed on)."""
    try:
        yield
    except Exception as exc:
        try:
            check()
        except UndeclaredInput as refused:
            raise refused from exc
        raise


def real_paths() -> Callable[[str], str]:
    """`os.path.normpath(os.path.realpath(path))`, for many paths in a few folders: each folder
    is resolved once, then each name in it is checked for a link alone, since
    realpath(folder/name) is realpath(realpath(folder)/name). The same answers for a fraction of
    the lstat calls, over the thousands of modules a process holds. Hold one for one check: a
    link changed after it is seen by the next one."""
    folders: dict[str, str] = {}

    def real(path: str) -> str:
        if os.pardir in path.split(os.sep):  # `..` after a link is its target's parent, not abspath's
            return os.path.normpath(os.path.realpath(path))
        folder, base = os.path.split(os.path.abspath(path))
        if base in ("", "."):
            return os.path.normpath(os.path.realpath(path))
        if folder not in folders:
            folders[folder] = os.path.realpath(folder)
        full = os.path.join(folders[folder], base)
        return os.path.normpath(os.path.realpath(full)) if os.path.islink(full) else full

    return real


def check(obs: Observation, package: str, code_files: dict[str, str] | None,
          data: dict[str, str] | None, loaded: dict[str, str], editable: Sequence[str] = ()) -> None:
    """UndeclaredInput unless every file the point read and every module loaded inside the
    project is one of its inputs: a module or file of the analysis package `package` that was
    compiled from hashed bytes (`loaded`: absolute path -> hash, and `code_files`), a
    declared data file (`data`, relative to the project), or a file of an editable install among
    the run's dependencies (`editable`: its source folders and files, hashed whole)."""
    real_path = real_paths()
    allowed = {real_path(p) for p in loaded}
    sources = tuple(os.path.normpath(p) + os.sep for p in editable if os.path.isdir(p))
    allowed |= {os.path.normpath(p) for p in editable if os.path.isfile(p)}
    root = obs.root
    allowed |= {os.path.normpath(os.path.join(root, rel)) for rel in (code_files or {})}
    allowed |= {os.path.normpath(os.path.join(root, rel)) for rel in (data or {})}
    modules, files = [], []
    for name, mod in list(sys.modules.items()):
        file = getattr(mod, "__file__", None)
        path = real_path(file) if isinstance(file, str) else None
        if path is None or obs.inside(path) is None or path in allowed or path.startswith(sources):
            continue
        if name == package or name.startswith(package + "."):
            continue  # compiled from its hashed bytes (analysisimport refuses any other)
        modules.append((name, obs.inside(path)))
    shown = {rel for _, rel in modules}
    tried = [p for p in obs.tried if p not in obs.opened and os.path.isfile(p)]  # not an option's word
    for path in [*obs.opened, *tried]:
        real = real_path(path)
        rel = obs.inside(real)
        if rel is None or real in allowed or real.startswith(sources):
            continue
        if rel.endswith(".pyc") or "__pycache__" in Path(rel).parts:
            continue  # a module's compiled form: its module is named above
        if rel in shown or os.path.isdir(path):
            continue
        files.append(rel)
    if modules or files:
        raise refusal(package, modules, files)


def refusal(package: str, modules: Sequence[tuple[str, str | None]], files: Sequence[str]) -> UndeclaredInput:
    """The error of a point that imported `modules` ((name, path inside the project)) and read
    `files` (paths inside the project) that its inputs do not hold: each named, with the fix."""
    parts = []
    if modules:
        parts.append("imported " + ", ".join(f"{name} from {rel}" for name, rel in sorted(modules))
                     + f" (not in the analysis package '{package}', so litrec never hashed it: "
                     f"move it into {package}/ and import it from there, or make it an installed package "
                     "(`pip install`, or `pip install -e` whose source litrec then hashes), whose "
                     "version is then an input)")
    code = sorted(f for f in files if f.endswith(".py"))
    data_read = sorted(f for f in files if not f.endswith(".py"))
    if code:
        parts.append("ran the code of " + ", ".join(code)
                     + f" (exec, runpy or a loader by file: litrec never hashed it; move it into "
                     f"{package}/ and import it from there)")
    if data_read:
        parts.append("read " + ", ".join(data_read)
                     + " (not declared: add it to the module's DATA, e.g. DATA = ['"
                     + data_read[0] + "'], so that its bytes are an input of the result)")
    return UndeclaredInput("the analysis " + "; and ".join(parts) + "; nothing was stored")

