"""The built home page in a real browser: headless Chromium runs Material's JavaScript.

Skips, saying why, only where no Chromium can be found (CI's .ci/run installs
Debian's `chromium`). Slow: `make test-all` runs it, `make test` does not.
"""

from __future__ import annotations

import re
import struct
import subprocess

import pytest

from tests.support.browser import CHROMIUM, FLAGS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

def chromium(tmp_path, *args: str) -> subprocess.CompletedProcess:
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH (apt-get install chromium); the browser test needs one")
    return subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *args],
                          capture_output=True, text=True, timeout=120)


def test_home_page_renders_the_claims_dashboard(built, tmp_path):
    url = (built.out / "index.html").as_uri()
    run = chromium(tmp_path, "--virtual-time-budget=5000", "--dump-dom", url)
    dom = run.stdout
    assert run.returncode == 0 and "<html" in dom, run.stderr[-2000:]
    # Material's JavaScript ran: it wraps every content table in a scrolling container
    dash = dom[dom.index('class="lr-dashboard"'):]
    assert re.match(r'class="lr-dashboard">\s*<div class="md-typeset__scrollwrap">'
                    r'\s*<div class="md-typeset__table">\s*<table>', dash), dash[:300]
    table = dash[:dash.index("</table>")]
    for verdict in ("reproduced", "not-reproduced", "stale", "missing", "unchecked"):
        assert f"lr-v-{verdict}" in table, verdict
    assert table.count('href="records/') >= 7  # a link per claim, to its record page's anchor
    assert "<script>alert" not in dom


def test_home_page_screenshot(built, tmp_path):
    """What `make screenshot` does for the README (litrec.site.screenshot)."""
    from litrec.site import screenshot

    if CHROMIUM is None:
        pytest.skip("no chromium on PATH (apt-get install chromium); the browser test needs one")
    png = tmp_path / "shots" / "home.png"
    assert screenshot.main(["--site", str(built.out), "--out", str(png)]) == 0
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == screenshot.SIZE == (1280, 900)
    assert len(data) > 20_000  # a rendered page, not a blank one


def test_screenshot_without_a_built_site_says_so(tmp_path, capsys):
    from litrec.site import screenshot

    assert screenshot.main(["--site", str(tmp_path / "nowhere"), "--out", str(tmp_path / "x.png")]) == 1
    assert "build the site first" in capsys.readouterr().err
