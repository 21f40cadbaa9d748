"""Generate the docs folder and run MkDocs on it: `litrec site build` (`serve` serves it).

The docs folder (`build/docs/` beside mkdocs.yml) is made of the hand-written
pages of `site/`, the generated pages and the figures copied from `results/`.
It is synchronised, not rewritten: unchanged files keep their timestamps, so
`litrec site serve` reloads only what changed. MkDocs then builds it with
`strict` on, so any warning (a broken link, a missing anchor) fails the build;
see `mkdocs_build` for how a large site is built on every core. Only regular files
inside the project are copied (`litrec.util.confine`): a page of `site/` or a figure
that links out of the project, a linked folder, a FIFO are reported in
`BuildReport.refused` and left out; figures are made safe by `litrec.site.svg`.
Record pages are rendered in parallel and written as they are made (`render`).
"""

from __future__ import annotations

import os
import shutil
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from litrec.records.load import load_project
from litrec.records.project import Project
from litrec.results.state import check_profile
from litrec.site import mkdocs_build, outdir, render
from litrec.site.graph_page import graph_page
from litrec.site.index_pages import (
    analyses_index,
    analysis_page,
    anthology_index,
    home,
    records_index,
)
from litrec.site.pagedata import SiteData, gather
from litrec.site.record_page import record_page
from litrec.util.confine import Refused, check, project_root, read_regular, walk
from litrec.util.errors import SiteError

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
    render_cpu: list[float] = field(default_factory=list)  # ... of each record-page worker (if any)
    refused: list[str] = field(default_factory=list)  # files of site/ or results/ not published


# ------------------------------------------------------------------ generate


def generate(project: Project, results_dir: Path, profile: str, pages_dir: Path | None,
             directory_urls: bool = False) -> tuple[dict[str, str | bytes | Path], SiteData]:
    """docs-relative path -> page text or figure bytes (generated) or source file (copied).

    Every page in memory at once: `plan` and `sync` build large sites without that.
    """
    files, records, data = plan(project, results_dir, profile, pages_dir, directory_urls)
    for rel, rid in records.items():
        files[rel] = record_page(data, rid)
    return files, data


def plan(project: Project, results_dir: Path, profile: str, pages_dir: Path | None,
         directory_urls: bool = False) -> tuple[dict[str, str | bytes | Path], dict[str, str], SiteData]:
    """(every file but the record pages as in `generate`, record pages as docs path -> record id,
    the site data). The record pages are rendered by `sync`, in parallel.

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
    records = {data.record_page(rid): rid for rid in sorted(project.records)}
    for name in data.analyses:
        for _, path in data.figures(name):
            generated[path] = data.figure_bytes(path)
    clash = sorted(set(files) & (set(generated) | set(records)))
    if clash:
        raise SiteError(f"hand-written page{'s' * (len(clash) > 1)} {', '.join(clash)} in "
                        f"{pages_dir} would be overwritten by generated ones; rename or move "
                        f"{'them' if len(clash) > 1 else 'it'}")
    files.update(generated)
    return files, records, data


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive on Windows
        return str(path)


class Synced(set):
    """The docs paths `sync` wrote or removed, and what rendering the record pages cost and read."""

    render_cpu: list[float]  # CPU seconds of each process that rendered record pages (none: sync's)
    deps: dict[str, set[str]]  # record page -> the record ids it looked up (when tracked)


def sync(docs_dir: Path, files: dict[str, str | bytes | Path], records: dict[str, str] | None = None,
         data: SiteData | None = None, jobs: int | None = None, keep: frozenset[str] | set[str] = frozenset(),
         track: bool = False) -> Synced:
    """Make docs_dir hold exactly `files`, the record pages (docs path -> record id, rendered
    from `data` in `jobs` processes, see `render`) and the pages in `keep` as they are, writing
    only what changed; return the docs paths written or removed.

    Only a folder that is new, empty or holds nothing but what litrec wrote there
    (its manifest) is synchronised; the manifest lists every file first, so a crash
    half way leaves nothing unlisted behind.
    """
    docs_dir = Path(docs_dir)
    records = records or {}
    wanted = set(files) | set(records) | set(keep)
    before = outdir.claim(docs_dir, DOCS_MARKER, "docs", "")
    docs_dir.mkdir(parents=True, exist_ok=True)
    outdir.write_manifest(docs_dir, DOCS_MARKER, before | wanted)
    _unlink_special(docs_dir)
    changed = Synced()
    for rel, src in files.items():
        if isinstance(src, Path):
            raw = read_regular(src)
        else:
            raw = src if isinstance(src, bytes) else src.encode("utf-8")
        if render.put(docs_dir / rel, raw):
            changed.add(rel)
    if records and data is None:
        raise ValueError("record pages to render need the site's data")
    done = render.write_pages(docs_dir, data, records, jobs, track) if records and data else render.Rendered()
    changed.update(done.written)
    changed.render_cpu, changed.deps = done.cpu, done.deps
    for rel in sorted(before - wanted):  # written by an earlier build, not by this one
        outdir.remove_listed(docs_dir, rel)
        changed.add(rel)
    outdir.write_manifest(docs_dir, DOCS_MARKER, wanted)
    return changed


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
    files, records, data = plan(project, Path(results_dir), profile, root / "site",
                                directory_urls(config_file))
    synced = sync(docs_dir, files, records, data)
    t1 = time.perf_counter()
    pages = {rel: (docs_dir / rel).stat().st_size for rel in [*files, *records] if rel.endswith(".md")}
    built = outdir.new_beside(out_dir)
    try:
        warnings, shard_cpu = mkdocs_build.build(config_file, docs_dir, built, pages,
                                                  handwritten(files), jobs)
        outdir.replace(out_dir, built, SITE_MARKER, "output", " with --out")
    except mkdocs_build.MkDocsFailed as exc:
        raise SiteError(str(exc)) from None
    finally:
        if built.exists():
            shutil.rmtree(built, ignore_errors=True)
    t2 = time.perf_counter()
    figures = sum(1 for f in files if f.startswith("figures/"))
    states = [info.result_state for info in data.analyses.values() if info.result_state]
    return BuildReport(len(project.records), len(pages), figures,
                       project.errors, t1 - t0, t2 - t1, out_dir, warnings, shard_cpu=shard_cpu,
                       render_cpu=synced.render_cpu,
                       refused=data.refused,
                       result_errors=[st.reason for st in states
                                      if st.state == "modified" and st.reason],
                       result_warnings=[w for st in states for w in st.warnings])


def handwritten(files: dict[str, str | bytes | Path]) -> dict[str, str]:
    """The hand-written pages among the docs files, with their titles (for the nav)."""
    return {rel: mkdocs_build.page_title(read_regular(src).decode("utf-8"), rel)
            for rel, src in files.items() if isinstance(src, Path) and rel.endswith(".md")}


def directory_urls(config_file: Path) -> bool:
    """MkDocs' `use_directory_urls` (default true): generated HTML links must match it."""
    from mkdocs.utils import yaml_load

    with open(config_file, "rb") as fh:
        return bool((yaml_load(fh) or {}).get("use_directory_urls", True))
