"""Nothing outside the project leaks in or out.

A symbolic link out of the project (a record, a folder of records, a figure, a
page of site/, an analysis module) is reported by name and never read; a FIFO
is never opened; a value found in a file is quoted as a short excerpt, never
whole; a figure is published without anything that could run script.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.support.files import snapshot, write

REPO = Path(__file__).resolve().parents[2]
TOKEN = "s3cr3t-7f1c9a-do-not-publish"
SECRET = f"id: NOTE-9\nkind: note\ntitle: {TOKEN}\ndescription: {TOKEN} {TOKEN}\n"
EVIL_SVG = ('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
            'xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10" onload="alert(1)">'
            '<script>alert(2)</script><a xlink:href="javascript:alert(3)">'
            '<rect width="5" height="5" onclick="alert(4)"/></a>'
            '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">html</div></foreignObject>'
            '<set attributeName="onmouseover" to="alert(5)"/></svg>')


@pytest.fixture
def secret(tmp_path) -> Path:
    """A file outside the project (beside it, in tmp_path/outside/), holding TOKEN."""
    path = tmp_path / "outside" / "secret.yaml"
    path.parent.mkdir()
    path.write_text(SECRET, encoding="utf-8")
    return path


def clean(res, *names: str) -> None:
    """No traceback, no byte of the secret, and every name mentioned."""
    assert "Traceback" not in res.text, res.text
    assert TOKEN not in res.text and "s3cr3t" not in res.text, res.text
    for name in names:
        assert name in res.text, res.text


def test_a_linked_record_out_of_the_project_is_named_never_read(mini, litrec, secret):
    link = mini / "records" / "notes" / "NOTE-9.yaml"
    link.symlink_to(secret)
    before = snapshot(mini)
    res = litrec("validate", cwd=mini)
    assert res.code == 1
    clean(res, "records/notes/NOTE-9.yaml:1:1: is a symbolic link to a file outside the project",
          str(secret))
    for cmd in (["status"], ["export", "json"], ["validate", "--format", "json"]):
        res = litrec(*cmd, cwd=mini)
        assert res.code == 1, (cmd, res.text)
        clean(res, "NOTE-9.yaml")
    assert snapshot(mini) == before and secret.read_text() == SECRET


def test_a_link_inside_the_project_is_followed(mini, litrec):
    """Decided: a link to a file inside the project is read like the file itself."""
    write(mini, "drafts/NOTE-2.yaml", "id: NOTE-2\nkind: note\ntitle: Drafted elsewhere\n")
    (mini / "records" / "notes" / "NOTE-2.yaml").symlink_to(Path("../../drafts/NOTE-2.yaml"))
    res = litrec("validate", cwd=mini)
    assert res.code == 0, res.text
    assert "3 valid records" in res.text


def test_a_linked_folder_of_records_is_not_walked(mini, litrec, secret):
    (mini / "records" / "borrowed").symlink_to(secret.parent, target_is_directory=True)
    (mini / "records" / "again").symlink_to(Path("notes"), target_is_directory=True)
    res = litrec("validate", cwd=mini)
    assert res.code == 1
    clean(res, "records/borrowed:1:1: is a symbolic link to a folder",
          "records/again:1:1: is a symbolic link to a folder")
    assert "2 valid records" in res.text  # the notes are read once, from notes/


def test_a_fifo_named_like_a_record_is_never_opened(mini, litrec):
    fifo = mini / "records" / "notes" / "NOTE-7.yaml"
    os.mkfifo(fifo)
    res = litrec("validate", cwd=mini, timeout=30)  # opening it would block for ever
    assert res.code == 1
    clean(res, "records/notes/NOTE-7.yaml:1:1: is a FIFO (named pipe), not a regular file")
    assert fifo.exists()


def test_a_linked_analysis_module_or_registry_is_refused(mini, litrec, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "helper.py").write_text(f'"""{TOKEN}"""\n')
    (mini / "analysis" / "helper.py").symlink_to(outside / "helper.py")
    res = litrec("validate", cwd=mini)
    assert res.code == 1
    clean(res, "analysis/helper.py:1:1: is a symbolic link to a file outside the project")
    (mini / "analysis" / "helper.py").unlink()
    reg = mini / "analysis" / "registry.yaml"
    shutil.move(reg, outside / "registry.yaml")
    reg.symlink_to(outside / "registry.yaml")
    res = litrec("run", "--profile", "quick", cwd=mini)
    assert res.code == 1
    clean(res, "analysis/registry.yaml:1:1: is a symbolic link")
    assert not (mini / "results").exists()


def test_a_linked_or_fifo_result_is_damaged_not_read(mini, litrec, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "quick.json").write_text('{"metrics": {"total": 10}, "notes": ["%s"]}' % TOKEN)
    (mini / "results" / "toy").mkdir(parents=True)
    (mini / "results" / "toy" / "quick.json").symlink_to(outside / "quick.json")
    os.mkfifo(mini / "results" / "toy" / "paper.json")
    for profile, why in (("quick", "is a symbolic link to a file outside the project"),
                         ("paper", "is a FIFO")):
        res = litrec("status", "--profile", profile, "--format", "json", cwd=mini, timeout=30)
        clean(res, f"results/toy/{profile}.json: {why}")


def test_a_long_value_is_quoted_as_a_short_excerpt(mini, litrec):
    big = "S" * 5000
    write(mini, "records/notes/NOTE-8.yaml", f'"{big}"\n')
    write(mini, "records/notes/NOTE-6.yaml", f"id: NOTE-6\nkind: {'K' * 5000}\ntitle: t\n")
    write(mini, "records/notes/NOTE-5.yaml", f"id: NOTE-5\nkind: note\ntitle: t\n{'F' * 900}: 1\n")  # YAML caps a key at 1024
    res = litrec("validate", cwd=mini)
    assert res.code == 1
    clean(res, "records/notes/NOTE-8.yaml:1:1:", "records/notes/NOTE-6.yaml:2:",
          "records/notes/NOTE-5.yaml:4:", "(5002 characters)", "(900 characters)")
    for run in ("S" * 100, "K" * 100, "F" * 100):
        assert run not in res.text
    assert max(map(len, res.text.splitlines())) < 400


def test_import_bibtex_needs_a_regular_file(mini, litrec, tmp_path):
    fifo = tmp_path / "refs.bib"
    os.mkfifo(fifo)
    res = litrec("import", "bibtex", fifo, cwd=mini, timeout=30)
    assert res.code == 2
    clean(res, "refs.bib", "FIFO")


def test_import_bibtex_force_does_not_read_a_linked_record(mini, litrec, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.yaml").write_text(f"id: ARXIV-2212.07677\nkind: literature\ntitle: {TOKEN}\n")
    rec = mini / "records" / "literature" / "ARXIV-2212.07677.yaml"
    rec.symlink_to(outside / "x.yaml")
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{a, title={T}, author={A B}, year={2022}, eprint={2212.07677}}\n")
    res = litrec("import", "bibtex", bib, "--force", cwd=mini)
    assert res.code == 1
    clean(res, "ARXIV-2212.07677.yaml", "outside the project")
    assert (outside / "x.yaml").read_text().endswith(f"{TOKEN}\n")


# ------------------------------------------------------------------ figures


def _matplotlib_svg() -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from litrec.runs.sweep import svg_bytes

    fig, ax = plt.subplots()
    ax.plot([0, 1, 2], [1, 3, 2], label="loss")
    ax.imshow(np.arange(16.0).reshape(4, 4), extent=(0, 1, 0, 1))
    ax.legend()
    return svg_bytes(fig)


def test_a_matplotlib_figure_survives_sanitising_and_a_script_does_not():
    import xml.etree.ElementTree as ET

    from litrec.site.svg import UnsafeFigure, sanitise_svg

    raw = _matplotlib_svg()
    out = sanitise_svg(raw)
    tree = ET.fromstring(out)
    assert tree.tag == "{http://www.w3.org/2000/svg}svg"
    assert out.count(b"<path") == raw.count(b"<path") > 0
    assert b"data:image/png;base64," in out  # the embedded raster image is kept
    clean_evil = sanitise_svg(EVIL_SVG.encode())
    for bad in (b"script", b"onload", b"onclick", b"javascript", b"foreignObject",
                b"onmouseover", b"alert"):
        assert bad not in clean_evil, clean_evil
    with pytest.raises(UnsafeFigure):
        sanitise_svg(b'<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">'
                     b"&a;</svg>")
    with pytest.raises(UnsafeFigure):
        sanitise_svg(b"<svg")


def _site_project(root: Path, secret: Path) -> None:
    """mini + mkdocs.yml and site/ from the repository, a result with four figures: a real
    matplotlib one, a malicious one, one linked out of the project, and a FIFO."""
    from litrec.analyses.inputs import result_inputs as fingerprint
    from litrec.records.load import load_project
    from litrec.results.store import write_result

    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "site", root / "site")
    proj = load_project(root / "records", root / "analysis")
    fp = fingerprint(proj.registry, "toy", "paper")
    payload = {"format": 1, "analysis": "toy", "title": "Toy sum", "profile": "paper",
               "code_hash": fp.code_hash, "code_files": fp.files, "versions": fp.versions, "inputs": fp.record(),
               "litrec": "0.1.0", "config": {"n": 6}, "seed": 0, "wall_time_s": 0.1,
               "started": "2026-01-01T00:00:00+00:00", "metrics": {"total": 15.0, "n": 6},
               "figures": {f: f"paper/{f}.svg" for f in ("curve", "evil", "linked", "piped")}}
    write_result(root / "results", "toy", "paper", payload,
                 {"curve.svg": _matplotlib_svg(), "evil.svg": EVIL_SVG.encode()})
    figs = root / "results" / "toy" / "paper"
    (figs / "linked.svg").symlink_to(secret)
    os.mkfifo(figs / "piped.svg")
    (root / "site" / "leak.md").symlink_to(secret)
    (root / "site" / "borrowed").symlink_to(secret.parent, target_is_directory=True)
    (root / "site" / "guide-copy.md").symlink_to(Path("index.md"))  # inside: followed


def test_the_site_publishes_no_outside_file_and_no_script(mini, litrec, secret):
    _site_project(mini, secret)
    (mini / "records" / "notes" / "NOTE-9.yaml").symlink_to(secret)
    res = litrec("site", "build", "--out", "public", cwd=mini, timeout=300)
    assert res.code == 1, res.text
    clean(res, "the records have 1 error", "results/toy/paper/linked.svg: is a symbolic link to a file outside the project",
          "results/toy/paper/piped.svg: is a FIFO", "site/leak.md: is a symbolic link to a file",
          "site/borrowed: is a symbolic link to a folder", "site built:")
    public = mini / "public"
    built = {p.relative_to(public).as_posix(): p.read_bytes() for p in public.rglob("*")
             if p.is_file()}
    docs = mini / "build" / "docs"
    assert not any(p.is_symlink() for p in docs.rglob("*"))
    for rel, data in built.items():
        assert TOKEN.encode() not in data, rel
        if rel.endswith(".svg"):
            assert b"<script" not in data and b"onload" not in data and b"javascript:" not in data
    assert "leak.md" not in " ".join(built) and "leak" not in built
    home = built["index.html"].decode()
    assert "NOTE-9.yaml" in home and "is a symbolic link to a file outside the project" in home
    assert "figures/toy/paper/linked.svg" not in built
    assert "figures/toy/paper/piped.svg" not in built
    assert "guide-copy/index.html" in built or "guide-copy.html" in built
    curve = built["figures/toy/paper/curve.svg"]
    assert curve.count(b"<path") > 5 and b"data:image/png" in curve
    evil = built["figures/toy/paper/evil.svg"]
    assert b"alert" not in evil and b"<rect" in evil
    page = next(data for rel, data in built.items() if rel.startswith("analyses/toy"))
    assert b'<img src="../../figures/toy/paper/curve.svg"' in page or b"curve.svg" in page
    assert b"<script>alert" not in page
