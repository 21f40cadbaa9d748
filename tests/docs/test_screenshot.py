"""The README's picture of the site (site/assets/screenshot.png) is current: every file it was
made from hashes as it did when `make screenshot` took it (`litrec.site.screenshot`)."""

from __future__ import annotations

import os
from pathlib import Path

from litrec.site.screenshot import picture_inputs, stale_inputs, write_stamp
from tests.conftest import REPO

PICTURE = REPO / "site" / "assets" / "screenshot.png"


def test_the_readme_picture_is_newer_than_what_it_shows():
    stale = stale_inputs(PICTURE, REPO)
    assert not stale, ("site/assets/screenshot.png was taken before these inputs changed; run "
                       "`make screenshot` and commit the PNG with its .inputs.json:\n  "
                       + "\n  ".join(stale[:20]))


def _project(root: Path) -> Path:
    for rel, text in {"records/notes/NOTE-1.yaml": "id: NOTE-1\n", "site/index.md": "# Home\n",
                      "mkdocs.yml": "site_name: x\n", "analysis/registry.yaml": "a:\n  module: a\n",
                      "analysis/a.py": "X = 1\n", "results/a/paper.json": "{}\n",
                      "results/a/quick.json": "{}\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    png = root / "site" / "assets" / "screenshot.png"
    png.parent.mkdir(parents=True, exist_ok=True)
    png.write_bytes(b"\x89PNG")
    return png


def test_each_input_that_changed_is_named(tmp_path):
    png = _project(tmp_path)
    assert stale_inputs(png, tmp_path) == [f"{png}.inputs.json: no record of the inputs the "
                                           "picture was made from"]
    write_stamp(png, tmp_path)
    assert stale_inputs(png, tmp_path) == []
    inputs = picture_inputs(tmp_path)
    assert "results/a/paper.json" in inputs and "results/a/quick.json" not in inputs  # SCALES only
    assert "src/litrec/site/index_pages.py" in inputs and "analysis/a.py" in inputs
    (tmp_path / "records/notes/NOTE-1.yaml").write_text("id: NOTE-1\ntitle: t\n", encoding="utf-8")
    (tmp_path / "results/a/paper.json").unlink()
    (tmp_path / "site/assets/extra.css").write_text("p {}\n", encoding="utf-8")
    assert stale_inputs(png, tmp_path) == ["changed: records/notes/NOTE-1.yaml",
                                           "added: site/assets/extra.css",
                                           "removed: results/a/paper.json"]
    # the same bytes under a new time are the same input (a clone has fresh mtimes)
    write_stamp(png, tmp_path)
    os.utime(tmp_path / "site/index.md", (0, 0))
    assert stale_inputs(png, tmp_path) == []
