"""Record pages rendered in parallel and written straight into the docs folder.

A site of 10,000 records has 10,000 record pages: rendering them is most of
the generation, and holding them all would cost memory for nothing, since
each is only compared with the file already there and written when it
differs. So they are rendered in chunks by forked worker processes (which
inherit the site data instead of receiving it pickled), each page written
as soon as it is made; the parent gets back only what was written.

Rendering can also note which records each page looked up (`track`), so that
`litrec site serve` renders again, after an edit, only the pages that read an
edited record.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from litrec.site.pagedata import SiteData
from litrec.site.record_page import record_page
from litrec.util.cores import usable_cores

MIN_PARALLEL = 400  # pages below which forking costs more than it saves
CHUNKS_PER_JOB = 4  # smaller chunks even out the work between the processes

_DATA: SiteData | None = None  # what a forked worker renders from (inherited, not pickled)


def put(dest: Path, data: bytes) -> bool:
    """Write `data` to `dest` unless it already holds exactly that; True when written."""
    try:
        if dest.read_bytes() == data:
            return False
    except OSError:
        dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(data)
    return True


def can_fork() -> bool:
    """Whether workers may be forked: Linux, and no JAX threads that a fork would break."""
    return sys.platform == "linux" and "jax" not in sys.modules


def render_workers(n_pages: int) -> int:
    """Processes to render `n_pages` record pages in: one per core (1 for a small site)."""
    if n_pages < MIN_PARALLEL or not can_fork():
        return 1
    return usable_cores()


@dataclass
class Rendered:
    """What `write_pages` did: the pages written, and what rendering cost and read."""

    written: list[str] = field(default_factory=list)  # docs paths whose file changed
    cpu: list[float] = field(default_factory=list)  # CPU seconds of each worker process (none: here)
    deps: dict[str, set[str]] = field(default_factory=dict)  # docs path -> record ids it looked up


class _Tracked(dict):
    """The project's records, noting each id a page looks up, found or not: the records its
    text depends on (a title, a link that resolves or not, a backlink's source)."""

    seen: set[str]

    def __getitem__(self, key):
        self.seen.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        """`dict.get`, noted."""
        self.seen.add(key)
        return super().get(key, default)

    def __contains__(self, key):
        self.seen.add(key)
        return super().__contains__(key)


def write_pages(docs_dir: Path, data: SiteData, pages: dict[str, str], jobs: int | None = None,
                track: bool = False) -> Rendered:
    """Render each record page (docs path -> record id) into docs_dir, writing those that changed.

    `jobs`: worker processes (None: `render_workers`); 1 renders here, in this process.
    `track`: also note, per page, the record ids it looked up (`Rendered.deps`).
    """
    global _DATA
    items = sorted(pages.items())
    jobs = render_workers(len(items)) if jobs is None else max(1, jobs)
    if jobs == 1 or not can_fork():
        written, _, _, deps = _render(docs_dir, items, track, data)
        return Rendered(written, [], deps)
    size = -(-len(items) // (jobs * CHUNKS_PER_JOB))  # pages per chunk, rounded up
    chunks = [items[i:i + size] for i in range(0, len(items), size)]
    out, cpu = Rendered(), defaultdict[int, float](float)
    _DATA = data
    try:
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            for written, pid, seconds, deps in pool.map(_render, [docs_dir] * len(chunks), chunks,
                                                        [track] * len(chunks)):
                out.written += written
                out.deps.update(deps)
                cpu[pid] += seconds
    finally:
        _DATA = None
    out.cpu = list(cpu.values())
    return out


def _render(docs_dir: Path, items: list[tuple[str, str]], track: bool,
            data: SiteData | None = None) -> tuple[list[str], int, float, dict[str, set[str]]]:
    """Render and write one chunk of record pages: (docs paths written, this process's id, the
    CPU seconds it took, each page's record ids when tracked)."""
    t0 = time.process_time()
    data = data if data is not None else _DATA
    if data is None:
        raise ValueError("no site data to render from (the parent sets it before forking)")
    written: list[str] = []
    deps: dict[str, set[str]] = {}
    records = data.project.records
    tracked = _Tracked(records) if track else None
    if tracked is not None:
        data.project.records = tracked
    try:
        for rel, rid in items:
            if tracked is not None:
                tracked.seen = {rid}
            if put(docs_dir / rel, record_page(data, rid).encode("utf-8")):
                written.append(rel)
            if tracked is not None:
                deps[rel] = tracked.seen
    finally:
        data.project.records = records
    return written, os.getpid(), time.process_time() - t0, deps
