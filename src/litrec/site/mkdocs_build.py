"""Running MkDocs on the docs folder: `mkdocs build --strict`, in one process or in shards.

MkDocs renders pages one after another, so a site of a thousand record pages
keeps one core busy. For a large site the record pages are split into
shards, one process each (forked, so MkDocs is imported once): every shard is
a strict build of the same docs folder with the other shards' pages excluded.
Shard 0 also renders the index and hand-written pages and copies the theme's
assets; the others' pages are moved into its output, and the search indexes
and sitemaps are joined. A link to a missing page fails any shard; an anchor
(`#p1`) on a page rendered by another shard is not seen by MkDocs, so links to
claims are generated only for claims that exist.

Hand-written pages of site/ that mkdocs.yml's nav does not name are added
under its "Guide" section, so a new page never fails the build as "not in nav".
"""

from __future__ import annotations

import gzip
import json
import logging
import multiprocessing
import os
import re
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from litrec.util import jsonread
from litrec.util.cores import usable_cores

SHARD_MIN_PAGES = 300  # below this, one process: MkDocs then checks every anchor too
MAX_SHARDS = 4
_RECORD_PAGE = re.compile(r"^(?:records|anthology)/(?!index\.md$)[^/]+\.md$")


class MkDocsFailed(Exception):
    """mkdocs build --strict failed; the message holds its log."""

    pass


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _nav_paths(nav) -> set[str]:
    found: set[str] = set()
    items = nav if isinstance(nav, list) else [nav]
    for item in items:
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            for value in item.values():
                found |= _nav_paths(value)
    return found


def add_to_nav(nav: list | None, pages: dict[str, str]) -> None:
    """Name every hand-written page in the nav with its title, appending those it misses to
    the Guide section (or to its end). Titled here, not by MkDocs from the page, because a
    shard that does not render a page would not know its title."""
    if not nav:
        return  # no nav: MkDocs lists every page itself
    for i, item in enumerate(nav):
        if isinstance(item, str) and item in pages:
            nav[i] = {pages[item]: item}
        elif isinstance(item, dict):
            for value in item.values():
                if isinstance(value, list):
                    add_to_nav(value, {p: t for p, t in pages.items() if p in _nav_paths(value)})
    missing = [p for p in sorted(pages) if p not in _nav_paths(nav) and p != "index.md"]
    guide = next((item["Guide"] for item in nav
                  if isinstance(item, dict) and isinstance(item.get("Guide"), list)), nav)
    guide.extend({pages[p]: p} for p in missing)


def page_title(text: str, path: str) -> str:
    """A hand-written page's title: its first `# ` heading, else its file name."""
    m = re.search(r"^#[ \t]+(.+?)[ \t#]*$", text, re.M)
    return m.group(1) if m else Path(path).stem.replace("-", " ").capitalize()


def _shard_plugin(render: set[str] | None, static: bool):
    from mkdocs.plugins import BasePlugin
    from mkdocs.structure.files import InclusionLevel

    class Shard(BasePlugin):
        """Exclude every page this shard does not render (and, past shard 0, static files)."""

        def on_files(self, files, config):
            for f in files:
                if f.is_documentation_page():
                    if render is not None and f.src_uri not in render:
                        f.inclusion = InclusionLevel.EXCLUDED
                elif not static:
                    f.inclusion = InclusionLevel.EXCLUDED
            return files

    return Shard()


def build_once(config_file: Path, docs_dir: Path, site_dir: Path, handwritten: dict[str, str],
               render: set[str] | None = None, static: bool = True, serve_url: str | None = None,
               extra: dict | None = None) -> list[str]:
    """One strict MkDocs build in this process; raises MkDocsFailed with every warning.

    With `serve_url` it is a build for `litrec site serve` at that address, as `mkdocs serve`
    makes it: not strict (the warnings are returned), drafts included. `extra`: more MkDocs
    plugins by name, run before the one that leaves out the pages not in `render`.
    """
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")  # Material's end-of-life banner, not a build warning
    from mkdocs import exceptions
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    handler = _Collect()
    log = logging.getLogger("mkdocs")
    log.addHandler(handler)
    try:
        cfg = load_config(config_file=str(config_file), docs_dir=str(docs_dir),
                          site_dir=str(site_dir), strict=serve_url is None)
        excluded = cfg.get("exclude_docs")  # a page included into others (bench-table.md) is no page
        add_to_nav(cfg["nav"], {rel: title for rel, title in handwritten.items()
                                if not (excluded and excluded.match_file(rel))})
        for name, plugin in (extra or {}).items():
            cfg.plugins[name] = plugin
        if render is not None or not static:
            cfg.plugins["litrec-shard"] = _shard_plugin(render, static)
        if serve_url is not None:
            cfg.site_url = serve_url
        cfg.plugins.on_startup(command="build" if serve_url is None else "serve", dirty=False)
        try:
            build(cfg, serve_url=serve_url)
        finally:
            cfg.plugins.on_shutdown()
    except (exceptions.MkDocsException, exceptions.Abort) as exc:
        detail = "".join(f"\n  {m}" for m in handler.messages)
        strict = " --strict" if serve_url is None else ""
        raise MkDocsFailed(f"mkdocs build{strict} failed: {exc}{detail}") from None
    finally:
        log.removeHandler(handler)
    return handler.messages


def plan(pages: dict[str, int], jobs: int) -> list[set[str]]:
    """Split pages (docs path -> size) into `jobs` shards of about equal work; shard 0 gets
    every page that is not a record page."""
    shards: list[set[str]] = [set() for _ in range(jobs)]
    load = [0] * jobs
    load[0] = 50_000  # shard 0 also copies the theme's assets
    for path, size in pages.items():
        if not _RECORD_PAGE.match(path):
            shards[0].add(path)
            load[0] += 3000 + size
    for path, size in sorted(((p, s) for p, s in pages.items() if _RECORD_PAGE.match(p)),
                             key=lambda ps: -ps[1]):
        i = min(range(jobs), key=load.__getitem__)
        shards[i].add(path)
        load[i] += 3000 + size  # a page costs a fixed part (template, search) and its length
    return shards


def shard_count(n_pages: int) -> int:
    """How many MkDocs shards to build at once."""
    if n_pages < SHARD_MIN_PAGES:
        return 1
    return max(1, min(usable_cores(), MAX_SHARDS))


def _timed(*args) -> tuple[list[str], float]:
    """build_once, and the CPU seconds it took in its process."""
    t0 = time.process_time()
    warnings = build_once(*args)
    return warnings, time.process_time() - t0


def build(config_file: Path, docs_dir: Path, site_dir: Path, pages: dict[str, int],
          handwritten: dict[str, str], jobs: int | None = None, serve_url: str | None = None,
          extra: dict | None = None) -> tuple[list[str], list[float]]:
    """Build the site into site_dir, sharded over `jobs` processes (None: by size and cores).

    Returns the warnings (none: a warning fails the build) and each shard's CPU seconds.
    `serve_url` and `extra` as for `build_once` (`extra` runs in shard 0, in this process).
    """
    jobs = shard_count(len(pages)) if jobs is None else max(1, jobs)
    if jobs == 1:
        warnings, cpu = _timed(config_file, docs_dir, site_dir, handwritten, None, True, serve_url,
                               extra)
        return warnings, [cpu]
    shards = plan(pages, jobs)
    tmp = [Path(tempfile.mkdtemp(prefix=f".{site_dir.name}-shard{i}-", dir=site_dir.parent))
           for i in range(1, jobs)]
    # fork (the workers inherit MkDocs, imported once) unless JAX's threads make it unsafe
    fork = sys.platform == "linux" and "jax" not in sys.modules
    ctx = multiprocessing.get_context("fork" if fork else "spawn")
    if fork:
        _preload()
    try:
        with ProcessPoolExecutor(max_workers=jobs - 1, mp_context=ctx) as pool:
            futures = [pool.submit(_timed, config_file, docs_dir, out, handwritten, shard, False,
                                   serve_url) for out, shard in zip(tmp, shards[1:])]
            warnings, cpu = _timed(config_file, docs_dir, site_dir, handwritten, shards[0], True,
                                   serve_url, extra)
            cpus = [cpu]
            for f in futures:
                more, cpu = f.result()
                warnings += more
                cpus.append(cpu)
        for out, shard in zip(tmp, shards[1:]):
            _merge(site_dir, out, shard)
    finally:
        for out in tmp:
            shutil.rmtree(out, ignore_errors=True)
    return warnings, cpus


def _preload() -> None:
    import importlib

    for name in ("mkdocs.commands.build", "mkdocs.config", "material.plugins.search.plugin",
                 "pymdownx.superfences", "pymdownx.highlight", "pygments.lexers"):
        try:
            importlib.import_module(name)
        except ImportError:  # pragma: no cover - a theme without these still builds
            pass


def _merge(site_dir: Path, shard_dir: Path, shard: set[str]) -> None:
    """Move a shard's pages into the site; join its search index and sitemap to the site's."""
    for src in shard:
        rel = Path(src).with_suffix(".html")
        built = shard_dir / rel
        if not built.is_file():
            rel = Path(src).with_suffix("") / "index.html"  # use_directory_urls: true
            built = shard_dir / rel
        (site_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        os.replace(built, site_dir / rel)
    index, extra = site_dir / "search" / "search_index.json", shard_dir / "search" / "search_index.json"
    if index.is_file() and extra.is_file():
        data = jsonread.loads(index.read_text(encoding="utf-8"))
        data["docs"] += jsonread.loads(extra.read_text(encoding="utf-8"))["docs"]
        index.write_text(json.dumps(data, separators=(",", ":"), ensure_ascii=False), encoding="utf-8")
    sitemap, more = site_dir / "sitemap.xml", shard_dir / "sitemap.xml"
    if sitemap.is_file() and more.is_file():
        urls = re.findall(r"<url>.*?</url>", more.read_text(encoding="utf-8"), re.S)
        text = sitemap.read_text(encoding="utf-8").replace("</urlset>", "\n".join(urls) + "\n</urlset>")
        sitemap.write_text(text, encoding="utf-8")
        (site_dir / "sitemap.xml.gz").write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
