"""The README's picture of the site, made from the built site by headless Chromium.

    make screenshot     # litrec site build, then this: site/assets/screenshot.png
    python -m litrec.site.screenshot [--site public] [--out site/assets/screenshot.png]

It opens the built home page from its files (no server, nothing fetched from
elsewhere: the site bundles its scripts) in a 1280 × 900 window, lets
Material's and Mermaid's scripts run, and writes a PNG. The picture is never
drawn by hand, so it shows what the site shows now.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars"]
SIZE = (1280, 900)


class NoBrowser(RuntimeError):
    """No headless Chromium on PATH."""


def chromium() -> str:
    """The path of a Chromium (or Chrome) on PATH; NoBrowser when there is none."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    raise NoBrowser("no chromium on PATH (apt-get install chromium, or install Google Chrome); "
                    "the screenshot needs a headless browser")


def screenshot(page: Path, out: Path, size: tuple[int, int] = SIZE, wait_ms: int = 5000) -> Path:
    """Write a PNG of `page` (an HTML file) as a browser window of `size` shows it."""
    page, out = Path(page).resolve(), Path(out).resolve()
    if not page.is_file():
        raise FileNotFoundError(f"no page at {page}; build the site first (litrec site build)")
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        run = subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}",
                              f"--window-size={size[0]},{size[1]}",
                              f"--virtual-time-budget={wait_ms}", f"--screenshot={out}",
                              page.as_uri()], capture_output=True, text=True, timeout=120)
    if run.returncode != 0 or not out.is_file():
        raise RuntimeError(f"chromium did not write {out}: {run.stderr[-1000:]}")
    return out


def main(argv: list[str] | None = None) -> int:
    """Command line: the home page of --site to --out."""
    ap = argparse.ArgumentParser(prog="python -m litrec.site.screenshot",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--site", type=Path, default=Path("public"), help="the built site (default: public)")
    ap.add_argument("--out", type=Path, default=Path("site/assets/screenshot.png"),
                    help="the PNG to write (default: site/assets/screenshot.png)")
    args = ap.parse_args(argv)
    try:
        out = screenshot(args.site / "index.html", args.out)
    except (NoBrowser, FileNotFoundError, RuntimeError) as exc:
        print(f"litrec: error: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
