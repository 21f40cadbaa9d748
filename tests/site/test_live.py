"""`litrec site serve`'s rebuild after an edit: only the pages that changed, the same pages as a
whole build would make (`litrec.site.live`), on the fixture project."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from litrec.site.live import LiveSite
from litrec.site.serve import DocsFolder
from tests.site.conftest import make_project

URL = "http://127.0.0.1:8000/"


class Served:
    """A project, its docs folder and the site `litrec site serve` would show of it."""

    def __init__(self, root: Path, site: Path):
        self.root, self.site = root, site
        self.config = root / "mkdocs.yml"
        self.docs = DocsFolder(root / "records", None, root / "results", "paper", self.config)
        _, titles = self.regenerate()
        self.live = LiveSite(self.config, root / "build" / "docs", site, URL)
        self.live.full(titles)

    def regenerate(self) -> tuple[set[str], dict[str, str]]:
        changed, titles, _ = self.docs.generate(1)
        return changed, titles

    def update(self) -> str:
        """Regenerate after an edit and rebuild what changed; what was done."""
        return self.live.update(*self.regenerate())

    def page(self, rel: str) -> str:
        return (self.site / rel).read_text(encoding="utf-8")


@pytest.fixture
def served(tmp_path) -> Served:
    return Served(make_project(tmp_path / "project"), tmp_path / "served")


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def assert_same_as_whole_build(served: Served, tmp_path: Path) -> None:
    """Every file of the served site is what a whole build of the same docs makes (the search
    index and sitemap hold the same entries, new pages' at the end)."""
    whole = tmp_path / "whole"
    again = DocsFolder(served.root / "records", None, served.root / "results", "paper", served.config)
    assert again.generate(1)[0] == set()  # every page as generating them all makes them
    LiveSite(served.config, served.root / "build" / "docs", whole, URL).full(served.regenerate()[1])
    mine, theirs = _files(served.site), _files(whole)
    assert sorted(mine) == sorted(theirs)
    special = {"search/search_index.json", "sitemap.xml", "sitemap.xml.gz"}
    assert [f for f in mine if f not in special and mine[f] != theirs[f]] == []

    def entries(files):
        docs = json.loads(files["search/search_index.json"])["docs"]
        return sorted(json.dumps(d, sort_keys=True) for d in docs)

    assert entries(mine) == entries(theirs)

    def urls(files):
        return sorted(re.findall(r"<url>.*?</url>", files["sitemap.xml"].decode(), re.S))

    assert urls(mine) == urls(theirs)


def _retitle(root: Path, rel: str, title: str) -> None:
    """Give a record a title (it has none before)."""
    path = root / "records" / rel
    text = path.read_text(encoding="utf-8")
    assert "\ntitle:" not in text
    path.write_text(text.replace("\nkind: ", f"\ntitle: {title}\nkind: ", 1), encoding="utf-8")


@pytest.mark.slow
def test_an_edit_rebuilds_its_page_and_the_pages_linking_it_only(served, tmp_path):
    untouched = served.site / "records" / "ADR-013.html"  # links no theory, linked by none here
    before = untouched.stat().st_mtime_ns
    _retitle(served.root, "theories/THEORY-169.yaml", "A retitled theory")
    assert served.update() == "pages"
    assert "A retitled theory" in served.page("records/THEORY-169.html")
    assert "A retitled theory" in served.page("records/NOTE-621.html")  # it links the theory
    assert "A retitled theory" in served.page("records/index.html")  # it lists every record
    assert untouched.stat().st_mtime_ns == before
    index = served.page("search/search_index.json")
    assert index.count('"location":"records/THEORY-169.html"') == 1
    assert_same_as_whole_build(served, tmp_path)


@pytest.mark.slow
def test_a_deleted_record_page_and_its_search_entries_go(served, tmp_path):
    assert (served.site / "records" / "THEORY-169.html").is_file()
    (served.root / "records" / "theories" / "THEORY-169.yaml").unlink()
    assert served.update() == "pages"
    assert not (served.site / "records" / "THEORY-169.html").exists()
    assert "records/THEORY-169.html" not in served.page("search/search_index.json")
    assert "THEORY-169.html" not in served.page("records/NOTE-621.html")
    assert_same_as_whole_build(served, tmp_path)


@pytest.mark.slow
def test_a_new_record_gets_a_page_and_nothing_changed_rebuilds_nothing(served, tmp_path):
    assert served.update() == "nothing"
    new = served.root / "records" / "theories" / "THEORY-170.yaml"
    new.write_text("id: THEORY-170\nkind: theory\nstatus: open\ntitle: A new theory\n"
                   "links:\n  - rel: derived_from\n    target: THEORY-169\n", encoding="utf-8")
    assert served.update() == "pages"
    assert "A new theory" in served.page("records/THEORY-170.html")
    assert "THEORY-170.html" in served.page("records/THEORY-169.html")  # a backlink
    assert_same_as_whole_build(served, tmp_path)


@pytest.mark.slow
def test_a_change_to_the_nav_rebuilds_the_whole_site(served, tmp_path):
    (served.root / "site" / "new-page.md").write_text("# A new page\n\nIn the Guide.\n")
    assert served.update() == "full"
    assert 'href="new-page.html"' in served.page("records/NOTE-621.html").replace("../", "")
    assert_same_as_whole_build(served, tmp_path)


@pytest.mark.slow
def test_generating_only_what_edits_change_gives_the_pages_of_a_whole_generation(tmp_path):
    root = make_project(tmp_path / "project")
    config = root / "mkdocs.yml"
    docs = DocsFolder(root / "records", None, root / "results", "paper", config)
    docs.generate(1)
    rec = root / "records"
    note = rec / "notes" / "NOTE-621.yaml"
    edits = [
        lambda: _retitle(root, "theories/THEORY-169.yaml", "Retitled"),  # a linked record's title
        lambda: _retitle(root, "decisions/ADR-013.yaml", "Held"),  # named in other records' prose
        lambda: note.write_text(note.read_text().replace(  # a link goes
            "  - rel: source_of\n    target: THEORY-169\n", "")),
        lambda: (rec / "theories" / "THEORY-171.yaml").write_text(  # prose names a record to come
            "id: THEORY-171\nkind: theory\nstatus: open\nsummary: Before THEORY-172 exists.\n"),
        lambda: (rec / "theories" / "THEORY-172.yaml").write_text(  # ... which comes, linking back
            "id: THEORY-172\nkind: theory\nstatus: open\ntitle: Late\nlinks:\n"
            "  - rel: derived_from\n    target: THEORY-169\n"),
        lambda: (rec / "theories" / "THEORY-169.yaml").unlink(),  # a record goes
    ]
    for i, edit in enumerate(edits):
        edit()
        changed, _, _ = docs.generate(1)
        assert changed, i
        whole = DocsFolder(root / "records", None, root / "results", "paper", config)
        assert whole.generate(1)[0] == set(), f"edit {i}: a page differs from a whole generation"
