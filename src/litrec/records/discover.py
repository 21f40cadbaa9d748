"""Finding and parsing record files: every `.yaml`/`.yml` under the records folder.

Only regular files inside the project are read (`litrec.util.confine`): a link out
of the project, a linked folder, a FIFO or a device is reported, never read.
Nothing under the folder is skipped in silence: a folder that cannot be read
is an error; a file with another extension is a warning (an error when it is
`.YAML`/`.YML`, a record that would not be read), except hidden names (`.git`,
`.gitkeep`) and README files, which may sit beside the records.

Large collections are checked on every core (`map_files`: forked workers, only
in a process that has not loaded JAX); a worker returns plain data, and the
node tree that locates a message is rebuilt lazily for the few files that need
one (`litrec.util.yamlsafe.LazyRoot`).
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from litrec.util.confine import MAX_RECORD_BYTES, Refused, TooLarge, prune_linked, read_file
from litrec.util.cores import usable_cores

if TYPE_CHECKING:
    from litrec.util.diagnostics import Severity

RECORD_SUFFIXES = (".yaml", ".yml")


def scan_records(records_dir: Path) -> tuple[list[Path], list[tuple[Path, str, str, Severity]]]:
    """Every record file under the folder, sorted, and (path, message, code, severity) of the rest.

    The rest: folders that cannot be read, linked folders (never walked), and
    files that are not records (see the module docstring for what is left alone).
    """
    found, problems = scan_record_names(records_dir)
    return [Path(p) for p in found], problems


def scan_record_names(records_dir: Path) -> tuple[list[str], list[tuple[Path, str, str, Severity]]]:
    """`scan_records`, the record files as sorted path strings (no Path object per file)."""
    found: list[str] = []
    problems: list[tuple[Path, str, str, Severity]] = []

    def unreadable(exc: OSError) -> None:
        where = Path(exc.filename) if exc.filename else Path(records_dir)
        problems.append((where, f"cannot read this folder ({exc.strerror or exc}); its records "
                         "are not checked: fix its permissions", "io", "error"))

    for dirpath, dirnames, filenames in os.walk(records_dir, onerror=unreadable, followlinks=False):
        problems += [(path, why, "refused", "error") for path, why in prune_linked(dirpath, dirnames)]
        for f in filenames:
            if f.startswith("."):
                continue
            if f.endswith(RECORD_SUFFIXES):
                found.append(os.path.join(dirpath, f))
            elif not f.upper().startswith("README"):
                problems.append(_not_a_record(Path(dirpath, f)))
    return sorted(found), sorted(problems)


def _not_a_record(path: Path) -> tuple[Path, str, str, Severity]:
    if path.suffix.lower() in RECORD_SUFFIXES:
        return (path, f"the extension '{path.suffix}' is not read (record files end in .yaml "
                f"or .yml, lower case); rename it to '{path.stem}{path.suffix.lower()}'",
                "file-extension", "error")
    return (path, "not a record file (records end in .yaml or .yml), so it is not read; "
            "rename it, or move it out of the records folder", "file-extension", "warning")


def find_record_files(records_dir: Path) -> list[Path]:
    """Every record file under the folder (hidden names and linked folders skipped), sorted."""
    return scan_records(records_dir)[0]


PARALLEL_MIN_FILES = 2000  # below this, starting workers costs more than it saves


def map_files(chunk_func: Callable[[tuple[list[str], Path]], list], paths: list[str],
              root: Path, min_files: int = PARALLEL_MIN_FILES) -> Iterator:
    """`chunk_func((chunk, root))`'s results, one per path in order; many paths on every core.

    Workers are forked, only from a process that has not loaded JAX (its threads
    make a forked child unsafe), and return plain data; `chunk_func` must be a
    module-level function. `root` is the project: a file that leads out of it
    is refused, not read.
    """
    workers = min(usable_cores(), 8)
    ctx = None
    if len(paths) >= min_files and workers > 1 and "jax" not in sys.modules:
        import multiprocessing

        if "fork" in multiprocessing.get_all_start_methods():
            ctx = multiprocessing.get_context("fork")
    if ctx is None:
        yield from chunk_func((paths, root))
        return
    size = -(-len(paths) // (workers * 4))
    chunks = [(paths[i:i + size], root) for i in range(0, len(paths), size)]
    gc.freeze()  # the workers share the loaded modules' pages instead of copying them
    try:
        with ctx.Pool(workers) as pool:
            for results in pool.imap(chunk_func, chunks):
                yield from results
    finally:
        gc.unfreeze()


def read_problem(exc: Exception) -> tuple:
    """The problem tuple of a file that could not be read."""
    if isinstance(exc, TooLarge):
        return (1, 1, "", f"{exc.message} for a record", "yaml-limit", "error", None)
    if isinstance(exc, Refused):
        return (1, 1, "", exc.message, "refused", "error", None)
    return (1, 1, "", f"cannot read file: {getattr(exc, 'strerror', None) or exc}", "io", "error", None)


def id_position(path: Path, root: Path) -> tuple[int, int]:
    """The line and column of a file's `id` (1, 1 when it cannot be read)."""
    from litrec.util.yamlsafe import YamlProblem, load_bytes, locate  # parsing is loaded when needed

    try:
        loaded = load_bytes(read_file(path, root, MAX_RECORD_BYTES))
    except (YamlProblem, Refused, OSError):
        return 1, 1
    return locate(loaded.root, ("id",))
