"""The README's picture of the site, made from the built site by headless Chromium.

    make screenshot     # litrec site build, then this: site/assets/screenshot.png
    python -m litrec.site.screenshot [--site public] [--out site/assets/screenshot.png]

It opens the built home page from its files (no server, nothing fetched from
elsewhere: the site bundles its scripts) in a 1280 × 900 window, lets
Material's and Mermaid's scripts run, and writes a PNG. The picture is never
drawn by hand, so it shows what the site shows now.

Beside the PNG, `screenshot.png.inputs.json` keeps the SHA-256 of every file the
picture was made from (`picture_inputs`): the records, the analysis registry and
code (a change makes a result stale, and the home page says so), the committed
results at each scale of SCALES, the home page's introduction (site/index.md),
its stylesheet and mkdocs.yml, and the modules of litrec.site and litrec.verdicts
the home page's generator imports (how the page is laid out and what its
verdicts say). `stale_inputs` names each of them that changed since; a test
fails on any (tests/docs/test_screenshot.py). File contents, never times: a
clone has fresh mtimes. Not an input: the machine and its packages (a result
shown stale only on another CPU leaves the picture as it is), and litrec's code
below those two packages (loading, running), which reaches the page only
through the results it writes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars"]
SIZE = (1280, 900)


STAMP = ".inputs.json"  # beside the PNG: screenshot.png.inputs.json
# What the picture is made from, as globs under the project's root (see the module docstring).
INPUT_GLOBS = ("records/**/*.yaml", "analysis/registry.yaml", "analysis/**/*.py",
               "site/index.md", "site/assets/extra.css", "mkdocs.yml")
CODE_PACKAGES = ("litrec/site/", "litrec/verdicts/")  # of the home page generator's imports


def picture_inputs(root: Path) -> dict[str, str]:
    """Project-relative path -> SHA-256 of each file the home page's picture is made from."""
    from litrec.runs.inputs import module_closure
    from litrec.verdicts.claims import SCALES

    root = Path(root).resolve()
    paths: set[Path] = set()
    for pattern in INPUT_GLOBS + tuple(f"results/*/{scale}.json" for scale in SCALES):
        paths.update(p for p in root.glob(pattern) if p.is_file() and "__pycache__" not in p.parts)
    out = {p.relative_to(root).as_posix(): _sha256(p.read_bytes()) for p in paths}
    package = Path(__file__).resolve().parents[1]  # src/litrec
    for rel, digest in module_closure(package, "site.index_pages").files.items():
        if rel.startswith(CODE_PACKAGES):
            out[f"src/{rel}"] = digest
    return dict(sorted(out.items()))


def _sha256(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def stamp_path(png: Path) -> Path:
    """Where the hashes of a picture's inputs are kept: beside it."""
    return Path(png).with_name(Path(png).name + STAMP)


def write_stamp(png: Path, root: Path) -> Path:
    """Keep the hashes of the picture's inputs, as they are now, beside the picture."""
    path = stamp_path(png)
    path.write_text(json.dumps({"inputs": picture_inputs(root)}, indent=1, sort_keys=True) + "\n",
                    encoding="utf-8")
    return path


def stale_inputs(png: Path, root: Path) -> list[str]:
    """Each input of the picture that changed since it was taken (`changed: PATH`, `added: PATH`,
    `removed: PATH`); empty when it is current. A picture without its stamp is one line."""
    path = stamp_path(png)
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))["inputs"]
    except (OSError, ValueError, KeyError, TypeError):
        return [f"{path}: no record of the inputs the picture was made from"]
    now = picture_inputs(root)
    return ([f"changed: {p}" for p in sorted(set(kept) & set(now)) if kept[p] != now[p]]
            + [f"added: {p}" for p in sorted(set(now) - set(kept))]
            + [f"removed: {p}" for p in sorted(set(kept) - set(now))])


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
    ap.add_argument("--root", type=Path, default=Path("."),
                    help="the project the site was built from, whose inputs are kept beside the "
                         "PNG (default: the current folder)")
    args = ap.parse_args(argv)
    try:
        out = screenshot(args.site / "index.html", args.out)
    except (NoBrowser, FileNotFoundError, RuntimeError) as exc:
        print(f"litrec: error: {exc}", file=sys.stderr)
        return 1
    stamp = write_stamp(out, args.root)
    print(f"wrote {out} and {stamp}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
