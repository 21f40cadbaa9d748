"""The built site: every link resolves, every record and claim has its place, nothing is injected.

One build per session (see conftest.py); each test reads its output.
"""

from __future__ import annotations

import html as htmllib
import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from litrec.commands import main
from litrec.records.load import load_project
from litrec.site.build import SiteError, build_site, sync
from tests.conftest import REPO


class Page(HTMLParser):
    """Ids, links, scripts and text of one HTML file."""

    def __init__(self, path: Path):
        super().__init__(convert_charrefs=True)
        self.path = path
        self.ids: set[str] = set()
        self.links: list[tuple[str, str]] = []  # (tag, url)
        self.attrs: list[tuple[str, str, str]] = []  # (tag, name, value)
        self.scripts: list[str] = []
        self.title = ""
        self._in: list[str] = []
        self.feed(path.read_text(encoding="utf-8"))

    def handle_starttag(self, tag, attrs):
        self._in.append(tag)
        for name, value in attrs:
            value = value or ""
            self.attrs.append((tag, name, value))
            if name in ("id", "name") and value:
                self.ids.add(value)
            if (tag, name) in (("a", "href"), ("img", "src"), ("link", "href"), ("script", "src")):
                self.links.append((tag, value))
        if tag == "script":
            self.scripts.append("")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self._in.pop()

    def handle_endtag(self, tag):
        if tag in self._in:
            while self._in.pop() != tag:
                pass

    def handle_data(self, data):
        if self._in and self._in[-1] == "script":
            self.scripts[-1] += data
        if self._in and self._in[-1] == "title":
            self.title += data


def text(fragment: str) -> str:
    """The text a reader sees in a piece of HTML: tags dropped, entities decoded, spaces squeezed."""
    spaced = re.sub(r"</?(?:p|li|ul|ol|td|th|tr|table|h[1-6]|div|br|pre|details|summary)\b[^>]*>", " ",
                    fragment)
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", "", spaced)).split())


def read_text(path: Path) -> str:
    return text(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def pages(built) -> dict[str, Page]:
    assert built.code == 0, built.stderr
    return {p.relative_to(built.out).as_posix(): Page(p) for p in built.out.rglob("*.html")}


def test_build_reports_where_the_site_is_and_no_warnings(built):
    assert built.code == 0, built.stderr
    assert f"site built: {built.out / 'index.html'}" in built.stdout
    assert "no warnings" in built.stderr
    assert (built.out / "index.html").is_file() and (built.out / "search" / "search_index.json").is_file()


def broken_links(out: Path, pages: dict[str, Page]) -> list[str]:
    """Every relative link and image of the built site whose file or anchor is missing."""
    broken = []
    for rel, page in pages.items():
        for tag, url in page.links:
            parts = urlsplit(url)
            if parts.scheme or url.startswith("//"):
                assert parts.scheme in ("http", "https", "mailto"), f"{rel}: {url}"
                continue
            path = unquote(parts.path)
            if path.startswith("/"):  # 404.html links from the site's root, wherever it is served
                target = posixpath.normpath(path.lstrip("/"))
            else:
                base = posixpath.dirname(rel)
                target = posixpath.normpath(posixpath.join(base, path)) if path else rel
            if (out / target).is_dir():
                target = posixpath.join(target, "index.html")
            if not (out / target).is_file():
                broken.append(f"{rel}: {tag} {url} (no file {target})")
            elif parts.fragment and target.endswith(".html") and parts.fragment not in pages[target].ids:
                broken.append(f"{rel}: {url} (no id '{parts.fragment}' in {target})")
    return broken


def test_every_internal_link_resolves(built, pages):
    broken = broken_links(built.out, pages)
    assert not broken, "\n".join(broken[:20])


def test_links_resolve_with_directory_urls_too(built, tmp_path):
    """Generated HTML holds final URLs, so they must follow use_directory_urls: true as well."""
    conf = tmp_path / "mkdocs.yml"
    conf.write_text((built.root / "mkdocs.yml").read_text(encoding="utf-8").replace(
        "use_directory_urls: false", "use_directory_urls: true"), encoding="utf-8")
    (tmp_path / "site").symlink_to(built.root / "site")
    out = tmp_path / "out"
    build_site(built.root / "records", built.root / "analysis", built.root / "results", out_dir=out,
               config_file=conf, jobs=1)
    pages = {p.relative_to(out).as_posix(): Page(p) for p in out.rglob("*.html")}
    assert "records/NOTE-621/index.html" in pages
    broken = broken_links(out, pages)
    assert not broken, "\n".join(broken[:20])


def test_every_record_has_a_page_and_every_claim_an_anchor(built, pages):
    proj = load_project(built.root / "records", built.root / "analysis")
    assert len(proj.records) == 10
    for rid, rec in proj.records.items():
        folder = "anthology" if rec.kind == "anthology" else "records"
        page = pages.get(f"{folder}/{rid}.html")
        assert page is not None, rid
        for claim in getattr(rec, "claims", []) or []:
            assert claim.id.lower() in page.ids, f"{rid}#{claim.id}"
        for d in getattr(rec, "discrepancies", []) or []:
            assert f"discrepancy-{d.id.lower()}" in page.ids


def test_claim_refs_in_text_link_to_their_anchor(pages):
    note = pages["records/NOTE-9001.html"]
    urls = [u for _, u in note.links]
    assert "ARXIV-2212.07677.html#f1" in urls  # from prose
    assert "ARXIV-2212.07677.html#p1" in urls  # from a code span
    assert "ARXIV-2212.07677.html#p2" in urls  # from a link
    assert "DOI-10.1000_a%28b%29c.html" in urls


def test_script_in_record_text_is_escaped(built, pages):
    page = pages["records/NOTE-9001.html"]
    for script in page.scripts:
        assert "alert" not in script
    assert not [(t, n) for t, n, _ in page.attrs if n.startswith("on")]
    assert not [v for t, n, v in page.attrs if n in ("href", "src") and v.lower().startswith("javascript:")]
    html = (built.out / "records" / "NOTE-9001.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert('body')&lt;/script&gt;" in html
    assert "&lt;script&gt;alert('fence')&lt;/script&gt;" in html
    assert "<iframe" not in html and "onerror=alert" not in html.replace("onerror=alert(1)&gt;", "")
    # the browser title: "</title><script>" in a record's title must not leave <title>
    assert page.title.startswith("Hostile </title><script>alert('title')</script>")
    for rel, other in pages.items():
        assert all("alert" not in s for s in other.scripts), rel


def test_mermaid_labels_are_escaped(built):
    html = (built.out / "records" / "NOTE-9001.html").read_text(encoding="utf-8")
    graph = re.search(r'<pre class="mermaid"[^>]*><code>(.*?)</code></pre>', html, re.S).group(1)
    assert "<" not in graph.replace("&lt;", "").replace("&gt;", "")
    assert "#60;/title#62;" in graph


def test_dashboard_shows_every_claim_with_its_verdict(pages):
    home = (pages["index.html"].path).read_text(encoding="utf-8")
    expected = {
        "ARXIV-2212.07677#P1": "reproduced", "ARXIV-2212.07677#F1": "not-reproduced",
        "ARXIV-2212.07677#F2": "stale", "ARXIV-2212.07677#P2": "missing",
        "NOTE-621#C1": "missing", "DOI-10.1000_a(b)c#P1": "unchecked", "NOTE-9001#C1": "unchecked",
    }
    rows = re.findall(r"<tr>(.*?)</tr>", home, re.S)

    def row_of(ref):
        return next((r for r in rows if text(r).startswith(ref + " ")), None)

    for ref, verdict in expected.items():
        row = row_of(ref)
        assert row is not None, ref
        assert f'class="lr-badge lr-v-{verdict}"' in row, (ref, row)
    for ref in ("DOI-10.1000_a(b)c#P1", "NOTE-9001#C1"):  # a claim without an analysis says so
        assert "no analysis yet" in text(row_of(ref)), ref
    note = (pages["records/NOTE-9001.html"].path).read_text(encoding="utf-8")
    assert "no analysis yet" in text(note)
    # one row per claim, problems first (the record's order among equals), each with why
    order = [next(ref for ref in expected if text(r).startswith(ref + " "))
             for r in rows if any(text(r).startswith(ref + " ") for ref in expected)]
    assert order == ["ARXIV-2212.07677#F1", "ARXIV-2212.07677#F2", "ARXIV-2212.07677#P2",
                     "NOTE-621#C1", "DOI-10.1000_a(b)c#P1", "NOTE-9001#C1", "ARXIV-2212.07677#P1"]
    # each scale in a column of its own, the site's profile first: here paper, then paper_full
    p1 = text(row_of("ARXIV-2212.07677#P1"))
    assert p1.index("reproduced All 3 expectations hold, from one run.") < p1.index(
        "missing no paper_full result for 'prop1-identity'"), p1
    f1 = text(row_of("ARXIV-2212.07677#F1"))
    # the reason under the badge in a sentence; the counts, named as counts, folded beside it
    assert "not reproduced cos_sensitivity > 0.99 fails: 0.42 measured, from one run." in f1, f1
    assert "how it was decided Per expectation: 8 hold, 1 fail (of 9)." in f1, f1
    assert "code changed" in text(row_of("ARXIV-2212.07677#F2"))


def test_dashboard_counts_agree_with_the_verdict_beside_them(pages):
    """Counts beside a verdict are named for what they count, and a verdict's plain sentence
    never contradicts it: no bare tally of marks sits beside a verdict."""
    home = (pages["index.html"].path).read_text(encoding="utf-8")
    dash = home[home.index('class="lr-dashboard"'):]
    assert not re.search(r"[✓✗?]\s*\d+\s*(?:[✓✗?]\s*\d+\s*)*of \d+", text(dash))
    for cell in re.findall(r"<td>(.*?)</td>", dash, re.S):
        words = text(cell)
        if words.startswith("reproduced "):
            assert "hold" in words and "fail" not in words.split("how it was decided")[0], words


def test_home_lists_partial_records_and_validation_notes(pages):
    home = pages["index.html"]
    assert {"partial", "owners", "validation", "claims"} <= home.ids
    html = home.path.read_text(encoding="utf-8")
    for rid in ("NOTE-621", "THEORY-169", "ADR-013", "ANTH-LIT-533"):
        assert f'href="records/{rid}.html"' in html or f'href="anthology/{rid}.html"' in html
    # the owner's own records are shown as records (partial or not), never as known by reference
    owners = text(html[html.index('id="owners"'):html.index('id="partial"')])
    partial = text(html[html.index('id="partial"'):html.index('id="validation"')])
    for rid in ("NOTE-621", "THEORY-169", "ADR-013"):
        assert rid in owners and rid not in partial, rid
    assert "NOTE-621 note Conditioning a fixed system" in owners
    assert "ANTH-LIT-533 anthology" in partial and "ANTH-LIT-533 anthology" not in owners


def test_literature_page_has_citation_claims_discrepancies_and_provenance(built):
    html = (built.out / "records" / "ARXIV-2212.07677.html").read_text(encoding="utf-8")
    code = htmllib.unescape(re.sub(r"<[^>]+>", "", html))
    assert "@inproceedings{vonoswald2023transformers,\n  title         = {Transformers learn" in code
    assert "https://arxiv.org/abs/2212.07677" in html
    assert "../figures/prop1-identity/paper/error_by_task.svg" in html
    assert "Provenance" in html and "run started 2026-10-10T12:00:00+00:00" in text(html)
    assert "wall time 1.25 s" in text(html) and "seed 0" in text(html)
    # discrepancy D1 with its analysis's measured metric values
    d1 = html[html.index('id="discrepancy-d1"'):html.index('id="discrepancy-d2"')]
    assert "Measured by: gd-input-range current loss_gd_code_range = 0.2001 loss_gd_text_range = 0.8123" \
        in text(d1)
    assert 'lr-s-code' in d1  # the numbers follow the code
    # backlinks, grouped by inverse relation
    for inverse in ("used by", "kept by", "read in", "dropped by", "anthology entry"):
        assert f"<strong>{inverse}</strong>" in html, inverse


def test_anthology_section_shows_stances_and_who_points_at_each_entry(built):
    html = (built.out / "anthology" / "index.html").read_text(encoding="utf-8")
    for stance in ("kept", "rejected", "held"):
        assert f'id="{stance}"' in html
    rejected = html[html.index('id="rejected"'):]
    assert "ANTH-THEORY-068" in rejected and "rejected by" in rejected
    held = html[html.index('id="held"'):html.index('id="rejected"')] if html.index('id="held"') < \
        html.index('id="rejected"') else html[html.index('id="held"'):]
    assert "entry for" in held and "NOTE-621" in held  # the owner's reading of the same paper
    # each owner's record says what it does to the paper, in the direction it points
    words = text(held)
    assert "NOTE-621 (uses ARXIV-2212.07677#P1)" in words
    assert "NOTE-621 (reading of ARXIV-2212.07677)" in words
    assert "used by" not in words and "read in" not in words


def test_analysis_pages_show_metrics_figures_provenance_and_claims(built):
    html = (built.out / "analyses" / "prop1-identity.html").read_text(encoding="utf-8")
    assert "max_abs_error_f64 3e-16" in text(html)
    assert "../figures/prop1-identity/paper/error_by_task.svg" in html
    assert "ARXIV-2212.07677#P1 reproduced" in text(html) and "lr-v-reproduced" in html
    assert "&lt;b&gt;title&lt;/b&gt;" in html  # registry titles are escaped too
    assert "seed 0" in text(html) and "wall time 1.25 s" in text(html)
    stale = (built.out / "analyses" / "deeper-gdpp.html").read_text(encoding="utf-8")
    assert "stale: code changed" in stale
    idx = (built.out / "analyses" / "index.html").read_text(encoding="utf-8")
    assert "lr-v-not-run" in idx and "prop3-token-building" in idx


def test_graph_pages_use_mermaid_and_keep_its_source_out_of_search(built):
    for rel in ("graph.html", "records/ARXIV-2212.07677.html"):
        html = (built.out / rel).read_text(encoding="utf-8")
        assert '<pre class="mermaid" data-search-exclude><code>%%{init: ' in html
        assert "%%\ngraph LR\n" in htmllib.unescape(html)
    import json

    docs = json.loads((built.out / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    generated = [d for d in docs if d["location"].startswith(("records/", "anthology/", "graph.html"))]
    assert generated and not [d["location"] for d in generated if "classDef" in d["text"]]


def graph_source(html: str) -> str:
    return htmllib.unescape(re.search(r'<pre class="mermaid"[^>]*><code>(.*?)</code></pre>', html,
                                      re.S).group(1))


def test_graph_nodes_link_to_their_pages_and_each_link_has_its_own_arrow(built):
    whole = graph_source((built.out / "graph.html").read_text(encoding="utf-8"))
    ids = dict(re.findall(r'^  (n\d+)[\[({/]+"([^:"]+)', whole, re.M))
    links = dict(re.findall(r'^  click (n\d+) href "([^"]+)" "[^"]*"$', whole, re.M))
    assert links and set(links) == set(ids)  # every record, on the page of the whole graph
    for nid, url in links.items():
        assert (built.out / unquote(url)).is_file(), url
        assert unquote(url).endswith(f"/{ids[nid]}.html"), (ids[nid], url)
    # NOTE-621 reads the paper and uses two of its claims: three arrows, a label each
    note, paper = (next(n for n, r in ids.items() if r == rid) for rid in ("NOTE-621", "ARXIV-2212.07677"))
    arrows = re.findall(rf'^  {note} -->\|"([^"]*)"\| {paper}$', whole, re.M)
    assert arrows == ["reading of", "uses P1", "uses F1"], arrows
    # a record's own graph links its neighbours, relative to its page, and not itself
    own = graph_source((built.out / "records" / "NOTE-621.html").read_text(encoding="utf-8"))
    urls = re.findall(r'click n\d+ href "([^"]+)"', own)
    assert "ARXIV-2212.07677.html" in urls and "NOTE-621.html" not in urls
    assert all((built.out / "records" / unquote(u)).resolve().is_file() for u in urls)


def test_hand_written_pages_missing_from_the_nav_are_added_under_guide(built, pages):
    assert "extra-page.html" in pages
    nav = (built.out / "index.html").read_text(encoding="utf-8")
    assert re.search(r'href="extra-page.html"[^>]*>\s*<span class="md-ellipsis">\s*An extra page', nav)


def test_record_pages_stay_out_of_the_navigation(built):
    html = (built.out / "index.html").read_text(encoding="utf-8")
    assert "records/NOTE-621.html" not in re.sub(r'<article.*</article>', "", html, flags=re.S)


def test_docs_folder_is_synchronised_not_rewritten(built, tmp_path):
    docs = built.docs
    before = {p: p.stat().st_mtime_ns for p in docs.rglob("*.md")}
    proj = load_project(built.root / "records", built.root / "analysis")
    from litrec.site.build import generate

    files, _ = generate(proj, built.root / "results", "paper", built.root / "site")
    assert sync(docs, files) == set()  # nothing written: the docs paths written or removed
    assert {p: p.stat().st_mtime_ns for p in docs.rglob("*.md")} == before
    gone = dict(files, **{"records/GONE.md": "litrec wrote this once"})
    assert sync(docs, gone) == {"records/GONE.md"}
    assert (docs / "records" / "GONE.md").is_file()
    assert sync(docs, files) == {"records/GONE.md"}  # a page litrec wrote and no longer generates goes
    assert not (docs / "records" / "GONE.md").exists()
    stray = docs / "records" / "MINE.md"  # a file litrec did not write stops the sync, kept
    stray.write_text("x")
    with pytest.raises(SiteError, match="records/MINE.md"):
        sync(docs, files)
    assert stray.read_text() == "x"
    stray.unlink()


def test_refuses_to_clean_a_folder_it_did_not_make(built, tmp_path):
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.tex").write_text("years of work")
    with pytest.raises(SiteError, match="not empty and litrec will not replace it"):
        build_site(built.root / "records", built.root / "analysis", built.root / "results",
                   out_dir=precious, config_file=built.root / "mkdocs.yml", docs_dir=tmp_path / "docs")
    assert (precious / "thesis.tex").read_text() == "years of work"


def test_cli_usage_errors(capsys):
    assert main(["site"]) == 2
    assert "site needs an action" in capsys.readouterr().err
    assert main(["site", "build", "--records", "/nonexistent/records"]) == 2


def test_repo_mkdocs_config_keeps_record_pages_out_of_nav():
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    assert "not_in_nav" in text and "/records/*.md" in text
    assert "writing-analyses.md" in text


def test_sharded_build_gives_the_same_site(built, pages, tmp_path):
    """A large site is built by several MkDocs processes; the result must not differ."""
    import json

    out = tmp_path / "sharded"
    report = build_site(built.root / "records", built.root / "analysis", built.root / "results",
                        out_dir=out, config_file=built.root / "mkdocs.yml", docs_dir=tmp_path / "docs",
                        jobs=2)
    assert len(report.shard_cpu) == 2
    sharded = {p.relative_to(out).as_posix() for p in out.rglob("*.html")}
    assert sharded == set(pages)
    for rel in ("records/ARXIV-2212.07677.html", "records/NOTE-9001.html", "anthology/ANTH-LIT-533.html",
                "index.html"):
        assert (out / rel).read_text(encoding="utf-8") == (built.out / rel).read_text(encoding="utf-8")

    def docs(site):
        return sorted(d["location"] for d in json.loads(
            (site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"])

    assert docs(out) == docs(built.out)
    assert not list(tmp_path.glob(".sharded-shard*"))  # the shards' folders are gone


def test_search_finds_a_record_by_its_id_and_keeps_table_cells_apart(built):
    import json

    docs = json.loads((built.out / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    by_location = {d["location"]: d for d in docs}
    # the page's heading (the title the search weighs most) names the id, on that page only
    assert by_location["records/NOTE-621.html"]["title"].startswith("NOTE-621 · Conditioning")
    assert by_location["anthology/ANTH-LIT-533.html"]["title"].startswith("ANTH-LIT-533 · ")
    assert [d["location"] for d in docs if "NOTE-621" in d["title"]] == ["records/NOTE-621.html"]
    p1 = by_location["records/ARXIV-2212.07677.html#p1"]["text"]
    assert "Expectation Measured Expected Paper Official code Source ✓ <code>max_abs_error_f64 &lt; 1e-10</code> 3e-16 1e-10" in p1
    assert "3e-16 1e-10" in p1


def test_pages_load_graphs_and_maths_from_the_site_itself(built):
    html = (built.out / "records" / "ARXIV-2212.07677.html").read_text(encoding="utf-8")
    scripts = re.findall(r'<script src="([^"]+)"', html)
    styles = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
    for ref in ("../assets/vendor/mermaid/mermaid.min.js", "../assets/vendor/katex/katex.min.js",
                "../assets/maths.js"):
        assert ref in scripts, scripts
    assert "../assets/vendor/katex/katex.min.css" in styles
    for ref in scripts + styles:
        assert "://" not in ref, ref  # nothing from a CDN
        assert (built.out / "records" / ref.split("?")[0]).resolve().is_file(), ref
    vendor = built.out / "assets" / "vendor"
    assert (vendor / "mermaid" / "LICENSE").is_file() and (vendor / "katex" / "LICENSE").is_file()
    css = (vendor / "katex" / "katex.min.css").read_text(encoding="utf-8")
    for font in set(re.findall(r"url\((fonts/[^)]+\.woff2)\)", css)):
        assert (vendor / "katex" / font).is_file(), font


def test_graph_has_a_legend_whole_labels_and_nodes_filled_by_verdict(built):
    html = (built.out / "graph.html").read_text(encoding="utf-8")
    legend = text(html[html.index('class="lr-legend"'):html.index('class="mermaid"')])
    for words in ("Literature", "Notes", "Anthology", "holds", "fails", "unsettled or behind",
                  "not judged", "no claims", "reading of", "uses"):
        assert words in legend, words
    whole = graph_source(html)
    ids = dict(re.findall(r'^  (n\d+)[\[({/]+"([^:"]+)', whole, re.M))
    node = {rid: n for n, rid in ids.items()}
    fills = {}
    for cls, fill in re.findall(r"^  classDef (tone\d+) fill:(#[0-9a-f]{6})$", whole, re.M):
        members = re.search(rf"^  class ([\w,]+) {cls}$", whole, re.M).group(1).split(",")
        fills.update({m: fill for m in members})
    assert fills[node["ARXIV-2212.07677"]] == "#fbdada"  # F1 is not reproduced: its worst claim
    assert fills[node["NOTE-621"]] == "#e5e7eb"  # C1 has no result yet
    assert fills[node["ADR-013"]] == "#ffffff"  # no claims
    # the label is whole (wrapped by Mermaid), never cut with an ellipsis
    assert "#8230;" not in whole
    assert "ARXIV-2212.07677: Transformers learn in-context by gradient descent" in whole


def test_a_record_page_draws_its_graph_with_the_legend_of_the_graph_page(built):
    """A record's neighbourhood graph says what its shapes, fills and arrows mean, as the whole
    graph does (one function, `litrec.site.graph.legend`): for the kinds and relations it draws,
    with its own record, drawn with a thick outline, named."""
    def legend(page: str) -> str:
        html = (built.out / page).read_text(encoding="utf-8")
        html = html[html.index('id="graph"'):] if page.startswith("records/") else html
        return text(html[html.index('class="lr-legend"'):html.index('class="mermaid"')])

    own, whole = legend("records/NOTE-621.html"), legend("graph.html")
    for words in ("Literature (rectangle)", "Notes (rounded box)", "Theories (stadium)",
                  "The thick outline is this record, NOTE-621.", "reading of", "uses", "source of"):
        assert words in own, words
    for words in ("Decisions", "Anthology", "keeps", "held under"):  # drawn on the graph page only
        assert words in whole and words not in own, words
    fills = re.compile(r"Fill: .*? no claims")  # the verdict tones: the same words on both
    assert fills.search(own).group(0) == fills.search(whole).group(0)
    assert "holds (reproduced)" in fills.search(own).group(0)
