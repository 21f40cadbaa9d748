"""`litrec site serve`: on the address asked for, with every hand-written page in the nav."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.conftest import REPO, copy_project

pytestmark = pytest.mark.slow  # each test starts a server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def site_project(tmp_path):
    root = copy_project(tmp_path / "project")
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "site", root / "site")
    (root / "site" / "extra-page.md").write_text("# An extra page\n\nNot named in the nav.\n")
    return root


def _serve(root, *args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "litrec", "site", "serve", *args], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO / "src")})


def _stop(proc: subprocess.Popen) -> str:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    return proc.communicate()[0]


def test_serves_on_the_port_asked_without_a_nav_warning(site_project):
    port = _free_port()
    proc = _serve(site_project, "--host", "127.0.0.1", "--port", str(port))
    try:
        deadline, page = time.monotonic() + 60, None
        while page is None and time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/extra-page.html", timeout=5) as r:
                    page = r.read().decode("utf-8")
            except OSError:
                time.sleep(0.3)
    finally:
        log = _stop(proc)
    assert page is not None, log
    assert "An extra page" in page
    # the page is in the nav (under Guide), as in a build: no "not included in the nav" warning
    assert 'href="extra-page.html"' in page.replace("./extra-page.html", "extra-page.html")
    assert f"Serving on http://127.0.0.1:{port}/" in log
    assert "WARNING" not in log, log


def _get(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.read().decode("utf-8")
    except OSError:
        return None


def test_a_saved_record_shows_on_its_page_and_on_the_pages_linking_it(site_project):
    port = _free_port()
    proc = _serve(site_project, "--port", str(port))
    url = f"http://127.0.0.1:{port}/records"
    try:
        deadline = time.monotonic() + 60
        while _get(f"{url}/THEORY-169.html") is None and time.monotonic() < deadline:
            time.sleep(0.3)
        path = site_project / "records" / "theories" / "THEORY-169.yaml"
        path.write_text(path.read_text().replace("\nkind: ", "\ntitle: Saved while served\nkind: ", 1))
        deadline, pages = time.monotonic() + 30, {}
        while time.monotonic() < deadline and len(pages) < 2:
            for rid in ("THEORY-169", "NOTE-621"):  # the record, and a note that links it
                if "Saved while served" in (_get(f"{url}/{rid}.html") or ""):
                    pages[rid] = True
            time.sleep(0.2)
    finally:
        log = _stop(proc)
    assert sorted(pages) == ["NOTE-621", "THEORY-169"], log
    assert "litrec: rebuilt" in log and "the whole site" not in log, log


def test_a_port_in_use_is_a_located_error(site_project):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = _serve(site_project, "--port", str(port))
        log = _stop(proc) if proc.wait(timeout=60) is None else proc.communicate()[0]
    assert proc.returncode == 1
    assert f"cannot serve on 127.0.0.1:{port}:" in log and "choose another --port" in log
    assert "Traceback" not in log


def test_a_bad_port_is_a_usage_error(cli, project):
    with pytest.raises(SystemExit) as exc:
        cli("site", "serve", "--port", "70000")
    assert exc.value.code == 2
