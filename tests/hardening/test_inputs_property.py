"""A property: whatever inputs are edited, and however (same size and modification time
included), the cached answer is the answer with every cache off and `--force`'s.

The project's one analysis reads each kind of input: a helper it loads by name, a data file
it declares, a package installed in the project's `.venv`; its claim's expectation is in a
record. Hypothesis picks edits of records, the analysis source, the helper, the data and the
package's metadata, each to a new single digit (so the size stays), and whether to put the
file's modification time back.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.support.answers import CLAIM, run_answer, three_ways  # noqa: E402
from tests.support.files import write  # noqa: E402
from tests.support.mini import PAPER  # noqa: E402
from tests.support.toy import write_project  # noqa: E402

ANALYSIS = '''
"""Adds a constant, a helper's, a data file's and a package's numbers."""
import importlib
from dataclasses import dataclass
from pathlib import Path

import toypkg

DATA = ("analysis/data/n.txt",)
OWN = 1


@dataclass(frozen=True)
class Config:
    n: int = 1


PROFILES = {"quick": Config(), "paper": Config()}


def run(config, progress=None):
    helper = importlib.import_module("analysis.helper")
    data = int((Path(__file__).parent / "data" / "n.txt").read_text())
    return {"metrics": {"total": float(OWN + helper.K + data + toypkg.TOTAL)}}
'''

FILES = {
    "analysis": ("analysis/toy.py", "OWN = {}\n"),
    "helper": ("analysis/helper.py", "K = {}\n"),
    "data": ("analysis/data/n.txt", "{}\n"),
    "record": ("records/literature/ARXIV-0000.00001.yaml", "value: {}}}"),
}


def _setup(root: Path) -> None:
    write_project(root, ANALYSIS, {"literature/ARXIV-0000.00001.yaml": PAPER.replace("value: 10}", "value: 9}")})
    write(root, "analysis/helper.py", "K = 2\n")
    write(root, "analysis/data/n.txt", "3\n")
    _package(root, "1.0", 4)


def _package(root: Path, version: str, total: int) -> None:
    site = root / ".venv/lib/site-packages"
    for old in site.glob("toypkg-*.dist-info") if site.is_dir() else []:
        shutil.rmtree(old)
    write(site, "toypkg/__init__.py", f"TOTAL = {total}\n")
    info = site / f"toypkg-{version}.dist-info"
    write(info, "METADATA", f"Metadata-Version: 2.1\nName: toypkg\nVersion: {version}\n")
    write(info, "top_level.txt", "toypkg\n")


def _edit(root: Path, what: str, digit: int, same_time: bool) -> None:
    if what == "package":
        _package(root, f"1.{digit}", digit)
        return
    rel, form = FILES[what]
    path = root / rel
    st_ = path.stat()
    text = path.read_text(encoding="utf-8")
    for old in range(10):
        if form.format(old) in text:
            text = text.replace(form.format(old), form.format(digit))
            break
    path.write_text(text, encoding="utf-8")
    if same_time:
        os.utime(path, ns=(st_.st_atime_ns, st_.st_mtime_ns))


EDIT = st.tuples(st.sampled_from(["analysis", "helper", "data", "record", "package"]),
                 st.integers(0, 9), st.booleans())


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """The project as every example starts from it, made once (it is the same for each): set
    up, run, then run again with nothing to run (its answer kept). Filled by the first example."""
    return {"base": tmp_path_factory.mktemp("prop-base") / "p"}


def _prepared_copy(prepared: dict, litrec, root: Path, env) -> None:
    """`root`: a copy of the prepared project, times and links kept, as three_ways copies."""
    base = prepared["base"]
    if not prepared.get("done"):
        _setup(base)
        run_answer(litrec, base, env=env(base))
        run_answer(litrec, base, env=env(base))  # a no-op run: its answer is kept
        prepared["done"] = True
    shutil.copytree(base, root, symlinks=True)


@pytest.mark.slow
@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(EDIT, min_size=1, max_size=3))
def test_any_edit_of_any_input_gives_the_answer_of_a_run_with_no_cache(tmp_path_factory, litrec,
                                                                         prepared, edits):
    tmp = tmp_path_factory.mktemp("prop")
    root = tmp / "p"
    env = lambda copy: {"PYTHONPATH": str(copy / ".venv/lib/site-packages")}  # noqa: E731
    _prepared_copy(prepared, litrec, root, env)
    for what, digit, same_time in edits:
        _edit(root, what, digit, same_time)
    verdicts, _ = three_ways(litrec, root, tmp, env=env)
    assert verdicts[CLAIM][0] in ("reproduced", "not reproduced")
