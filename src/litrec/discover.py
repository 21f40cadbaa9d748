"""Finding and parsing record files: every `.yaml`/`.yml` under the records folder.

Only regular files inside the project are read (`litrec.confine`): a link out
of the project, a linked folder, a FIFO or a device is reported, never read.
Nothing under the folder is skipped in silence: a folder that cannot be read
is an error; a file with another extension is a warning (an error when it is
`.YAML`/`.YML`, a record that would not be read), except hidden names (`.git`,
`.gitkeep`) and README files, which may sit beside the records.

Large collections parse on every core (forked workers, only in a process that
has not loaded JAX); a worker returns plain data, and the node tree that
locates a message is rebuilt lazily for the few files that need one.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from litrec.confine import Refused, TooLarge, prune_linked, read_file
from litrec.yamlsafe import MAX_BYTES, LazyRoot, YamlProblem, load_bytes, locate


RECORD_SUFFIXES = (".yaml", ".yml")


def scan_records(records_dir: Path) -> tuple[list[Path], list[tuple[Path, str, str, str]]]:
    """Every record file under the folder, sorted, and (path, message, code, severity) of the rest.

    The rest: folders that cannot be read, linked folders (never walked), and
    files that are not records (see the module docstring for what is left alone).
    """
    found: list[str] = []
    problems: list[tuple[Path, str, str, str]] = []

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
    return [Path(p) for p in sorted(found)], sorted(problems)


def _not_a_record(path: Path) -> tuple[Path, str, str, str]:
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


def _parse_one(path: str, root: Path):
    try:
        loaded = load_bytes(read_file(Path(path), root, MAX_BYTES))
    except YamlProblem as p:
        return None, None, (p.line, p.col, p.message, p.code, p.field)
    except TooLarge as big:
        return None, None, (1, 1, f"{big.message} for a record", "yaml-limit", "")
    except Refused as r:
        return None, None, (1, 1, r.message, "refused", "")
    except OSError as exc:
        return None, None, (1, 1, f"cannot read file: {exc.strerror}", "io", "")
    return loaded.data, loaded.root, None


def _parse_chunk(job: tuple[list[str], Path]):
    paths, root = job
    out = []
    for p in paths:
        data, _, problem = _parse_one(p, root)
        out.append((data, problem))
    return out


def parse_all(files: list[Path], root: Path):
    """(path, data, root, problem) for every file; large collections parse on every core.

    Worker processes return plain data only; the node trees used to locate a
    message are rebuilt lazily, for the few files that need one. `root` is the
    project: a file that leads out of it is refused, not read.
    """
    workers = min(os.cpu_count() or 1, 8)
    ctx = None
    # fork only a process that has not loaded JAX: its threads make a forked child unsafe
    if len(files) >= PARALLEL_MIN_FILES and workers > 1 and "jax" not in sys.modules:
        import multiprocessing

        if "fork" in multiprocessing.get_all_start_methods():
            ctx = multiprocessing.get_context("fork")
    if ctx is None:
        for path in files:
            data, node, problem = _parse_one(str(path), root)
            yield path, data, node, problem
        return
    names = [str(p) for p in files]
    size = -(-len(names) // (workers * 4))
    chunks = [names[i:i + size] for i in range(0, len(names), size)]
    with ctx.Pool(workers) as pool:
        for chunk, parsed in zip(chunks, pool.imap(_parse_chunk, [(c, root) for c in chunks])):
            for name, (data, problem) in zip(chunk, parsed):
                yield Path(name), data, LazyRoot(name), problem


def id_position(path: Path, root: Path) -> tuple[int, int]:
    """The line and column of a file's `id` (1, 1 when it cannot be read)."""
    try:
        loaded = load_bytes(read_file(path, root, MAX_BYTES))
    except (YamlProblem, Refused, OSError):
        return 1, 1
    return locate(loaded.root, ("id",))
