"""An editable install (`pip install -e`) keeps its version while its source is edited in place, so
a result is keyed on the files it loads (`editable sha256:` of them), whether the analysis imports
it directly (`versions`) or through another distribution (`dependencies`,
tests/hardening/test_dependencies.py): an edit makes the result stale, and `status` names it.

The everyday test lays an editable install out as pip does, by hand; the slow ones install a real
setuptools project with `pip install -e` into a throwaway environment, once with setuptools'
meta-path finder (`__editable___*_finder.py`, whose `MAPPING` names the package's folder: a flat
layout) and once with a static `.pth` that puts the project's `src/` on the path (a src layout).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.hardening.conftest import Result
from tests.support.answers import CLAIM, project_with, run_answer, status_both_ways
from tests.support.files import write
from tests.support.toy import analysis

USES = analysis(doc="The total an editable package says.",
                body='import toyhelp\nreturn {"metrics": {"total": float(toyhelp.total())}}')
HELPER = "from toyhelp.core import TOTAL\n\n\ndef total():\n    return TOTAL\n"
EDITABLE = "editable sha256:"


def _stored(root: Path) -> dict:
    return json.loads((root / "results/toy/quick.json").read_text(encoding="utf-8"))


def _edit_and_check(litrec, root: Path, core: Path) -> None:
    """The result of `root` is current and keyed on toyhelp's source; `core` (toyhelp/core.py)
    edited to the same size makes it stale, `status` naming toyhelp, with every cache on or off;
    a run then reruns it and stores the new number."""
    _, verdicts = run_answer(litrec, root)
    assert verdicts[CLAIM] == ("reproduced", {"total": 10.0}), verdicts
    was = _stored(root)["versions"]["toyhelp"]
    assert was.startswith(EDITABLE) and len(was) == len(EDITABLE) + 64, was
    assert run_answer(litrec, root)[0]["ran"] == []  # kept as a no-op answer
    assert status_both_ways(litrec, root)[CLAIM] == "reproduced"
    core.write_text(core.read_text(encoding="utf-8").replace("10", "11"), encoding="utf-8")  # same size
    status = litrec("status", "--profile", "quick", cwd=root)
    assert f"versions changed: toyhelp {was[:len(EDITABLE) + 12]} -> {EDITABLE}" in status.text, status.text
    assert status_both_ways(litrec, root)[CLAIM] == "stale"
    doc, verdicts = run_answer(litrec, root)
    assert doc["ran"] == ["toy"] and verdicts[CLAIM] == ("reproduced", {"total": 11.0}), verdicts
    assert _stored(root)["versions"]["toyhelp"] not in (was, None)


def test_an_edit_to_an_editable_install_the_analysis_imports_makes_its_result_stale(tmp_path, litrec):
    """Laid out as pip lays out an editable install whose folder is on the path: its dist-info
    (METADATA, top_level.txt, `direct_url.json` saying editable) and the source elsewhere."""
    root = project_with(tmp_path / "p", USES)
    site, source = tmp_path / "site", tmp_path / "toyhelp-checkout"
    info = site / "toyhelp-0.1.0.dist-info"
    write(info, "METADATA", "Metadata-Version: 2.1\nName: toyhelp\nVersion: 0.1.0\n")
    write(info, "top_level.txt", "toyhelp\n")
    write(info, "RECORD", "")
    write(info, "direct_url.json", json.dumps({"url": source.as_uri(), "dir_info": {"editable": True}}))
    write(source, "toyhelp/__init__.py", HELPER)
    core = write(source, "toyhelp/core.py", "TOTAL = 10\n")
    path = {"PYTHONPATH": f"{site}{os.pathsep}{source}"}

    def with_path(*args, env=None, **kw):
        return litrec(*args, env={**path, **(env or {})}, **kw)

    _edit_and_check(with_path, root, core)


# ---------------------------------------------------------------- a real `pip install -e`


def _venv(tmp_path: Path) -> Path:
    """A throwaway environment's interpreter that sees this one's packages (litrec among them):
    a `.pth` of its own adds this environment's site-packages, whose `.pth` files run too. (A
    `--system-site-packages` environment would see the base interpreter's packages, not these.)"""
    folder = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    here = sysconfig.get_paths()["purelib"]
    Path(site, "zz_litrec_environment.pth").write_text(f"import site; site.addsitedir({here!r})\n")
    return python


def _builds_offline() -> bool:
    """Whether setuptools here builds an editable wheel without fetching anything (PEP 660:
    setuptools 64; before 70.1, with the `wheel` package)."""
    try:
        import setuptools
    except ImportError:
        return False
    major, minor = (int(p) for p in setuptools.__version__.split(".")[:2])
    has_wheel = subprocess.run([sys.executable, "-c", "import wheel"], capture_output=True).returncode == 0
    return (major, minor) >= (70, 1) or ((major, minor) >= (64, 0) and has_wheel)


def _pip_install_editable(python: Path, project: Path) -> None:
    """`pip install -e project` into the environment of `python`; the test is skipped where pip
    cannot build it (no setuptools able to here, and no package index to fetch one from)."""
    isolation = ["--no-build-isolation"] if _builds_offline() else []
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                           "--no-input", "--disable-pip-version-check", *isolation, "-e", str(project)],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.skip(f"pip could not install an editable project here: {done.stdout[-600:]}{done.stderr[-600:]}")


def _toy_project(folder: Path, layout: str) -> Path:
    """A setuptools project `toyhelp` in `folder` (its package in `src/` for the src layout);
    returns its `core.py`, which the test edits."""
    where = "src/" if layout == "src" else ""
    find = '[tool.setuptools.packages.find]\nwhere = ["src"]\n' if layout == "src" else \
        '[tool.setuptools]\npackages = ["toyhelp"]\n'
    write(folder, "pyproject.toml", '[build-system]\nrequires = ["setuptools>=64"]\n'
          'build-backend = "setuptools.build_meta"\n\n[project]\nname = "toyhelp"\nversion = "0.1.0"\n\n' + find)
    write(folder, f"{where}toyhelp/__init__.py", HELPER)
    return write(folder, f"{where}toyhelp/core.py", "TOTAL = 10\n")


@pytest.mark.slow  # a venv and a pip build: ten seconds
@pytest.mark.parametrize("layout", ["flat", "src"])
def test_a_real_editable_install_edited_in_place_makes_its_result_stale(tmp_path, layout):
    python = _venv(tmp_path)
    core = _toy_project(tmp_path / "toyhelp", layout)
    _pip_install_editable(python, tmp_path / "toyhelp")
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    how = sorted(p.name for p in site.iterdir() if p.name.startswith("__editable__"))
    finder = any(n.endswith("_finder.py") for n in how)
    assert finder == (layout == "flat"), how  # the two ways setuptools installs in place

    def litrec(*args, cwd: Path, env: dict | None = None) -> Result:
        full = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **(env or {})}
        full.pop("PYTHONPATH", None)
        done = subprocess.run([python, "-m", "litrec", *map(str, args)], cwd=cwd, capture_output=True,
                              text=True, timeout=120, env=full)
        return Result(done.returncode, done.stdout, done.stderr)

    _edit_and_check(litrec, project_with(tmp_path / "p", USES), core)
