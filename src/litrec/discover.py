"""Finding and parsing record files: every `.yaml`/`.yml` under the records folder.

Only regular files inside the project are read (`litrec.confine`): a link out
of the project, a linked folder, a FIFO or a device is reported, never read.

Large collections parse on every core (forked workers, only in a process that
has not loaded JAX); a worker returns plain data, and the node tree that
locates a message is rebuilt lazily for the few files that need one.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from litrec.confine import Refused, TooLarge, read_file, walk
from litrec.yamlsafe import MAX_BYTES, LazyRoot, YamlProblem, load_bytes, locate


def find_record_files(records_dir: Path, refused: list[tuple[Path, str]] | None = None) -> list[Path]:
    """Every record file under the folder (hidden names skipped), sorted; linked folders are
    not walked but added to `refused` with why."""
    files, linked = walk(Path(records_dir), (".yaml", ".yml"))
    if refused is not None:
        refused.extend(linked)
    return files


PARALLEL_MIN_FILES = 2000  # below this, starting workers costs more than it saves


def _parse_one(path: str, root: Path):
    try:
        loaded = load_bytes(read_file(Path(path), root, MAX_BYTES))
    except YamlProblem as p:
        return None, None, (p.line, p.col, p.message, p.code)
    except TooLarge as big:
        return None, None, (1, 1, f"{big.message} for a record", "yaml-limit")
    except Refused as r:
        return None, None, (1, 1, r.message, "refused")
    except OSError as exc:
        return None, None, (1, 1, f"cannot read file: {exc.strerror}", "io")
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
