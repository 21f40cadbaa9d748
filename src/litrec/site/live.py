"""The HTML site `litrec site serve` shows, rebuilt page by page as the docs folder changes.

A full MkDocs build of 1,000 record pages takes many seconds; an edit to one
record changes a few pages (its own, those that link it or list it). So after
the first build only the pages whose docs file changed are rendered, in a
build that leaves every other page out, and moved into the served folder; a
page whose docs file went is deleted, changed figures and assets are copied,
and the search index and sitemap have the pages' entries replaced.

That is exact as long as the navigation, which every page shows, is the
same: the nav's structure and titles, the pages in it, and the front matter
of each page in it (a title it gives itself, when the nav names none, is
all of its text). When any of that changed, or mkdocs.yml did, the whole
site is built again. The templates are compiled once per server, not once
per build (a Jinja bytecode cache).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from urllib.parse import urljoin

from litrec.site import mkdocs_build
from litrec.util import jsonread


class _Watch:
    """What the HTML of every page shares, as one MkDocs build saw it; and the page URLs."""

    def __init__(self, cache):
        self.cache = cache
        self.nav: object = None  # the nav's signature (see the module docstring)
        self.pages: dict[str, tuple[str, str]] = {}  # docs path -> (URL, file in the site)

    def plugin(self):
        """A MkDocs plugin that records the nav and pages and shares the template cache."""
        from mkdocs.plugins import BasePlugin
        from mkdocs.structure.nav import Link, Section
        from mkdocs.utils import meta

        watch = self

        class Watch(BasePlugin):
            def on_files(self, files, config):  # before the shard plugin leaves pages out
                pages = [f for f in files if f.is_documentation_page()]
                watch.pages = {f.src_uri: (f.url, f.dest_uri) for f in pages}
                self.in_nav = sorted(f.src_uri for f in pages if f.inclusion.is_in_nav())
                return files

            def on_nav(self, nav, config, files):
                docs = Path(config.docs_dir)

                def sig(items):
                    out = []
                    for item in items:
                        if isinstance(item, Section):
                            out.append(("section", item.title, sig(item.children)))
                        elif isinstance(item, Link):
                            out.append(("link", item.title, item.url))
                        else:  # a page: what of its file the nav shows
                            text = (docs / item.file.src_uri).read_text(encoding="utf-8", errors="replace")
                            shown = meta.get_data(text)[1] if item.title is not None else text
                            out.append(("page", item.title, item.file.src_uri, json.dumps(shown, default=str)))
                    return out

                watch.nav = (sig(nav.items), self.in_nav)
                return nav

            def on_env(self, env, config, files):
                env.bytecode_cache = watch.cache
                return env

        return Watch()


def _bytecode_cache():
    """A Jinja bytecode cache in memory: the theme's templates compiled once per server."""
    from jinja2 import BytecodeCache

    class Memory(BytecodeCache):
        def __init__(self):
            self.store: dict[str, bytes] = {}

        def load_bytecode(self, bucket):
            if bucket.key in self.store:
                bucket.bytecode_from_string(self.store[bucket.key])

        def dump_bytecode(self, bucket):
            self.store[bucket.key] = bucket.bytecode_to_string()

    return Memory()


class LiveSite:
    """The served HTML folder of one docs folder: `full` builds it, `update` rebuilds what changed."""

    def __init__(self, config_file: Path, docs_dir: Path, site_dir: Path, serve_url: str):
        self.config_file, self.docs_dir, self.site_dir = config_file, docs_dir, site_dir
        self.serve_url = serve_url
        self.watch = _Watch(_bytecode_cache())
        self.config_mtime: int | None = None
        self.warnings: list[str] = []

    def full(self, handwritten: dict[str, str], jobs: int | None = 1) -> None:
        """Build every page (in `jobs` MkDocs processes, None: by size and cores; more than 1
        only while no thread runs)."""
        pages = {rel: (self.docs_dir / rel).stat().st_size
                 for rel in _docs_pages(self.docs_dir)}
        self.config_mtime = self.config_file.stat().st_mtime_ns
        self.warnings, _ = mkdocs_build.build(self.config_file, self.docs_dir, self.site_dir, pages,
                                              handwritten, jobs, self.serve_url,
                                              {"litrec-live": self.watch.plugin()})

    def update(self, changed: set[str], handwritten: dict[str, str]) -> str:
        """Bring the site up to date with the docs paths that changed (written or removed);
        returns what was done: "nothing", "pages" or "full"."""
        if self.config_file.stat().st_mtime_ns != self.config_mtime:
            self.full(handwritten)
            return "full"
        if not changed:
            return "nothing"
        present = {rel for rel in changed if (self.docs_dir / rel).is_file()}
        render = {rel for rel in present if rel.endswith(".md")}
        before, nav = dict(self.watch.pages), self.watch.nav
        tmp = Path(tempfile.mkdtemp(prefix=f".{self.site_dir.name}-pages-", dir=self.site_dir.parent))
        try:
            self.warnings = mkdocs_build.build_once(self.config_file, self.docs_dir, tmp, handwritten,
                                                    render, False, self.serve_url,
                                                    {"litrec-live": self.watch.plugin()})
            if self.watch.nav != nav:
                self.full(handwritten)
                return "full"
            self._merge(tmp, render, {rel for rel in changed - present if rel.endswith(".md")}, before)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        for rel in changed - render:  # figures, assets: MkDocs copies them as they are
            dest = self.site_dir / rel
            if rel in present:
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(self.docs_dir / rel, dest)
            elif dest.is_file():
                dest.unlink()
        return "pages"

    def _merge(self, tmp: Path, rendered: set[str], removed: set[str],
               before: dict[str, tuple[str, str]]) -> None:
        """Move the rendered pages into the site, delete the removed ones, patch search and sitemap."""
        pages = self.watch.pages
        for rel in rendered:
            dest = pages[rel][1]
            (self.site_dir / dest).parent.mkdir(parents=True, exist_ok=True)
            os.replace(tmp / dest, self.site_dir / dest)
        gone = {before[rel][0] for rel in removed if rel in before}
        for rel in removed:
            if rel in before and (self.site_dir / before[rel][1]).is_file():
                (self.site_dir / before[rel][1]).unlink()
        fresh = {pages[rel][0] for rel in rendered}
        _patch_search(self.site_dir, tmp, fresh, gone)
        _patch_sitemap(self.site_dir, tmp, {urljoin(self.serve_url, u) for u in fresh | gone})


def _docs_pages(docs_dir: Path) -> list[str]:
    return [p.relative_to(docs_dir).as_posix() for p in docs_dir.rglob("*.md") if p.is_file()]


def _patch_search(site_dir: Path, tmp: Path, fresh: set[str], gone: set[str]) -> None:
    """The site's search index with the entries of the `fresh` pages (URLs) taken from `tmp`'s,
    in their place, and those of the `gone` pages dropped."""
    index, new = site_dir / "search" / "search_index.json", tmp / "search" / "search_index.json"
    if not (index.is_file() and new.is_file()):
        return
    data = jsonread.loads(index.read_text(encoding="utf-8"))
    entries: dict[str, list] = {}
    for d in jsonread.loads(new.read_text(encoding="utf-8"))["docs"]:
        entries.setdefault(d["location"].split("#")[0], []).append(d)
    docs = []
    for d in data["docs"]:
        url = d["location"].split("#")[0]
        if url in fresh or url in gone:
            docs += entries.pop(url, [])  # the page's new entries where its old ones were
        else:
            docs.append(d)
    data["docs"] = docs + [d for ds in entries.values() for d in ds]  # new pages
    index.write_text(json.dumps(data, separators=(",", ":"), ensure_ascii=False), encoding="utf-8")


def _patch_sitemap(site_dir: Path, tmp: Path, replaced: set[str]) -> None:
    """The site's sitemap without the `replaced` addresses, with `tmp`'s entries added."""
    sitemap, new = site_dir / "sitemap.xml", tmp / "sitemap.xml"
    if not (sitemap.is_file() and new.is_file()):
        return
    text = sitemap.read_text(encoding="utf-8")

    def keep(m: re.Match) -> str:
        loc = re.search(r"<loc>(.*?)</loc>", m.group(0), re.S)
        return "" if loc and loc.group(1).strip() in replaced else m.group(0)

    text = re.sub(r"[ \t]*<url>.*?</url>\n?", keep, text, flags=re.S)
    urls = re.findall(r"<url>.*?</url>", new.read_text(encoding="utf-8"), re.S)
    text = text.replace("</urlset>", "".join(u + "\n" for u in urls) + "</urlset>")
    sitemap.write_text(text, encoding="utf-8")
    (site_dir / "sitemap.xml.gz").write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
