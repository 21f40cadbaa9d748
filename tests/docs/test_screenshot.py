"""The README's picture of the site (site/assets/screenshot.png) is current: every file it was
made from hashes as it did when `make screenshot` took it (`litrec.site.screenshot`).

The picture shows this repository's own home page, so its check reads the live records and
results: it is marked `repo_docs`, run by `make test-all` (CI), not by `make test`, where a
paper added to the records (site/add-a-paper.md) would fail it. The other tests build their
own project."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from litrec.site.screenshot import HOME, picture_inputs, stale_inputs, taken_elsewhere, write_stamp
from tests.conftest import REPO

PICTURE = REPO / "site" / "assets" / "screenshot.png"


FIX = ("site/assets/screenshot.png was taken before these inputs changed; run `make screenshot`, "
       "then commit site/assets/screenshot.png and site/assets/screenshot.png.inputs.json")


@pytest.mark.repo_docs
def test_the_readme_picture_is_newer_than_what_it_shows():
    stale = stale_inputs(PICTURE, REPO)
    assert not stale, FIX + ":\n  " + "\n  ".join(stale[:20])
    elsewhere = taken_elsewhere(PICTURE)
    if elsewhere:  # its styles are checked; what the page says, only on a machine of its kind
        pytest.skip(f"the generated home page is not compared: {elsewhere}")


def _project(root: Path) -> Path:
    for rel, text in {"records/notes/NOTE-1.yaml": "id: NOTE-1\ntitle: A first note\n",
                      "site/index.md": "# Home\n", "mkdocs.yml": "site_name: x\n",
                      "site/assets/extra.css": "p {}\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    png = root / "site" / "assets" / "screenshot.png"
    png.write_bytes(b"\x89PNG")
    return png


def test_what_the_home_page_shows_is_the_input(tmp_path):
    png = _project(tmp_path)
    assert stale_inputs(png, tmp_path) == [f"{png}.inputs.json: no record of the inputs the "
                                           "picture was made from"]
    write_stamp(png, tmp_path)
    assert stale_inputs(png, tmp_path) == []
    assert sorted(picture_inputs(tmp_path)) == [HOME, "mkdocs.yml", "site/assets/extra.css"]
    # a file the home page does not show is not an input: an analysis module, a second results scale
    (tmp_path / "analysis").mkdir()
    (tmp_path / "analysis" / "unused.py").write_text("X = 1\n", encoding="utf-8")
    assert stale_inputs(png, tmp_path) == []
    # what the page says, and how it looks, are
    (tmp_path / "site/index.md").write_text("# Home, reworded\n", encoding="utf-8")
    (tmp_path / "site/assets/extra.css").write_text("p { color: red }\n", encoding="utf-8")
    assert stale_inputs(png, tmp_path) == [f"changed: {HOME}", "changed: site/assets/extra.css"]
    write_stamp(png, tmp_path)
    (tmp_path / "records/notes/NOTE-2.yaml").write_text("id: NOTE-2\ntitle: Another\n",
                                                       encoding="utf-8")
    assert stale_inputs(png, tmp_path) == [f"changed: {HOME}"]
    # the same bytes under a new time are the same input (a clone has fresh mtimes)
    write_stamp(png, tmp_path)
    os.utime(tmp_path / "site/index.md", (0, 0))
    assert stale_inputs(png, tmp_path) == []
    (tmp_path / "mkdocs.yml").unlink()
    assert stale_inputs(png, tmp_path) == ["removed: mkdocs.yml"]


def test_the_generated_home_page_is_compared_only_on_a_machine_of_the_pictures_kind(tmp_path):
    png = _project(tmp_path)
    write_stamp(png, tmp_path)
    assert taken_elsewhere(png) is None
    (tmp_path / "records/notes/NOTE-2.yaml").write_text("id: NOTE-2\ntitle: Another\n", encoding="utf-8")
    assert stale_inputs(png, tmp_path) == [f"changed: {HOME}"]
    stamp = png.with_name(png.name + ".inputs.json")
    data = json.loads(stamp.read_text(encoding="utf-8"))
    data["machine"] = {"isa": ["x86_64", "another"], "cores": 64}     # as taken on another CPU
    stamp.write_text(json.dumps(data), encoding="utf-8")
    assert "64 usable cores, instruction set x86_64 another" in taken_elsewhere(png)
    assert stale_inputs(png, tmp_path) == []                           # its page says other things here
    (tmp_path / "mkdocs.yml").write_text("site_name: y\n", encoding="utf-8")
    assert stale_inputs(png, tmp_path) == ["changed: mkdocs.yml"]      # how it looks is still compared
