"""Generate the docs folder and run MkDocs on it: `litrec site build` and `litrec site serve`.

The docs folder (`build/docs/` beside mkdocs.yml) is made of the hand-written
pages of `site/`, the generated pages and the figures copied from `results/`.
It is synchronised, not rewritten: unchanged files keep their timestamps, so
`litrec site serve` reloads only what changed. MkDocs then builds it with
`strict` on, so any warning (a broken link, a missing anchor) fails the build;
see `engine` for how a large site is built on every core. Only regular files
inside the project are copied (`litrec.confine`): a page of `site/` or a figure
that links out of the project, a linked folder, a FIFO are reported in
`BuildReport.refused` and left out; figures are made safe by `litrec.site.svg`.
"""

from __future__ import annotations

import logging
import os
import shutil
import stat
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from litrec.confine import Refused, check, project_root, read_regular, walk
from litrec.errors import SiteError
from litrec.load import load_project
from litrec.project import Project
from litrec.site import engine, navhook, outdir
from litrec.site.data import SiteData, gather
from litrec.site.index_pages import (
    analyses_index,
    analysis_page,
    anthology_index,
    graph_page,
    home,
    records_index,
)
from litrec.site.record_page import record_page
from litrec.state import check_profile

DOCS_MARKER = ".litrec-docs"  # in a docs folder litrec generated: the files it wrote there
SITE_MARKER = ".litrec-site"  # in an output folder litrec built: the files of the build


@dataclass
class BuildReport:
    """What a build made: counts, timings, the output folder, record errors."""

    records: int
    pages: int
    figures: int
    errors: list = field(default_factory=list)
    generate_s: float = 0.0
    mkdocs_s: float = 0.0
    out: Path | None = None
    warnings: list[str] = field(default_factory=list)
    result_errors: list[str] = field(default_factory=list)  # damaged results, located
    result_warnings: list[str] = field(default_factory=list)  # figures listed but missing
    shard_cpu: list[float] = field(default_factory=list)  # CPU seconds of each MkDocs process
    refused: list[str] = field(default_factory=list)  # files of site/ or results/ not published


# ------------------------------------------------------------------ generate


def generate(project: Project, results_dir: Path, profile: str, pages_dir: Path | None,
             directory_urls: bool = False) -> tuple[dict[str, str | bytes | Path], SiteData]:
    """docs-relative path -> page text or figure bytes (generated) or source file (copied).

    What is refused (a link out of the project, a linked folder, a FIFO, an unsafe
    figure) is listed in the returned data's `refused`, and left out.
    """
    files: dict[str, str | bytes | Path] = {}
    intro = ""
    refused: list[str] = []
    if pages_dir is not None and pages_dir.is_dir():
        found, linked = walk(pages_dir)
        refused += [f"{_shown(p)}: {why}; not published" for p, why in linked]
        for p in found:
            try:
                check(p, project_root(pages_dir))
            except Refused as r:
                refused.append(f"{_shown(p)}: {r.message}; not published")
                continue
            except OSError:
                continue  # a link to nothing
            rel = p.relative_to(pages_dir).as_posix()
            if rel == "index.md":
                intro = read_regular(p).decode("utf-8")
            else:
                files[rel] = p
    data = gather(project, results_dir, profile, directory_urls)
    data.refused += refused
    generated: dict[str, str | bytes | Path] = {
        "index.md": home(data, intro),
        "records/index.md": records_index(data),
        "anthology/index.md": anthology_index(data),
        "analyses/index.md": analyses_index(data),
        "graph.md": graph_page(data),
    }
    for name in data.analyses:
        generated[f"analyses/{name}.md"] = analysis_page(data, name)
    for rid in sorted(project.records):
        generated[data.record_page(rid)] = record_page(data, rid)
    for name in data.analyses:
        for _, path in data.figures(name):
            generated[path] = data.figure_bytes(path)
    clash = sorted(set(files) & set(generated))
    if clash:
        raise SiteError(f"hand-written page{'s' * (len(clash) > 1)} {', '.join(clash)} in "
                        f"{pages_dir} would be overwritten by generated ones; rename or move "
                        f"{'them' if len(clash) > 1 else 'it'}")
    files.update(generated)
    return files, data


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive on Windows
        return str(path)


def sync(docs_dir: Path, files: dict[str, str | Path]) -> int:
    """Make docs_dir hold exactly `files`, writing only what changed; return files written.

    Only a folder that is new, empty or holds nothing but what litrec wrote there
    (its manifest) is synchronised; the manifest lists every file first, so a crash
    half way leaves nothing unlisted behind.
    """
    docs_dir = Path(docs_dir)
    before = outdir.claim(docs_dir, DOCS_MARKER, "docs", "")
    docs_dir.mkdir(parents=True, exist_ok=True)
    outdir.write_manifest(docs_dir, DOCS_MARKER, before | set(files))
    _unlink_special(docs_dir)
    written = 0
    for rel, src in files.items():
        dest = docs_dir / rel
        if isinstance(src, Path):
            data = read_regular(src)
        else:
            data = src if isinstance(src, bytes) else src.encode("utf-8")
        try:
            if dest.read_bytes() == data:
                continue
        except OSError:
            dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
        written += 1
    for rel in sorted(before - set(files)):  # written by an earlier build, not by this one
        outdir.remove_listed(docs_dir, rel)
    outdir.write_manifest(docs_dir, DOCS_MARKER, files)
    return written


def _unlink_special(docs_dir: Path) -> None:
    """Remove every link, FIFO or device from litrec's own docs folder: writing through a
    link would write outside it, and MkDocs would block on a FIFO."""
    for dirpath, dirnames, filenames in os.walk(docs_dir, followlinks=False):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            mode = os.lstat(path).st_mode
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                os.unlink(path)


# ------------------------------------------------------------------ build


def build_site(records_dir: Path, analysis_dir: Path | None = None,
               results_dir: Path = Path("results"), out_dir: Path = Path("public"),
               profile: str = "paper", config_file: Path = Path("mkdocs.yml"),
               docs_dir: Path | None = None, jobs: int | None = None) -> BuildReport:
    """Generate the docs folder from the records and results, then build the HTML site.

    `jobs`: processes MkDocs runs in (None: one for a small site, else one per core, at most 4).
    """
    config_file = Path(config_file).absolute()
    if not config_file.is_file():
        raise SiteError(f"no MkDocs configuration at '{config_file}'; run from the project root "
                        "(the folder with mkdocs.yml)")
    root = config_file.parent
    try:
        check(config_file, root)
    except Refused as r:
        raise SiteError(f"{config_file}: {r.message}") from None
    docs_dir = (Path(docs_dir) if docs_dir is not None else root / "build" / "docs").resolve()
    out_dir = Path(out_dir).resolve()
    analysis = Path(analysis_dir) if analysis_dir else Path(records_dir).resolve().parent / "analysis"
    outdir.check_out(out_dir, root, {"records": Path(records_dir), "analysis": analysis,
                                     "results": Path(results_dir), "pages": root / "site",
                                     "docs": docs_dir})
    outdir.claim(out_dir, SITE_MARKER, "output", " with --out")  # before the work, and again after
    t0 = time.perf_counter()
    project = load_project(Path(records_dir), analysis_dir)
    check_profile(project.registry, Path(results_dir), profile)
    files, data = generate(project, Path(results_dir), profile, root / "site",
                           directory_urls(config_file))
    sync(docs_dir, files)
    t1 = time.perf_counter()
    pages = {rel: len(src) if isinstance(src, str) else src.stat().st_size
             for rel, src in files.items() if rel.endswith(".md")}
    handwritten = {rel: engine.page_title(read_regular(src).decode("utf-8"), rel)
                   for rel, src in files.items() if isinstance(src, Path) and rel.endswith(".md")}
    built = outdir.new_beside(out_dir)
    try:
        warnings, shard_cpu = engine.build(config_file, docs_dir, built, pages, handwritten, jobs)
        outdir.replace(out_dir, built, SITE_MARKER, "output", " with --out")
    except engine.MkDocsFailed as exc:
        raise SiteError(str(exc)) from None
    finally:
        if built.exists():
            shutil.rmtree(built, ignore_errors=True)
    t2 = time.perf_counter()
    figures = sum(1 for f in files if f.startswith("figures/"))
    states = [info.result_state for info in data.analyses.values() if info.result_state]
    return BuildReport(len(project.records), sum(1 for f in files if f.endswith(".md")), figures,
                       project.errors, t1 - t0, t2 - t1, out_dir, warnings, shard_cpu=shard_cpu,
                       refused=data.refused,
                       result_errors=[st.reason for st in states
                                      if st.state == "modified" and st.reason],
                       result_warnings=[w for st in states for w in st.warnings])


def directory_urls(config_file: Path) -> bool:
    """MkDocs' `use_directory_urls` (default true): generated HTML links must match it."""
    from mkdocs.utils import yaml_load

    with open(config_file, "rb") as fh:
        return bool((yaml_load(fh) or {}).get("use_directory_urls", True))


# ------------------------------------------------------------------ serve


def _snapshot(paths: list[Path]) -> dict[str, float]:
    state: dict[str, float] = {}
    for base in paths:
        if base.is_file():
            state[str(base)] = base.stat().st_mtime
        elif base.is_dir():
            for p in base.rglob("*"):
                if p.is_file():
                    state[str(p)] = p.stat().st_mtime
    return state


def serve_site(records_dir: Path, analysis_dir: Path | None = None,
               results_dir: Path = Path("results"), profile: str = "paper",
               config_file: Path = Path("mkdocs.yml"), host: str = "127.0.0.1",
               port: int = 8000) -> None:
    """Regenerate the docs folder whenever a record, result or page changes; MkDocs reloads.

    Serves on `host`:`port`; raises SiteError when that address cannot be had.
    """
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    from mkdocs.commands.serve import serve

    config_file = Path(config_file).resolve()
    if not config_file.is_file():
        raise SiteError(f"no MkDocs configuration at '{config_file}'; run from the project root")
    root = config_file.parent
    docs_dir = root / "build" / "docs"
    analysis = Path(analysis_dir) if analysis_dir else Path(records_dir).resolve().parent / "analysis"
    watched = [Path(records_dir), Path(results_dir), root / "site", analysis / "registry.yaml"]

    def regenerate() -> None:
        project = load_project(Path(records_dir), analysis_dir)
        check_profile(project.registry, Path(results_dir), profile)
        files, data = generate(project, Path(results_dir), profile, root / "site",
                               directory_urls(config_file))
        sync(docs_dir, files)
        for line in data.refused:
            print(f"litrec site serve: {line}", file=sys.stderr)

    regenerate()
    stop = threading.Event()

    def watch() -> None:
        seen = _snapshot(watched)
        while not stop.wait(1.0):
            now = _snapshot(watched)
            if now != seen:
                seen = now
                try:
                    regenerate()
                except Exception as exc:  # keep serving the last good pages
                    print(f"litrec site serve: could not regenerate: {exc}")

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    logging.getLogger("mkdocs").addHandler(handler)
    logging.getLogger("mkdocs").setLevel(logging.INFO)
    print(f"litrec site serve: regenerating from {records_dir}, {results_dir} and site/ as they change",
          file=sys.stderr)
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        serve(config_file=str(config_file), docs_dir=str(docs_dir), livereload=True, strict=False,
              dev_addr=address, hooks=_hooks(config_file) + [navhook.__file__])
    except OSError as exc:
        raise SiteError(f"cannot serve on {address}: {exc.strerror or exc}; choose another "
                        "--port (or --host)") from None
    finally:
        stop.set()


def _hooks(config_file: Path) -> list[str]:
    """The hooks mkdocs.yml names (serve adds litrec's nav hook to them)."""
    from mkdocs.utils import yaml_load

    with open(config_file, "rb") as fh:
        hooks = (yaml_load(fh) or {}).get("hooks") or []
    return [str(config_file.parent / h) for h in hooks]
