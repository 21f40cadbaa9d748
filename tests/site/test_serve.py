"""`litrec site serve`: on the address asked for, with every hand-written page in the nav."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from tests.conftest import REPO, copy_project

pytestmark = pytest.mark.slow  # the tests start servers


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def site_project(tmp_path):
    return _site_project(tmp_path / "project")


def _site_project(root):
    copy_project(root)
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "site", root / "site")
    (root / "site" / "extra-page.md").write_text("# An extra page\n\nNot named in the nav.\n")
    return root


def _serve(root, *args) -> subprocess.Popen:
    """The server, its temporary site folder in `root`'s `tmp/` (TMPDIR), its lines read as they
    come."""
    (root / "tmp").mkdir(exist_ok=True)
    return subprocess.Popen([sys.executable, "-m", "litrec", "site", "serve", *args], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO / "src"), "TMPDIR": str(root / "tmp"),
                                 "PYTHONUNBUFFERED": "1"})


def _stop(proc: subprocess.Popen) -> str:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)  # Ctrl-C may be ignored where pytest runs in the background
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    return proc.communicate()[0]


class Server:
    """`litrec site serve --host 127.0.0.1 --port PORT` on a project, its output read as it
    comes (`log`): one server, built once, for the tests that read it and the one that edits a
    record and reads the pages rebuilt (a server builds the whole site as it starts: tens of
    seconds of this module's time each)."""

    def __init__(self, root):
        self.root, self.port = root, _free_port()
        self.proc = _serve(root, "--host", "127.0.0.1", "--port", str(self.port))
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while _get(f"{self.url}/extra-page.html") is None and time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            time.sleep(0.3)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)

    @property
    def log(self) -> str:
        """What the server printed so far."""
        return "".join(self.lines)

    def stop(self) -> str:
        """`kill PID` (SIGTERM: Ctrl-C may be ignored where pytest runs in the background);
        everything it printed."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.reader.join(timeout=20)
        return self.log


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    served = Server(_site_project(tmp_path_factory.mktemp("serve") / "project"))
    yield served
    served.stop()


def test_serves_on_the_port_asked_without_a_nav_warning(server):
    page = _get(f"{server.url}/extra-page.html")
    assert page is not None, server.log
    assert "An extra page" in page
    # the page is in the nav (under Guide), as in a build: no "not included in the nav" warning
    assert 'href="extra-page.html"' in page.replace("./extra-page.html", "extra-page.html")
    assert f"Serving on http://127.0.0.1:{server.port}/" in server.log
    assert "WARNING" not in server.log, server.log


def _get(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.read().decode("utf-8")
    except OSError:
        return None


def test_a_saved_record_shows_on_its_page_and_on_the_pages_linking_it(server):
    url = f"{server.url}/records"
    assert _get(f"{url}/THEORY-169.html") is not None, server.log
    path = server.root / "records" / "theories" / "THEORY-169.yaml"
    path.write_text(path.read_text().replace("\nkind: ", "\ntitle: Saved while served\nkind: ", 1))
    deadline, pages = time.monotonic() + 30, {}
    while time.monotonic() < deadline and len(pages) < 2:
        for rid in ("THEORY-169", "NOTE-621"):  # the record, and a note that links it
            if "Saved while served" in (_get(f"{url}/{rid}.html") or ""):
                pages[rid] = True
        time.sleep(0.2)
    assert sorted(pages) == ["NOTE-621", "THEORY-169"], server.log
    deadline = time.monotonic() + 10  # the line may follow the pages by a moment
    while "litrec: rebuilt" not in server.log and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "litrec: rebuilt" in server.log and "the whole site" not in server.log, server.log
    assert "WARNING" not in server.log, server.log


def test_kill_stops_the_server_as_ctrl_c_does_and_removes_its_site_folder(server):
    """Last of the module's tests of the shared server: it stops it."""
    assert list((server.root / "tmp").glob("litrec-serve-*")), server.log  # its site, while it serves
    log = server.stop()
    assert server.proc.returncode == 0 and "Shutting down" in log, log
    assert "Traceback" not in log
    assert not list((server.root / "tmp").glob("litrec-serve-*"))


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
