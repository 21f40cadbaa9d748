"""Hermetic points (`litrec.runs.sandbox`): under bwrap a point's filesystem holds only its inputs,
so a read of any other file of the project fails, whatever reads it (a program it starts, a C
function through ctypes, SQLite, a forked worker, a helper reading a file as it is imported),
and the run fails with `UndeclaredInput` naming the file and the fix; declared data still reads,
and the result's provenance says the points ran hermetic. Where there is no sandbox (or
`LITREC_SANDBOX=off`), the result says it is not hermetic, and why.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from litrec.runs import sandbox
from tests.conftest import compile_cache_env
from tests.support.files import write
from tests.support.mini import PAPER
from tests.support.procs import descendants
from tests.support.toy import analysis, importable, write_project


def _machine() -> str | None:
    """Why this machine cannot make a sandbox (None: it can), whatever the suite's setting: `make
    test` turns the sandbox off for the other tests' points, and these turn it back on (`sandboxed`)."""
    saved = os.environ.pop(sandbox.SETTING, None)
    try:
        return sandbox.unavailable()
    finally:
        if saved is not None:
            os.environ[sandbox.SETTING] = saved


WHY = _machine()
needs_sandbox = pytest.mark.skipif(WHY is not None, reason=f"no sandbox on this machine: {WHY}")
pytestmark = pytest.mark.usefixtures("sandboxed")

HEAD = '''\
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VALUES = ROOT / "inputs" / "values.txt"


def count(path):
    """How many words the file holds (in a forked worker, for one case)."""
    with open(path) as fh:
        return len(fh.read().split())
'''

CASES = {
    "a program it starts (cat)": (
        "import subprocess\n"
        "out = subprocess.run(['cat', str(VALUES)], capture_output=True, text=True).stdout\n"
        "total = len(out.split())"),
    "a C function through ctypes (fopen)": (  # a C reader that says which file it could not open
        "import ctypes\n"
        "libc = ctypes.CDLL('libc.so.6', use_errno=True)\n"
        "libc.fopen.restype = ctypes.c_void_p\n"
        "handle = libc.fopen(str(VALUES).encode(), b'r')\n"
        "if not handle:\n    raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()), str(VALUES))\n"
        "libc.fclose(ctypes.c_void_p(handle))\n"
        "total = 10"),
    "sqlite3.connect of an undeclared database": (
        "import sqlite3\n"
        "con = sqlite3.connect(str(ROOT / 'inputs' / 'notes.db'))\n"
        "total = con.execute('select count(*) from t').fetchone()[0]"),
    "a multiprocessing fork worker": (
        "import multiprocessing\n"
        "with multiprocessing.get_context('fork').Pool(1) as pool:\n"
        "    total = pool.apply(count, (str(VALUES),))"),
    "a read at import in a helper of the package": (
        "from analysis import helper\ntotal = helper.TOTAL"),
    "a helper module beside analysis/": (
        "import toyhelper\ntotal = toyhelper.TOTAL"),
}
NAMED = {"a helper module beside analysis/": "toyhelper from toyhelper.py",
         "sqlite3.connect of an undeclared database": "inputs/notes.db"}
EVERYDAY = ("a program it starts (cat)",)


def _project(root: Path, body: str, head: str = "") -> Path:
    """The mini paper checked by a toy whose run does `body` (which sets `total`), with the files
    each case reads past the inputs."""
    source = analysis(doc="A toy whose run does: see the test.", head=HEAD + head,
                      body=textwrap.dedent(body) + '\nreturn {"metrics": {"total": float(total)}}')
    write_project(root, source, {"literature/ARXIV-0000.00001.yaml": PAPER})
    write(root, "inputs/values.txt", " ".join(["1"] * 10) + "\n")
    write(root, "toyhelper.py", "TOTAL = 10\n")
    write(root, "analysis/helper.py", "from pathlib import Path\n\nTOTAL = len((Path(__file__).resolve()"
          ".parent.parent / 'inputs' / 'values.txt').read_text().split())\n")
    with sqlite3.connect(root / "inputs" / "notes.db") as con:
        con.execute("create table t (x)")
        con.executemany("insert into t values (?)", [(i,) for i in range(10)])
    con.close()
    return root


@needs_sandbox
@pytest.mark.parametrize("case", [c if c in EVERYDAY else pytest.param(c, marks=pytest.mark.slow) for c in CASES])
def test_an_undeclared_read_of_the_project_fails_the_point_in_the_sandbox(tmp_path, monkeypatch, cli, case):
    root = importable(_project(tmp_path / "p", CASES[case]), monkeypatch)
    code, _, err = cli("run", "--profile", "quick")
    err = " ".join(err.split())
    assert code == 1, err
    assert "UndeclaredInput" in err and NAMED.get(case, "inputs/values.txt") in err, err
    fix = "move it into analysis/" if case in NAMED and "helper" in case else "add it to the module's DATA"
    assert fix in err and "nothing was stored" in err, err
    assert not (root / "results/toy/quick.json").exists()


@needs_sandbox
def test_declared_data_reads_in_the_sandbox_and_the_result_says_hermetic(tmp_path, monkeypatch, cli):
    body = CASES["a program it starts (cat)"] + "\ntotal += len(VALUES.read_text().split())"
    root = importable(_project(tmp_path / "p", body, 'DATA = ("inputs/values.txt",)\n'), monkeypatch)
    code, _, err = cli("run", "--profile", "quick")
    assert code == 0, err
    result = json.loads((root / "results/toy/quick.json").read_text())
    assert result["metrics"]["total"] == 20  # both reads saw the file
    assert result["hermetic"] is True
    assert not any("hermetic" in n for n in result["notes"])


def test_without_a_sandbox_the_result_says_it_is_not_hermetic_and_why(tmp_path, monkeypatch, cli):
    monkeypatch.setenv(sandbox.SETTING, "off")
    root = importable(_project(tmp_path / "p", "total = 10"), monkeypatch)
    code, _, err = cli("run", "--profile", "quick")
    assert code == 0, err
    assert "not hermetic on this machine: the sandbox is turned off (LITREC_SANDBOX=off)" in " ".join(err.split())
    result = json.loads((root / "results/toy/quick.json").read_text())
    assert result["hermetic"] is False
    assert any(n.startswith("not hermetic on this machine: the sandbox is turned off") for n in result["notes"])


def test_the_hook_alone_refuses_a_program_given_an_undeclared_file(tmp_path, monkeypatch, cli):
    """Without a sandbox, the audit hook sees the paths handed to a program and refuses one naming
    an undeclared file of the project."""
    monkeypatch.setenv(sandbox.SETTING, "off")
    root = importable(_project(tmp_path / "p", CASES["a program it starts (cat)"]), monkeypatch)
    code, _, err = cli("run", "--profile", "quick")
    assert code == 1 and "UndeclaredInput" in err and "inputs/values.txt" in err, err
    assert not (root / "results/toy/quick.json").exists()


def test_the_run_says_where_its_points_go_and_whether_they_are_hermetic(monkeypatch):
    monkeypatch.setenv(sandbox.SETTING, "off")
    assert sandbox.describe() == "not hermetic on this machine: the sandbox is turned off (LITREC_SANDBOX=off)"
    monkeypatch.delenv(sandbox.SETTING)
    assert sandbox.describe() == ("each point in a bwrap sandbox (hermetic)" if WHY is None
                                  else f"not hermetic on this machine: {WHY}")


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@needs_sandbox
@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_during_a_sandboxed_point_leaves_no_process_behind(tmp_path, jobs):
    root = _project(tmp_path / "p", "import time\ntime.sleep(300)\ntotal = 10")
    proc = subprocess.Popen([sys.executable, "-m", "litrec", "run", "--profile", "quick", "--jobs", jobs],
                            cwd=root, env={**os.environ, "NO_COLOR": "1"}, start_new_session=True, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline, under, boxed = time.monotonic() + 120, set(), False
    while time.monotonic() < deadline and proc.poll() is None and not boxed:
        under = descendants(proc.pid)
        boxed = any(_comm(p) == "bwrap" for p in under)
        time.sleep(0.05)
    assert boxed, "no sandbox was started"
    time.sleep(1)  # the point is sleeping in its sandbox
    under |= descendants(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    out = proc.communicate(timeout=120)[0]
    assert proc.returncode == 130, out
    assert "Traceback" not in out and "interrupted" in out
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in under) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in under if _alive(p)], out
    assert not (root / "results/toy/quick.json").exists()


@needs_sandbox
@pytest.mark.slow
def test_a_sandboxed_point_killed_fails_the_analysis_and_writes_nothing(tmp_path):
    root = _project(tmp_path / "p", "import time\ntime.sleep(300)\ntotal = 10")
    proc = subprocess.Popen([sys.executable, "-m", "litrec", "run", "--profile", "quick", "--jobs", "1"],
                            cwd=root, env={**os.environ, "NO_COLOR": "1"}, start_new_session=True, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline, boxed = time.monotonic() + 120, []
    while time.monotonic() < deadline and proc.poll() is None and not boxed:
        under = descendants(proc.pid)
        boxed = [p for b in under if _comm(b) == "bwrap" for p in descendants(b) if _comm(p).startswith("python")]
        time.sleep(0.05)
    assert boxed, "no sandboxed point was started"
    time.sleep(1)
    os.kill(boxed[-1], signal.SIGKILL)  # killed, or out of memory
    out = proc.communicate(timeout=120)[0]
    assert proc.returncode == 1, out
    assert "Traceback" not in out
    out = " ".join(out.split())
    assert "analysis toy failed: " in out and "(killed, or out of memory)" in out, out
    assert not (root / "results/toy/quick.json").exists()


@needs_sandbox
@pytest.mark.slow
@pytest.mark.parametrize("own", [False, True], ids=["project cache", "JAX_COMPILATION_CACHE_DIR not made yet"])
def test_a_sandboxed_point_keeps_its_compiled_programs_in_the_project_cache(sweep_project, tmp_path_factory, own):
    from tests.support.jax_toy import JAX_TOY

    root = sweep_project
    (root / "analysis" / "toy_jax.py").write_text(JAX_TOY)
    reg = root / "analysis" / "registry.yaml"
    reg.write_text(reg.read_text() + "toy-jax:\n  module: toy_jax\n  title: Toy JAX\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}  # litrec's own cache
    folder = root / ".litrec-cache" / "jax"
    if own:  # the user's own folder, which JAX makes outside a sandbox: made before it is bound
        folder = tmp_path_factory.mktemp("programs") / "jax"  # outside the project
        env.update(compile_cache_env(folder))
    for _ in range(2):  # compiled, then loaded
        done = subprocess.run([sys.executable, "-m", "litrec", "run", "toy-jax", "--profile", "quick", "--force"],
                              cwd=root, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    result = json.loads((root / "results/toy-jax/quick.json").read_text())
    assert result["hermetic"] is True
    kept = [p.name for p in folder.iterdir()]
    assert any(name.startswith("jit__mix-") for name in kept), kept
