"""Record pages rendered in parallel and written straight into the docs folder.

A site of 10,000 records has 10,000 record pages: rendering them is most of
the generation, and holding them all would cost memory for nothing, since
each is only compared with the file already there and written when it
differs. So they are rendered in chunks by forked worker processes (which
inherit the site data instead of receiving it pickled), each page written
as soon as it is made; the parent gets back only what was written.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from litrec.site.data import SiteData
from litrec.site.record_page import record_page

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


def default_jobs(n_pages: int) -> int:
    """Processes to render `n_pages` record pages in: one per core (1 for a small site)."""
    if n_pages < MIN_PARALLEL or not can_fork():
        return 1
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def write_pages(docs_dir: Path, data: SiteData, pages: dict[str, str],
                jobs: int | None = None) -> list[str]:
    """Render each record page (docs path -> record id) into docs_dir; return the paths written.

    `jobs`: worker processes (None: `default_jobs`); 1 renders here, in this process.
    """
    global _DATA
    items = sorted(pages.items())
    jobs = default_jobs(len(items)) if jobs is None else max(1, jobs)
    if jobs == 1 or not can_fork():
        return _render(docs_dir, items, data)
    size = -(-len(items) // (jobs * CHUNKS_PER_JOB))  # pages per chunk, rounded up
    chunks = [items[i:i + size] for i in range(0, len(items), size)]
    _DATA = data
    try:
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            done = pool.map(_render, [docs_dir] * len(chunks), chunks)
            return [path for written in done for path in written]
    finally:
        _DATA = None


def _render(docs_dir: Path, items: list[tuple[str, str]], data: SiteData | None = None) -> list[str]:
    """Render and write one chunk of record pages; the docs paths written."""
    data = data if data is not None else _DATA
    return [rel for rel, rid in items
            if put(docs_dir / rel, record_page(data, rid).encode("utf-8"))]
