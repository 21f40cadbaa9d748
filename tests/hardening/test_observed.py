"""What an analysis reads and imports inside the project is seen while it runs
(`litrec.analyses.observe`): a file or module its result's inputs do not hold fails the run with
the file named and the fix, and nothing is stored; declared data, the analysis package and
what lies outside the project run as before.

Each way past the declared inputs the hostile review found is tried: a helper module beside
`analysis/`, `exec(open(...))`, `runpy.run_path`, `importlib.util.spec_from_file_location`, a
file read with `open` and with `numpy.load` but not declared. Every refusal is the same with
every cache off and with `--force`.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from tests.support.files import write
from tests.support.mini import PAPER
from tests.support.toy import analysis, write_project

CASES = {
    "a helper module beside analysis/": (
        "    import toyhelper\n    total = toyhelper.TOTAL", "toyhelper from toyhelper.py"),
    "exec(open(...))": (
        "    scope = {}\n    exec(open(ROOT / 'lib' / 'helper.py').read(), scope)\n    total = scope['TOTAL']",
        "lib/helper.py"),
    "runpy.run_path": (
        "    import runpy\n    total = runpy.run_path(str(ROOT / 'lib' / 'helper.py'))['TOTAL']", "lib/helper.py"),
    "spec_from_file_location": (
        "    import importlib.util\n"
        "    spec = importlib.util.spec_from_file_location('h', ROOT / 'lib' / 'helper.py')\n"
        "    mod = importlib.util.module_from_spec(spec)\n    spec.loader.exec_module(mod)\n    total = mod.TOTAL",
        "lib/helper.py"),
    "open on an undeclared file": (
        "    total = len((ROOT / 'inputs' / 'values.txt').read_text().split())", "inputs/values.txt"),
    "an undeclared file under analysis/": (
        "    total = len(open(ROOT / 'analysis' / 'extra.txt').read().split())", "analysis/extra.txt"),
}


def _project(root: Path, body: str, data: str = "") -> Path:
    """The mini paper checked by a toy whose run does `body` (which sets `total`), with `data` (a
    DATA line) beside ROOT, the project's folder; and the files each way past the inputs reads."""
    source = analysis(doc="A toy whose run does: see the test.",
                      head=f"from pathlib import Path\n\nROOT = Path(__file__).resolve().parent.parent\n{data}",
                      body=textwrap.dedent(body) + '\nreturn {"metrics": {"total": float(total)}}')
    write_project(root, source, {"literature/ARXIV-0000.00001.yaml": PAPER})
    write(root, "analysis/extra.txt", "1 2 3\n")
    write(root, "toyhelper.py", "TOTAL = 10\n")
    write(root, "lib/helper.py", "TOTAL = 10\n")
    write(root, "inputs/values.txt", " ".join(["1"] * 10) + "\n")
    return root


# The everyday suite keeps two ways past the inputs (a module, a file); `make test-all` every one.
EVERYDAY = ("a helper module beside analysis/", "open on an undeclared file")


@pytest.mark.parametrize("case", [c if c in EVERYDAY else pytest.param(c, marks=pytest.mark.slow) for c in CASES])
def test_reading_past_the_declared_inputs_is_refused_with_the_file_and_the_fix(tmp_path, litrec, case):
    body, named = CASES[case]
    root = _project(tmp_path / "p", body)
    for extra, env in (([], None), (["--force"], None), ([], {"LITREC_NO_CACHE": "1"})):
        done = litrec("run", "--profile", "quick", *extra, cwd=root, env=env)
        err = " ".join(done.err.split())
        assert done.code == 1, done.text
        assert "Traceback" not in err
        assert "UndeclaredInput" in err and named in err, err
        fix = "move it into analysis/" if named.endswith(".py") else "add it to the module's DATA"
        assert fix in err and "nothing was stored" in err, err
        assert not (root / "results/toy/quick.json").exists()


def test_a_file_read_with_numpy_load_but_not_declared_is_refused(tmp_path, litrec):
    pytest.importorskip("numpy")
    body = "    import numpy as np\n    total = float(np.load(ROOT / 'inputs' / 'values.npy').sum())"
    root = _project(tmp_path / "p", body)
    import numpy as np

    np.save(root / "inputs" / "values.npy", np.ones(10))
    done = litrec("run", "--profile", "quick", cwd=root)
    assert done.code == 1 and "inputs/values.npy" in done.err and "Traceback" not in done.err


def test_declared_data_and_the_analysis_package_run_as_before(tmp_path, litrec):
    body = ("    from analysis import helper2\n"
            "    total = len((ROOT / 'inputs' / 'values.txt').read_text().split()) + helper2.ZERO")
    root = _project(tmp_path / "p", body, data='DATA = ("inputs/values.txt",)')
    write(root, "analysis/helper2.py", "ZERO = 0\n")
    done = litrec("run", "--profile", "quick", "--format", "json", cwd=root)
    assert done.code == 0, done.text
    doc = json.loads(done.out)
    assert [c["verdict"] for c in doc["claims"]] == ["reproduced"]
    result = json.loads((root / "results/toy/quick.json").read_text())
    assert list(result["inputs"]["data"]) == ["inputs/values.txt"]


def test_what_the_analysis_writes_is_not_a_read(tmp_path, litrec):
    body = "    (ROOT / 'scratch.txt').write_text('x')\n    total = 10"
    root = _project(tmp_path / "p", body)
    done = litrec("run", "--profile", "quick", cwd=root)
    assert done.code == 0, done.text


def test_the_check_resolves_every_path_as_realpath_does(tmp_path, monkeypatch):
    """The check resolves each module's folder once (`real_paths`): the answers are
    `os.path.realpath`'s, through linked folders, linked files, links to links, dangling links,
    missing paths, relative paths and `..`."""
    import os

    from litrec.analyses.observe import real_paths

    real = tmp_path / "real"
    (real / "pkg").mkdir(parents=True)
    (real / "pkg" / "mod.py").write_text("", encoding="utf-8")
    (real / "other.py").write_text("", encoding="utf-8")
    (tmp_path / "linked").symlink_to(real)
    (real / "pkg" / "alias.py").symlink_to(real / "other.py")
    (real / "pkg" / "chain.py").symlink_to(real / "pkg" / "alias.py")
    (real / "pkg" / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    (real / "pkg" / "up").symlink_to("..")
    (tmp_path / "deep").symlink_to(real / "pkg")  # deep/.. is real/, not tmp_path
    monkeypatch.chdir(tmp_path)
    paths = [str(tmp_path / "linked" / "pkg" / name) for name in
             ("mod.py", "alias.py", "chain.py", "dangling.py", "missing.py", "up", "")]
    paths += [str(tmp_path / "linked" / "pkg" / "up" / "pkg" / "mod.py"), "linked/pkg/mod.py",
              "linked/pkg/../other.py", "linked/pkg/up/other.py", "deep/../other.py", ".", "..", "/", str(tmp_path / "gone" / "x.py")]
    resolve = real_paths()
    for _ in range(2):  # the second time from the folders it has resolved
        assert [resolve(p) for p in paths] == [os.path.normpath(os.path.realpath(p)) for p in paths]
