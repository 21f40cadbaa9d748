"""`litrec site serve`: the site on a local address, rebuilt as records, results or pages change.

The first build is a whole one (sharded, as `litrec site build`). Then MkDocs'
development server watches the records, the results, `site/`, `analysis/`, the
folders of the data files the analyses declare (`litrec.analyses.inputs`) and mkdocs.yml; on a
change the docs folder is generated again (only the files that differ are written) and only
the pages whose docs file changed are rendered again (`live`): saving a record shows its page, and the pages that
link or list it, without a whole build (`bench/serve_edit.py` times it).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from litrec.analyses.datafiles import watch_paths
from litrec.records.load import load_project
from litrec.results.state import check_profile
from litrec.site.build import directory_urls, handwritten, plan, sync
from litrec.site.live import LiveSite
from litrec.site.mkdocs_build import MkDocsFailed
from litrec.site.render import write_pages
from litrec.util.errors import SiteError

log = logging.getLogger("mkdocs.litrec")


NAV_NOTES = ("not included in the \"nav\" configuration", "not found in the documentation files",
             "included in the 'nav' configuration, but", "excluded from the \"nav\"")


def quiet_nav(record: logging.LogRecord) -> bool:
    """False for MkDocs' notes about the nav, which the generated pages make on every rebuild."""
    message = record.getMessage()
    return not any(note in message for note in NAV_NOTES)


def serve_site(records_dir: Path, analysis_dir: Path | None = None,
               results_dir: Path = Path("results"), profile: str = "paper",
               config_file: Path = Path("mkdocs.yml"), host: str = "127.0.0.1",
               port: int = 8000, verbose: bool = False) -> None:
    """Serve the site on `host`:`port`, rebuilding what changes; SiteError when that address
    cannot be had. MkDocs' notes about the nav (pages not in it, said again at every rebuild)
    are printed only when `verbose`."""
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    from mkdocs.livereload import LiveReloadServer, _serve_url

    config_file = Path(config_file).resolve()
    if not config_file.is_file():
        raise SiteError(f"no MkDocs configuration at '{config_file}'; run from the project root")
    root = config_file.parent
    analysis = Path(analysis_dir) if analysis_dir else Path(records_dir).resolve().parent / "analysis"
    watched = [Path(records_dir), Path(results_dir), root / "site", analysis, config_file]
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    docs = DocsFolder(records_dir, analysis_dir, results_dir, profile, config_file)
    server = None
    watching: set[tuple[Path, bool]] = set()

    def regenerate(jobs: int | None) -> tuple[set[str], dict[str, str]]:
        changed, titles, refused = docs.generate(jobs)
        for line in refused:
            print(f"litrec site serve: {line}", file=sys.stderr)
        if server is not None:
            _watch_data(server, docs.data_folders, watching)
        return changed, titles

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    if not verbose:
        handler.addFilter(quiet_nav)
    logging.getLogger("mkdocs").addHandler(handler)
    logging.getLogger("mkdocs").setLevel(logging.INFO)
    site_dir = Path(tempfile.mkdtemp(prefix="litrec-serve-"))
    live = LiveSite(config_file, root / "build" / "docs", site_dir, _serve_url(host, port, "/"))

    def rebuild() -> None:
        """What the server runs on a change: regenerate, then rebuild the pages that changed."""
        t0 = time.perf_counter()
        try:
            changed, titles = regenerate(1)  # one process: the server's threads are running
            done = live.update(changed, titles)
        except Exception as exc:  # keep serving the last good pages
            print(f"litrec site serve: could not rebuild: {exc}", file=sys.stderr)
            return
        what = {"full": "the whole site", "pages": f"{len(changed)} changed files",
                "nothing": "nothing (no page changed)"}[done]
        log.info(f"litrec: rebuilt {what} in {time.perf_counter() - t0:.1f} s")

    try:
        changed, titles = regenerate(None)
        try:
            live.full(titles, jobs=None)  # sharded: no thread runs yet
        except MkDocsFailed as exc:
            raise SiteError(str(exc)) from None
        server = LiveReloadServer(builder=rebuild, host=host, port=port, root=str(site_dir))
        _watch_data(server, docs.data_folders, watching)
        server.error_handler = lambda code: _error_page(site_dir, code)
        for path in watched:
            if path.exists():
                server.watch(str(path))
        print(f"litrec site serve: rebuilding from {records_dir}, {results_dir} and site/ as they "
              "change", file=sys.stderr)
        try:
            with _term_as_interrupt():
                server.serve()
        except OSError as exc:
            raise SiteError(f"cannot serve on {address}: {exc.strerror or exc}; choose another "
                            "--port (or --host)") from None
        except KeyboardInterrupt:
            log.info("Shutting down...")
        finally:
            server.shutdown()
    finally:
        logging.getLogger("mkdocs").removeHandler(handler)
        shutil.rmtree(site_dir, ignore_errors=True)


@contextlib.contextmanager
def _term_as_interrupt() -> Iterator[None]:
    """SIGTERM (`kill PID`) stops the server as Ctrl-C does: the same shutdown, and its temporary
    site folder removed. Ctrl-C is left as the shell set it (ignored in a background job)."""
    def stop(signum, frame):
        raise KeyboardInterrupt
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _watch_data(server, folders: set[tuple[Path, bool]], watching: set) -> None:
    """Watch the folders of the data files the analyses declare (`litrec.analyses.inputs`), as they are
    declared now: an edit of a data file makes its results stale, and the pages say so."""
    for folder, recursive in sorted(folders - watching):
        if folder.is_dir():
            server.watch(str(folder.resolve()), recursive=recursive)
            watching.add((folder, recursive))


class DocsFolder:
    """The docs folder of a served site, generated again after each change.

    The index and analysis pages are made again every time; a record page only
    when it may differ: its record was edited, added or removed, the status of
    one of its claims changed, or it looked up (`render.write_pages`' track) a
    record that was edited, added or removed. A page that an edited record now
    bears on (a new link, a new backlink) is the page of a record that the
    edited record's own page looks up, so those are rendered next. When a
    result or the registry changed, every page is.
    """

    def __init__(self, records_dir: Path, analysis_dir: Path | None, results_dir: Path,
                 profile: str, config_file: Path):
        self.records_dir, self.analysis_dir = Path(records_dir), analysis_dir
        self.results_dir, self.profile, self.config_file = Path(results_dir), profile, config_file
        self.docs_dir = Path(config_file).parent / "build" / "docs"
        self.deps: dict[str, set[str]] = {}  # record page -> the record ids it looked up
        self.records: dict[str, tuple] = {}  # record id -> (record, file) when last generated
        self.statuses: dict = {}
        self.analyses: dict | None = None  # what record pages show of each analysis
        self.data_folders: set[tuple[Path, bool]] = set()  # where the declared data files are

    def generate(self, jobs: int | None = None) -> tuple[set[str], dict[str, str], list[str]]:
        """Generate what may have changed: (docs paths written or removed, hand-written pages'
        titles, files refused)."""
        project = load_project(self.records_dir, self.analysis_dir)
        check_profile(project.registry, self.results_dir, self.profile)
        files, records, data = plan(project, self.results_dir, self.profile,
                                    self.config_file.parent / "site", directory_urls(self.config_file))
        now = {rid: (rec, project.paths[rid]) for rid, rec in project.records.items()}
        analyses = {name: (info.registered, info.result_state) for name, info in data.analyses.items()}
        root = self.config_file.parent
        self.data_folders = {w for info in data.analyses.values()
                             if info.result_state is not None and info.result_state.inputs
                             for w in watch_paths(root, info.result_state.inputs.patterns)}
        edited: set[str] = set()
        if analyses != self.analyses:
            todo = dict(records)
        else:
            edited = {rid for rid in now.keys() | self.records.keys()
                      if now.get(rid) != self.records.get(rid)}
            edited |= {ref.partition("#")[0] for ref in data.statuses.keys() | self.statuses.keys()
                       if data.statuses.get(ref) != self.statuses.get(ref)}
            pages = {rel for rel, seen in self.deps.items() if seen & edited}
            todo = {rel: rid for rel, rid in records.items()
                    if rid in edited or rel in pages or rel not in self.deps}
        changed = sync(self.docs_dir, files, todo, data, jobs, set(records) - set(todo), track=True)
        self.deps = {rel: seen for rel, seen in self.deps.items() if rel in records}
        self.deps.update(changed.deps)
        looked_up = {rid for rel in todo if todo[rel] in edited for rid in changed.deps[rel]}
        nxt = {rel: rid for rel, rid in records.items() if rel not in todo and rid in looked_up}
        if nxt:  # pages edited records now look up: a new link or backlink may show there
            more = write_pages(self.docs_dir, data, nxt, 1, track=True)
            changed.update(more.written)
            self.deps.update(more.deps)
        self.records, self.statuses, self.analyses = now, data.statuses, analyses
        return changed, handwritten(files), data.refused


def _error_page(site_dir: Path, code: int) -> bytes | None:
    """The site's own 404 page, as `mkdocs serve` shows it."""
    page = site_dir / f"{code}.html"
    return page.read_bytes() if code in (404, 500) and page.is_file() else None
