"""The README's picture of the site, made from the built site by headless Chromium.

    make screenshot     # litrec site build, then this: site/assets/screenshot.png
    python -m litrec.site.screenshot [--site public] [--out site/assets/screenshot.png]

It opens the built home page from its files (no server, nothing fetched from
elsewhere: the site bundles its scripts) in a 1280 × 900 window, lets
Material's and Mermaid's scripts run, and writes a PNG. The picture is never
drawn by hand, so it shows what the site shows now.

Beside the PNG, `screenshot.png.inputs.json` keeps the SHA-256 of what the
picture shows (`picture_inputs`): the home page's generated Markdown
(`index.md`, rendered from the records and results as `litrec site build`
renders it, at the scale a reader sees first), and the files that decide how
it looks (site/assets/extra.css, mkdocs.yml). `stale_inputs` names each that
changed since; a test fails on any (tests/docs/test_screenshot.py). The stamp
also keeps the machine (instruction set, usable cores): on a machine of another
kind the home page calls the results stale ("computed on another CPU"), so its
Markdown is compared only on one of the picture's kind. The page,
not the code behind it: an edit to litrec that leaves the home page's text as
it was leaves the picture current, and one that changes it (a verdict, a
reason, a layout) does not. File contents, never times: a clone has fresh
mtimes.
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
# What decides how the home page looks, as globs under the project's root.
STYLE_GLOBS = ("site/assets/extra.css", "mkdocs.yml")
HOME = "index.md (generated)"


def picture_inputs(root: Path) -> dict[str, str]:
    """Name -> SHA-256 of what the home page's picture shows: its generated Markdown
    (`HOME`) and each file of STYLE_GLOBS."""
    root = Path(root).resolve()
    out = {p.relative_to(root).as_posix(): _sha256(p.read_bytes())
           for pattern in STYLE_GLOBS for p in root.glob(pattern) if p.is_file()}
    out[HOME] = _sha256(home_markdown(root).encode("utf-8"))
    return dict(sorted(out.items()))


def home_markdown(root: Path) -> str:
    """The home page's Markdown as `litrec site build` run in `root` generates it (records/,
    analysis/, results/, site/index.md; the headline scale)."""
    from litrec.records.load import load_project
    from litrec.site.build import directory_urls
    from litrec.site.index_pages import home
    from litrec.site.pagedata import gather
    from litrec.verdicts.claims import headline, project_scales

    results = root / "results"
    analysis = root / "analysis"
    project = load_project(root / "records", analysis if analysis.is_dir() else None)
    intro_path = root / "site" / "index.md"
    intro = intro_path.read_text(encoding="utf-8") if intro_path.is_file() else ""
    config = root / "mkdocs.yml"
    urls = directory_urls(config) if config.is_file() else False
    return home(gather(project, results, headline(results, project_scales(project)), urls), intro)


def _sha256(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def stamp_path(png: Path) -> Path:
    """Where the hashes of a picture's inputs are kept: beside it."""
    return Path(png).with_name(Path(png).name + STAMP)


def this_machine() -> dict:
    """What decides, beside the project's files, which results the home page calls stale: the
    CPU's instruction set and the usable cores (`litrec.analyses.inputs`)."""
    from litrec.analyses.inputs import machine_cores, machine_isa

    return {"isa": list(machine_isa()), "cores": machine_cores()}


def write_stamp(png: Path, root: Path) -> Path:
    """Keep the hashes of the picture's inputs, as they are now, beside the picture, with the
    machine it was taken on."""
    path = stamp_path(png)
    path.write_text(json.dumps({"inputs": picture_inputs(root), "machine": this_machine()},
                               indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def taken_elsewhere(png: Path) -> str | None:
    """Where the picture was taken on a machine of another kind, in words (else None): there the
    home page says every result of this machine's kind stale ("computed on another CPU"), so its
    generated Markdown is compared only on a machine of the picture's kind (`stale_inputs`)."""
    try:
        kept = json.loads(stamp_path(png).read_text(encoding="utf-8"))["machine"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    now = this_machine()
    if kept == now:
        return None
    return (f"the picture was taken on a machine of {kept.get('cores')} usable cores, instruction set "
            f"{' '.join(map(str, kept.get('isa') or []))}; this one has {now['cores']}, "
            f"{' '.join(now['isa'])}")


def stale_inputs(png: Path, root: Path) -> list[str]:
    """Each input of the picture that changed since it was taken (`changed: PATH`, `added: PATH`,
    `removed: PATH`); empty when it is current. A picture without its stamp is one line. The
    generated home page is left out on a machine of another kind than the picture's
    (`taken_elsewhere`)."""
    path = stamp_path(png)
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))["inputs"]
    except (OSError, ValueError, KeyError, TypeError):
        return [f"{path}: no record of the inputs the picture was made from"]
    now = picture_inputs(root)
    if taken_elsewhere(png):
        kept, now = ({k: v for k, v in d.items() if k != HOME} for d in (kept, now))
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
