"""`litrec site serve`: the site on a local address, rebuilt as records, results or pages change.

The first build is a whole one (sharded, as `litrec site build`). Then MkDocs'
development server watches the records, the results, `site/`, the registry
and mkdocs.yml; on a change the docs folder is generated again (only the
files that differ are written) and only the pages whose docs file changed are
rendered again (`live`): saving a record shows its page, and the pages that
link or list it, within a few seconds even on a site of thousands of records.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from litrec.errors import SiteError
from litrec.load import load_project
from litrec.site.engine import MkDocsFailed
from litrec.site.build import directory_urls, handwritten, plan, sync
from litrec.site.live import LiveSite
from litrec.state import check_profile

log = logging.getLogger("mkdocs.litrec")


def serve_site(records_dir: Path, analysis_dir: Path | None = None,
               results_dir: Path = Path("results"), profile: str = "paper",
               config_file: Path = Path("mkdocs.yml"), host: str = "127.0.0.1",
               port: int = 8000) -> None:
    """Serve the site on `host`:`port`, rebuilding what changes; SiteError when that address
    cannot be had."""
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    from mkdocs.livereload import LiveReloadServer, _serve_url

    config_file = Path(config_file).resolve()
    if not config_file.is_file():
        raise SiteError(f"no MkDocs configuration at '{config_file}'; run from the project root")
    root = config_file.parent
    docs_dir = root / "build" / "docs"
    analysis = Path(analysis_dir) if analysis_dir else Path(records_dir).resolve().parent / "analysis"
    watched = [Path(records_dir), Path(results_dir), root / "site", analysis / "registry.yaml",
               config_file]
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    def regenerate(jobs: int | None) -> tuple[set[str], dict[str, str]]:
        changed, titles, refused = generate_docs(records_dir, analysis_dir, results_dir, profile,
                                                 config_file, jobs)
        for line in refused:
            print(f"litrec site serve: {line}", file=sys.stderr)
        return changed, titles

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    logging.getLogger("mkdocs").addHandler(handler)
    logging.getLogger("mkdocs").setLevel(logging.INFO)
    site_dir = Path(tempfile.mkdtemp(prefix="litrec-serve-"))
    live = LiveSite(config_file, docs_dir, site_dir, _serve_url(host, port, "/"))

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
        server.error_handler = lambda code: _error_page(site_dir, code)
        for path in watched:
            if path.exists():
                server.watch(str(path))
        print(f"litrec site serve: rebuilding from {records_dir}, {results_dir} and site/ as they "
              "change", file=sys.stderr)
        try:
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


def generate_docs(records_dir: Path, analysis_dir: Path | None, results_dir: Path, profile: str,
                  config_file: Path, jobs: int | None = None) -> tuple[set[str], dict[str, str], list[str]]:
    """Generate the docs folder (`build/docs` beside mkdocs.yml) again, writing what differs:
    (docs paths written or removed, hand-written pages' titles, files refused)."""
    root = Path(config_file).parent
    project = load_project(Path(records_dir), analysis_dir)
    check_profile(project.registry, Path(results_dir), profile)
    files, records, data = plan(project, Path(results_dir), profile, root / "site",
                                directory_urls(config_file))
    changed = sync(root / "build" / "docs", files, records, data, jobs)
    return changed, handwritten(files), data.refused


def _error_page(site_dir: Path, code: int) -> bytes | None:
    """The site's own 404 page, as `mkdocs serve` shows it."""
    page = site_dir / f"{code}.html"
    return page.read_bytes() if code in (404, 500) and page.is_file() else None
