"""What the pages are made from: the project, its verdicts and results, and where pages live.

`gather` reads everything once (records, the registry, every result of the
chosen profile, the verdicts from `litrec.verdicts.claims`); the page generators only
format it. The site computes no number: measured values, verdicts and
provenance all come from `results/` through the runner's own modules. A
figure is published only when it is a regular file inside the project, and an
SVG only as rewritten by `litrec.site.svg` (no script); what is refused is
listed in `SiteData.refused`.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from litrec.records.edges import Edge
from litrec.records.kinds import page_of
from litrec.records.project import Project
from litrec.results.state import ResultState, result_states
from litrec.site.svg import UnsafeFigure, sanitise_svg
from litrec.util.confine import Refused, project_root, read_file
from litrec.verdicts.cited import StoredNumbers
from litrec.verdicts.claims import ClaimStatus, claim_statuses, with_scales
from litrec.verdicts.judge import get_metric


def anchor(claim_id: str) -> str:
    """The id of a claim's heading on its record's page: P1 -> p1."""
    return claim_id.lower()


def rel_url(from_page: str, target: str, fragment: str | None = None) -> str:
    """A relative link from one docs page to another file, percent-encoded."""
    here, there = from_page.split("/")[:-1], target.split("/")
    common = 0
    while common < min(len(here), len(there) - 1) and here[common] == there[common]:
        common += 1
    path = "/".join([".."] * (len(here) - common) + there[common:])
    url = quote(path, safe="/.-_~")
    return f"{url}#{fragment}" if fragment else url


def site_path(docs_path: str, directory_urls: bool) -> str:
    """Where a docs file is served in the built site, from its root (as MkDocs places it)."""
    if not docs_path.endswith(".md"):
        return docs_path
    stem = docs_path[:-3]
    if not directory_urls:
        return stem + ".html"
    if stem == "index" or stem.endswith("/index"):
        return stem[:-5]  # "" or "records/"
    return stem + "/"


def site_url(from_page: str, target: str, fragment: str | None = None,
             directory_urls: bool = False) -> str:
    """A final relative URL from one page to a docs file, for HTML MkDocs does not rewrite."""
    src, dst = site_path(from_page, directory_urls), site_path(target, directory_urls)
    here, there = src.split("/")[:-1], dst.split("/")
    common = 0
    while common < min(len(here), len(there) - 1) and here[common] == there[common]:
        common += 1
    path = "/".join([".."] * (len(here) - common) + there[common:]) or "./"
    url = quote(path, safe="/.-_~")
    return f"{url}#{fragment}" if fragment else url


@dataclass
class AnalysisInfo:
    """An analysis as its page shows it: registry entry, result state, what it checks."""

    name: str
    title: str
    description: str | None
    registered: bool
    result_state: ResultState | None = None
    claims: list[str] = field(default_factory=list)  # refs of the claims it checks
    discrepancies: list[tuple[str, str]] = field(default_factory=list)  # (record id, D1)

    @property
    def page(self) -> str:
        """The analysis's page in the docs folder."""
        return f"analyses/{self.name}.md"

    @property
    def state(self) -> str:
        """The badge of its result: current, stale, not_run or modified."""
        st = self.result_state.state if self.result_state else "missing"
        return "not_run" if st == "missing" else st

    @property
    def result(self) -> dict | None:
        """The stored result (current or not), None when missing or modified."""
        return self.result_state.result if self.result_state else None

    @property
    def current(self) -> bool:
        """Whether the stored result is current."""
        return self.result_state is not None and self.result_state.current

    @property
    def why_stale(self) -> str | None:
        """Why the result is not current, when it is not."""
        return self.result_state.reason if self.result_state else None


@dataclass
class SiteData:
    """Everything the pages are made from, read once, and how pages link to each other."""

    project: Project
    profile: str
    statuses: dict[str, ClaimStatus]
    analyses: dict[str, AnalysisInfo]
    out_edges: dict[str, list[Edge]]
    results_dir: Path
    directory_urls: bool = False
    refused: list[str] = field(default_factory=list)  # files not published, with why
    suspects: dict[str, list[str]] = field(default_factory=dict)  # record or claim -> why (links)
    numbers: StoredNumbers | None = None  # what placeholders in prose cite (`litrec.verdicts.cited`)
    _figures: dict[str, list[tuple[str, str, bytes]]] = field(default_factory=dict, repr=False)
    _at_scale: dict[str, dict[str, ClaimStatus]] = field(default_factory=dict, repr=False)

    def status_at(self, scale: str, ref: str) -> ClaimStatus | None:
        """A claim's full status at `scale` (this site's profile: its own status), judged once
        per scale when first asked, for pages that show the scales side by side."""
        if scale == self.profile:
            return self.statuses.get(ref)
        if scale not in self._at_scale:
            self._at_scale[scale] = {s.claim: s for s in claim_statuses(
                self.project, self.results_dir, scale, only=set(self.statuses))}
        return self._at_scale[scale].get(ref)

    def cited(self, text: str | None) -> str | None:
        """Record prose with each placeholder of a stored number replaced by the number, read
        from its result (`litrec.verdicts.cited`); escape it as the prose it is."""
        if self.numbers is None:
            self.numbers = StoredNumbers(self.results_dir, self.project.registry)
        return self.numbers.render(text)

    def record_page(self, rid: str) -> str:
        """The docs page of a record."""
        return page_of(self.project.records[rid].kind, rid)

    def url(self, from_page: str, ref: str) -> str | None:
        """Link from a page to a record id or claim ref; None when it names no record or claim."""
        rid, _, cid = ref.partition("#")
        rec = self.project.records.get(rid)
        if rec is None:
            return None
        if cid:
            if self.project.claim(ref) is None:
                return None
            return rel_url(from_page, self.record_page(rid), anchor(cid))
        return rel_url(from_page, self.record_page(rid))

    def resolver(self, from_page: str):
        """`url` bound to one page, for text that links ids."""
        return lambda ref: self.url(from_page, ref)

    def link(self, from_page: str, target: str, fragment: str | None = None) -> str:
        """A final URL from a page to a docs file (for stored HTML)."""
        if target == from_page and fragment:
            return f"#{fragment}"
        return site_url(from_page, target, fragment, self.directory_urls)

    def href(self, from_page: str, ref: str) -> str | None:
        """Like `url`, as a final URL for stored HTML."""
        rid, _, cid = ref.partition("#")
        if rid not in self.project.records or (cid and self.project.claim(ref) is None):
            return None
        return self.link(from_page, self.record_page(rid), anchor(cid) if cid else None)

    def href_resolver(self, from_page: str):
        """`href` bound to one page, for stored HTML."""
        return lambda ref: self.href(from_page, ref)

    def analysis_href(self, from_page: str, name: str) -> str | None:
        """A final URL from a page to an analysis's page, or None."""
        return self.link(from_page, f"analyses/{name}.md") if name in self.analyses else None

    def figures(self, name: str) -> list[tuple[str, str]]:
        """(figure name, docs-relative path) of an analysis's figures for this profile."""
        if name not in self._figures:
            self._figures[name] = self._read_figures(name)
        return [(fig, path) for fig, path, _ in self._figures[name]]

    def figure_bytes(self, docs_path: str) -> bytes:
        """What a figure's docs path holds: the file in results/, an SVG made safe."""
        name = docs_path.split("/")[1]
        self.figures(name)
        return next(raw for _, path, raw in self._figures[name] if path == docs_path)

    def _read_figures(self, name: str) -> list[tuple[str, str, bytes]]:
        info = self.analyses.get(name)
        if info is None or info.result is None:
            return []
        out = []
        root = project_root(self.results_dir)
        for fig, rel in (info.result.get("figures") or {}).items():
            rel = str(rel)
            src = self.results_dir / name / rel
            if ".." in rel.split("/") or rel.startswith("/") or not os.path.lexists(src):
                continue  # listed but missing (or outside the result's folder): not shown
            try:
                raw = _publishable(src, read_file(src, root))
            except (Refused, UnsafeFigure) as exc:
                self.refused.append(f"{src}: {exc}; not published")
                continue
            except OSError:
                continue
            out.append((str(fig), f"figures/{name}/{rel}", raw))
        return out


def gather(project: Project, results_dir: Path, profile: str,
           directory_urls: bool = False) -> SiteData:
    """Read the records' verdicts and every analysis's result once, for all the pages."""
    reg = project.registry
    analyses: dict[str, AnalysisInfo] = {}
    if reg is not None:
        for name, entry in sorted(reg.entries.items()):
            analyses[name] = AnalysisInfo(name, entry.title, entry.description, True)
    for rec, claim in project.claims():
        if claim.check is not None:
            _info(analyses, claim.check.analysis).claims.append(f"{rec.id}#{claim.id}")
    for rid in sorted(project.records):
        for d in getattr(project.records[rid], "discrepancies", []) or []:
            if d.analysis:
                _info(analyses, d.analysis).discrepancies.append((rid, d.id))
    states = result_states(reg, Path(results_dir), sorted(analyses), profile)
    for name, info in analyses.items():
        info.result_state = states[name]
    judged = claim_statuses(project, Path(results_dir), profile, states=states)
    statuses = {s.claim: s for s in with_scales(project, Path(results_dir), judged, profile)}
    out_edges: dict[str, list[Edge]] = defaultdict(list)
    for e in project.edges:
        out_edges[e.source].append(e)
    from litrec.verdicts.suspect import suspects

    numbers = StoredNumbers(Path(results_dir), reg, {(n, profile): st for n, st in states.items()})
    return SiteData(project, profile, statuses, analyses, dict(out_edges), Path(results_dir),
                    directory_urls, suspects=suspects(project, Path(results_dir)), numbers=numbers)


_RASTER = (".png", ".jpg", ".jpeg", ".gif", ".webp")


def _publishable(path: Path, raw: bytes) -> bytes:
    """A figure as the site publishes it: an SVG made safe, a raster image as it is."""
    if path.suffix.lower() == ".svg":
        return sanitise_svg(raw)
    if path.suffix.lower() in _RASTER:
        return raw
    raise UnsafeFigure("is not an image the site publishes (SVG, PNG, JPEG, GIF or WebP)")


def _info(analyses: dict[str, AnalysisInfo], name: str) -> AnalysisInfo:
    if name not in analyses:
        analyses[name] = AnalysisInfo(name, name, None, False)
    return analyses[name]


def result_metric(result: dict | None, name: str) -> Any:
    """A stored metric by dotted name, or KeyError."""
    if result is None:
        raise KeyError(name)
    return get_metric(result.get("metrics", {}), name)
