"""The built site read with the network blocked: graphs and maths render from the bundled scripts,
nothing is fetched from another host, and the search finds a record by its id.

A site is built from the fixture project, with a formula added to a claim's
statement, and served on localhost. Headless Chromium reads it with every
other host unreachable (its resolver maps every name but localhost to
nothing, and its proxy is a closed port). It is driven over the DevTools
protocol on a pipe (`--remote-debugging-pipe`), which can see inside the
closed shadow root Material draws each Mermaid graph in. Skips, saying why,
only where no Chromium can be found (CI's .ci/run installs Debian's chromium).
"""

from __future__ import annotations

import fcntl
import functools
import json
import os
import queue
import re
import shutil
import subprocess
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from litrec.commands import main
from tests.conftest import REPO, copy_project
from tests.site.conftest import write_results
from tests.support.browser import CHROMIUM, FLAGS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

OFFLINE = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
           "--proxy-server=127.0.0.1:9"]
FORMULA = (r"$\Delta W = -\frac{\eta}{N} \sum_i (W_0 x_i - y_i) x_i^\top$ with "
           r"$W_K = \begin{pmatrix} I_x & 0 \\ 0 & 0 \end{pmatrix}$")  # & and \\ reach KaTeX
DISPLAY = "\n  $$\n  L(W) = \\frac{1}{2N} \\sum_{i=1}^{N} \\|W x_i - y_i\\|^2\n  $$\n"


class Browser:
    """Chromium driven over the DevTools protocol on a pipe (fd 3 in, fd 4 out)."""

    def __init__(self, profile):
        to_chrome, self._cmd = os.pipe()
        self._events, from_chrome = os.pipe()
        # bash moves them to 3 and 4; numbered above both, one cannot overwrite the other
        to_chrome, from_chrome = (_above(fd, 10) for fd in (to_chrome, from_chrome))
        script = f'exec "$0" "$@" 3<&{to_chrome} 4>&{from_chrome}'
        self.proc = subprocess.Popen(
            ["bash", "-c", script, CHROMIUM, *FLAGS, *OFFLINE, "--remote-debugging-pipe",
             f"--user-data-dir={profile}", "about:blank"],
            pass_fds=(to_chrome, from_chrome), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome)
        os.close(from_chrome)
        self._next = 0
        self._inbox: queue.Queue = queue.Queue()
        self.events: list[dict] = []
        threading.Thread(target=self._read, daemon=True).start()
        target = next(t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=target["targetId"],
                                 flatten=True)["sessionId"]

    def _read(self) -> None:
        buf = b""
        with os.fdopen(self._events, "rb", buffering=0) as fh:
            while chunk := fh.read(65536):
                buf += chunk
                *messages, buf = buf.split(b"\0")
                for m in messages:
                    self._inbox.put(json.loads(m))

    def call(self, method: str, session: str | None = None, **params) -> dict:
        """Send one command; wait for its answer (events that arrive meanwhile are kept)."""
        self._next += 1
        msg = {"id": self._next, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self._cmd, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + 30
        while True:
            m = self._inbox.get(timeout=max(0.1, deadline - time.monotonic()))
            if m.get("id") == self._next:
                assert "error" not in m, (method, m["error"])
                return m["result"]
            self.events.append(m)

    def page(self, method: str, **params) -> dict:
        """A command to the page's session."""
        return self.call(method, self.session, **params)

    def close(self) -> None:
        os.close(self._cmd)  # Chromium exits when its pipe closes
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _above(fd: int, low: int) -> int:
    new = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, low)
    os.close(fd)
    return new


def _walk(node: dict):
    yield node
    for child in node.get("children", []) + node.get("shadowRoots", []):
        yield from _walk(child)


def _mermaid_graphs(browser: Browser) -> list[dict]:
    """Each rendered Mermaid container's shadow root (Material draws the SVG in a closed one)."""
    root = browser.page("DOM.getDocument", depth=-1, pierce=True)["root"]
    found = []
    for node in _walk(root):
        attrs = dict(zip(node.get("attributes", [])[::2], node.get("attributes", [])[1::2]))
        if node.get("nodeName") == "DIV" and "mermaid" in attrs.get("class", "").split():
            found += node.get("shadowRoots", [])
    return found


def _evaluate(browser: Browser, expression: str):
    return browser.page("Runtime.evaluate", expression=expression, awaitPromise=True,
                        returnByValue=True)["result"].get("value")


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory):
    """The fixture project's site, with maths in claim P1 and in the body, and results, built."""
    root = copy_project(tmp_path_factory.mktemp("offline") / "project")
    record = root / "records" / "literature" / "ARXIV-2212.07677.yaml"
    text = record.read_text(encoding="utf-8")
    end = "      only in the query token's output.\n"
    assert end in text
    record.write_text(text.replace(end, end.rstrip("\n") + f" In symbols, {FORMULA}.\n", 1)
                      .replace("body: |\n", "body: |\n" + DISPLAY + "\n", 1), encoding="utf-8")
    write_results(root)  # verdicts to plot
    (root / "mkdocs.yml").write_bytes((REPO / "mkdocs.yml").read_bytes())
    shutil.copytree(REPO / "site", root / "site")
    cwd = os.getcwd()
    os.chdir(root)
    try:
        assert main(["site", "build", "--out", "public"]) == 0
    finally:
        os.chdir(cwd)
    return root / "public"


@pytest.fixture(scope="module")
def served(site_dir):
    """That site served on localhost."""
    handler = functools.partial(_Quiet, directory=str(site_dir))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def chromium(tmp_path_factory):
    """One Chromium for this module's tests (a start costs a second or two each)."""
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH (apt-get install chromium); the browser test needs one")
    b = Browser(tmp_path_factory.mktemp("offline-browser") / "profile")
    yield b
    b.close()


@pytest.fixture
def browser(chromium):
    """The module's Chromium on a blank page, no event noted yet: what a test reads of
    `events` is what its own pages asked for (the last test's page is gone, and what it
    sent before it went is read and dropped)."""
    chromium.page("Page.navigate", url="about:blank")
    _wait(lambda: _evaluate(chromium, "location.href === 'about:blank' && document.readyState === 'complete'"))
    chromium.events.clear()
    return chromium


def _open(browser: Browser, url: str) -> None:
    browser.page("Network.enable")
    browser.page("Page.enable")
    browser.page("Page.navigate", url=url)
    loaded = f"location.href === {json.dumps(url)} && document.readyState === 'complete'"
    assert _wait(lambda: _evaluate(browser, loaded)), f"{url} did not load"


def _wait(what, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while not (value := what()) and time.monotonic() < deadline:
        time.sleep(0.25)
    return value


def _requested(browser: Browser) -> list[str]:
    return [e["params"]["request"]["url"] for e in browser.events
            if e.get("method") == "Network.requestWillBeSent"]


def test_network_is_blocked(served, browser):
    _open(browser, served + "/index.html")
    assert _evaluate(browser, "fetch('https://unpkg.com/mermaid@11/dist/mermaid.min.js')"
                              ".then(() => 'reached', () => 'blocked')") == "blocked"
    assert _evaluate(browser, "fetch('/sitemap.xml').then(r => r.status)") == 200


@pytest.mark.parametrize("how", ["served", "file"])
def test_record_page_draws_its_graph_and_its_maths_offline(site_dir, served, browser, how):
    """Served on localhost, or opened from its files (file://)."""
    base = served if how == "served" else site_dir.as_uri()
    _open(browser, base + "/records/ARXIV-2212.07677.html")
    graphs = _wait(lambda: [g for g in _mermaid_graphs(browser)
                            if any(n.get("nodeName") == "svg" for n in _walk(g))])
    assert graphs, "no Mermaid graph was drawn (the bundled mermaid.min.js did not run)"
    labels = " ".join(n["nodeValue"] for n in _walk(graphs[0]) if n.get("nodeType") == 3)
    # whole labels (Mermaid wraps them, nothing is cut), and no entity code left undrawn
    assert "ARXIV-2212.07677: Transformers learn in-context by gradient descent" in labels
    assert not re.search(r"#\d+;", labels.rsplit("}", 1)[-1])  # after Mermaid's own style text
    maths = _wait(lambda: _evaluate(browser, "[...document.querySelectorAll('.arithmatex')]"
                                             ".map(e => [e.tagName, !!e.querySelector('.katex'),"
                                             " !!e.querySelector('.katex-error'), e.textContent])"))
    assert [m[:3] for m in maths] == [["DIV", True, False], ["SPAN", True, False],
                                      ["SPAN", True, False]], maths
    assert "katex-display" in _evaluate(browser, "document.querySelector('div.arithmatex').innerHTML")
    # KaTeX's fonts came from the site, not from elsewhere
    assert _wait(lambda: _evaluate(browser, "document.fonts.check('16px KaTeX_Main')"))
    # nothing at all is asked of another host
    outside = {u for u in _requested(browser) if not u.startswith((base, "data:"))}
    assert not outside, outside


def test_graph_page_draws_the_whole_graph_offline(served, browser):
    _open(browser, served + "/graph.html")
    graphs = _wait(lambda: [g for g in _mermaid_graphs(browser)
                            if any(n.get("nodeName") == "svg" for n in _walk(g))])
    assert len(graphs) == 1
    labels = " ".join(n["nodeValue"] for n in _walk(graphs[0]) if n.get("nodeType") == 3)
    assert "NOTE-621" in labels and "#8230;" not in labels


@pytest.mark.parametrize("query, page", [("NOTE-621", "records/NOTE-621.html"),
                                         ("note-621", "records/NOTE-621.html"),
                                         ("ANTH-LIT-533", "anthology/ANTH-LIT-533.html")])
def test_search_for_a_record_id_finds_its_page_first(served, browser, query, page):
    _open(browser, f"{served}/index.html?q={query}")  # Material's search runs a ?q= query
    found = _wait(lambda: _evaluate(browser, "[...document.querySelectorAll("
                                             "'.md-search-result__item > a')].map(a => a.href)"))
    assert found, "the search gave no results"
    assert found[0].split("?")[0] == f"{served}/{page}", found[:3]


@pytest.mark.parametrize("page", ["index.html", "records/ARXIV-2212.07677.html"])
def test_badges_are_readable(served, browser, page):
    _open(browser, f"{served}/{page}")
    sizes = _evaluate(browser, "[...document.querySelectorAll('.lr-badge, .lr-tag, .lr-reason')]"
                               ".map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert sizes and min(sizes) >= 12, sorted(set(sizes))


def test_graph_nodes_are_links_to_their_pages(served, browser):
    _open(browser, served + "/graph.html")
    graphs = _wait(lambda: [g for g in _mermaid_graphs(browser)
                            if any(n.get("nodeName") == "svg" for n in _walk(g))])
    links = [dict(zip(n["attributes"][::2], n["attributes"][1::2]))
             for n in _walk(graphs[0]) if n.get("nodeName") == "a"]
    hrefs = {a.get("xlink:href") or a.get("href") for a in links}
    assert "records/NOTE-621.html" in hrefs and "anthology/ANTH-LIT-533.html" in hrefs, hrefs


def test_claims_show_their_interval_plot(served, browser):
    _open(browser, served + "/records/ARXIV-2212.07677.html")
    plots = _evaluate(browser, "[...document.querySelectorAll('#p1 ~ * svg.lr-plot')]"
                               ".map(s => [s.getBoundingClientRect().width,"
                               " s.querySelectorAll('.lr-plot-row').length,"
                               " getComputedStyle(s.querySelector('.lr-plot-interval')).fill])")
    assert plots, "no interval plot under P1"
    width, rows, fill = plots[0]
    assert 300 < width <= 640 and rows == 3
    assert fill not in ("", "none", "rgb(0, 0, 0)"), fill  # coloured by the site's CSS
