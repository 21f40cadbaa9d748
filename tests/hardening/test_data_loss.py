"""Data loss: litrec never deletes what it did not write, and never leaves a result half written.

- `litrec site build --out DIR` replaces DIR only when it is empty or a build
  of litrec's whose manifest lists every file in it; anything else is refused
  untouched, and --out may not be the project or one of its folders;
- a result and its figures change as one (a crash at any step leaves the old
  one or the new one whole), under a lock per analysis, with ordinary modes;
- a results folder that cannot be written is found before computing, and what
  was computed is kept when the write still fails;
- an analysis that calls sys.exit or raises KeyboardInterrupt fails; a real
  Ctrl-C or SIGTERM stops the run (130/143), its workers and nothing else.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.files import snapshot, write
from tests.support.procs import descendants, in_group

# The mini project's analysis, made to draw a figure that carries the run's token
# (TOY_TOKEN), to note when it starts (TOY_STARTED) and to take a moment (TOY_SLEEP): variables it
# declares (ENV), so each is an input of its result.
SLOW = '''
"""A toy analysis that takes a moment and draws a figure stamped with its run."""
import os
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    """How many numbers to sum, and the seed of a sweep point."""

    n: int = 5
    seed: int = 0


PROFILES = {"quick": Config(n=5), "paper": Config(n=6)}
ENV = ("TOY_SWEEP", "TOY_STARTED", "TOY_SLEEP", "TOY_TOKEN")
if os.environ.get("TOY_SWEEP"):
    SWEEP = {"quick": {"seed": [0, 1, 2, 3]}}


def run(config, progress=None):
    """Note the start, sleep, draw."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if os.environ.get("TOY_STARTED"):
        with open(os.environ["TOY_STARTED"], "a") as fh:
            fh.write(f"{os.getpid()}\\n")
    time.sleep(float(os.environ.get("TOY_SLEEP", "0")))
    token = os.environ.get("TOY_TOKEN", "none")
    %(hook)s
    fig, ax = plt.subplots()
    ax.set_gid(f"run-{token}")
    ax.plot(range(config.n))
    return {"metrics": {"total": float(sum(range(config.n))), "n": config.n, "token": token},
            "figures": {"plot": fig}}
'''

MKDOCS = """
site_name: mini
use_directory_urls: false
strict: true
theme:
  name: material
markdown_extensions:
  - admonition
  - attr_list
  - tables
  - toc:
      permalink: true
  - pymdownx.details
  - pymdownx.highlight
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          class: mermaid
          format: !!python/name:pymdownx.superfences.fence_code_format
"""


@pytest.fixture(autouse=True)
def _hook_alone(monkeypatch):
    """The toy notes its start in a file of the test's (TOY_STARTED) and some hooks touch the
    results folder, neither of which a sandbox holds: the audit hook alone watches here
    (LITREC_SANDBOX=off); a signal during a sandboxed run is tests/runs/test_sandbox.py's."""
    monkeypatch.setenv("LITREC_SANDBOX", "off")


def slow(root: Path, hook: str = "pass", top: str = "") -> None:
    """Give the mini project the slow, drawing analysis (with `hook` run before drawing)."""
    write(root, "analysis/toy.py", top + SLOW % {"hook": hook})


def token_of(results: Path, profile: str = "quick") -> str:
    """The run token of the stored result, after checking its figures are that run's: the
    JSON parses and every figure it names exists and was drawn by the same run."""
    data = json.loads((results / "toy" / f"{profile}.json").read_text(encoding="utf-8"))
    token = data["metrics"]["token"]
    assert data["figures"], data
    for rel in data["figures"].values():
        svg = (results / "toy" / rel).read_text(encoding="utf-8")
        assert f'id="run-{token}"' in svg, (rel, token)
    return token


def alive(pid: int) -> bool:
    """Whether a process still runs (a zombie does not)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return text.rsplit(")", 1)[1].split()[0] != "Z"


def start(root: Path, *args, env: dict | None = None) -> subprocess.Popen:
    """`litrec ARGS` in its own session (so a signal can go to its whole group)."""
    full = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **(env or {})}
    return subprocess.Popen([sys.executable, "-m", "litrec", *args], cwd=root, env=full,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def wait_for(path: Path, lines: int = 1, timeout: float = 120, poll: float = 0.1) -> None:
    """Until the analysis has noted `lines` starts in `path` (looking every `poll` s)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if path.exists() and len(path.read_text().split()) >= lines:
            return
        time.sleep(poll)
    raise AssertionError(f"the analysis did not start within {timeout} s")


@pytest.fixture
def ran(mini):
    """The mini project with the slow analysis and a stored quick result of run 'old'
    (written directly: a run's result, stale for the code as it is)."""
    slow(mini)
    write_old_result(mini)
    return mini


def write_old_result(root: Path) -> None:
    """The stored quick result of run 'old' (written directly)."""
    from litrec.results.store import write_result

    write_result(root / "results", "toy", "quick",
                 {"metrics": {"total": 10.0, "n": 5, "token": "old"},
                  "figures": {"plot": "quick/plot.svg"}},
                 {"plot.svg": b'<svg xmlns="http://www.w3.org/2000/svg"><g id="run-old"/></svg>'})
    assert token_of(root / "results") == "old"


def settled(results: Path) -> dict[str, bytes]:
    """The analysis's stored result and figures (what must survive a failed or stopped run); a
    stopped run's work for a rerun (its partial folder, marked) is not among them."""
    return {k: v for k, v in snapshot(results / "toy").items()
            if "error.log" not in k and k != ".litrec-lock" and ".partial/" not in k}


# ---------------------------------------------------------------- site --out


def site_project(mini: Path) -> Path:
    """The mini project with a MkDocs configuration, so that `litrec site build` runs."""
    write(mini, "mkdocs.yml", MKDOCS)
    return mini


def test_site_build_refuses_a_folder_that_only_looks_like_a_site(mini, litrec):
    root = site_project(mini)
    out = root / "public"
    write(out, "sitemap.xml", "<urlset/>")
    write(out, "assets/style.css", "body {}")
    write(out, "thesis/chapter1.tex", "years of work")
    write(out, "notes.txt", "my notes")
    before = snapshot(out)
    done = litrec("site", "build", "--out", "public", cwd=root)
    assert done.code == 1, done.text
    assert "public" in done.err and "not empty" in done.err
    assert "assets/style.css" in done.err and "notes.txt" in done.err  # the first foreign files
    assert "remove" in done.err and "empty or new folder" in done.err
    assert "Traceback" not in done.text
    assert "years of work" not in done.text
    assert snapshot(out) == before
    assert sorted(p.name for p in root.iterdir() if p.name.startswith(".public")) == []


def test_site_build_refuses_an_old_build_it_cannot_vouch_for(mini, litrec):
    root = site_project(mini)
    out = root / "public"
    write(out, ".litrec-site", "")  # an older litrec's marker: no list of files
    write(out, "index.html", "<html>mine now</html>")
    before = snapshot(out)
    done = litrec("site", "build", "--out", "public", cwd=root)
    assert done.code == 1, done.text
    assert "older litrec" in done.err and "index.html" in done.err
    assert snapshot(out) == before


@pytest.mark.slow
def test_site_build_replaces_its_own_build_and_nothing_else(mini, litrec):
    root = site_project(mini)
    out = root / "site-out"
    first = litrec("site", "build", "--out", "site-out", cwd=root)
    assert first.code == 0, first.text
    listed = set(json.loads((out / ".litrec-site").read_text())["files"])
    assert listed == {k for k in snapshot(out) if k != ".litrec-site"}
    assert stat.S_IMODE(out.stat().st_mode) == 0o777 & ~_umask()
    (root / "records" / "notes" / "NOTE-1.yaml").write_text(
        (root / "records" / "notes" / "NOTE-1.yaml").read_text().replace("A note on", "Notes on"))
    second = litrec("site", "build", "--out", "site-out", cwd=root)
    assert second.code == 0, second.text
    assert "Notes on the toy paper" in (out / "records" / "NOTE-1.html").read_text()
    assert [p.name for p in root.iterdir() if p.name.startswith(".site-out")] == []
    write(out, "records/my-page.html", "<p>mine</p>")  # now the folder holds a foreign file
    before = snapshot(out)
    third = litrec("site", "build", "--out", "site-out", cwd=root)
    assert third.code == 1, third.text
    assert "records/my-page.html" in third.err
    assert snapshot(out) == before


@pytest.mark.slow
@pytest.mark.parametrize("out", [".", "..", "records", "records/site", "analysis/out",
                                 "results", "results/toy/site", "site/html", "build",
                                 "build/docs"])
def test_site_out_may_not_be_the_project_or_one_of_its_folders(mini, litrec, out):
    root = site_project(mini)
    write(root, "site/guide.md", "# Guide\n")
    write(root, "results/toy/notes.txt", "kept")
    write(root, "build/docs/.keep", "")
    before = snapshot(root)
    done = litrec("site", "build", "--out", out, cwd=root)
    assert done.code == 2, done.text  # a bad --out is bad usage
    assert "--out" in done.err and "Traceback" not in done.text
    assert snapshot(root) == before


def test_docs_folder_with_a_foreign_file_is_refused_untouched(mini, litrec):
    root = site_project(mini)
    write(root, "build/docs/draft.md", "# My draft\n")
    before = snapshot(root / "build")
    done = litrec("site", "build", "--out", "public", cwd=root)
    assert done.code == 1, done.text
    assert "docs folder" in done.err and "draft.md" in done.err
    assert snapshot(root / "build") == before
    assert not (root / "public").exists()


# ---------------------------------------------------------------- one unit


class Crash(BaseException):
    """The process dies here: this and every later file operation fails."""


SVG = '<svg xmlns="http://www.w3.org/2000/svg"><g id="run-{}"/></svg>'


def _payload(token: str, figures: bool) -> tuple[dict, dict[str, bytes]]:
    figs = {"plot": "quick/plot.svg", "extra": "quick/extra.svg"} if figures else {}
    data = {name: SVG.format(token).encode() for name in ("plot.svg", "extra.svg")} if figures else {}
    return {"metrics": {"token": token}, "figures": figs}, data


def _check_whole(results: Path, tokens: set[str]) -> str:
    data = json.loads((results / "toy" / "quick.json").read_text())
    token = data["metrics"]["token"]
    assert token in tokens
    for rel in data["figures"].values():
        assert (results / "toy" / rel).read_text() == SVG.format(token), (rel, token)
    return token


@pytest.mark.parametrize("old_figs,new_figs", [(True, True), (False, True), (True, False)])
def test_a_crash_at_any_step_of_a_write_leaves_one_whole_result(tmp_path, monkeypatch,
                                                                old_figs, new_figs):
    """Kill the write at its 1st, 2nd, ... file operation: old or new, never a mix."""
    from litrec.results.store import write_result

    ops = ("rename", "replace", "link", "mkdir", "rmdir", "unlink", "fsync", "open", "write")
    real = {name: getattr(os, name) for name in ops}
    step = 0
    while True:
        step += 1
        results = tmp_path / f"r{step}"
        write_result(results, "toy", "quick", *_payload("old", old_figs))
        count = {"n": 0}

        def dying(name):
            def op(*args, **kwargs):
                count["n"] += 1
                if count["n"] >= step:
                    raise Crash(name)
                return real[name](*args, **kwargs)
            return op

        for name in ops:
            monkeypatch.setattr(os, name, dying(name))
        try:
            write_result(results, "toy", "quick", *_payload("new", new_figs))
            crashed = False
        except Crash:
            crashed = True
        finally:
            for name in ops:
                monkeypatch.setattr(os, name, real[name])
        if old_figs or new_figs:
            _check_whole(results, {"old", "new"} if crashed else {"new"})
        write_result(results, "toy", "quick", *_payload("next", True))  # the next run tidies up
        assert _check_whole(results, {"next"}) == "next"
        assert sorted(p.name for p in (results / "toy").iterdir()) == ["quick", "quick.json"]
        if not crashed:
            break
    assert step > 10  # every step of the write was tried


def test_unchanged_figures_are_left_as_they_are(tmp_path):
    from litrec.results.store import write_result

    payload, figs = _payload("same", True)
    write_result(tmp_path, "toy", "quick", payload, figs)
    inode = (tmp_path / "toy" / "quick" / "plot.svg").stat().st_ino
    write_result(tmp_path, "toy", "quick", {**payload, "metrics": {"token": "same", "x": 1}}, figs)
    assert (tmp_path / "toy" / "quick" / "plot.svg").stat().st_ino == inode
    assert json.loads((tmp_path / "toy" / "quick.json").read_text())["metrics"]["x"] == 1


def test_committed_results_still_read_and_show_their_figures():
    """The results in the repository keep their layout: <profile>.json and <profile>/."""
    from litrec.results.store import read_result

    repo = Path(__file__).resolve().parents[2] / "results"
    for json_file in sorted(repo.glob("*/*.json")):
        data = read_result(repo, json_file.parent.name, json_file.stem)
        for rel in (data.get("figures") or {}).values():
            assert (json_file.parent / rel).is_file(), rel


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@pytest.mark.parametrize("mask", [0o022, 0o077])
def test_result_files_get_ordinary_modes(tmp_path, mask):
    from litrec.results.store import write_result

    old = os.umask(mask)
    try:
        write_result(tmp_path, "toy", "quick", *_payload("a", True))
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "toy" / "quick.json").stat().st_mode) == 0o666 & ~mask
    assert stat.S_IMODE((tmp_path / "toy" / "quick" / "plot.svg").stat().st_mode) == 0o666 & ~mask
    assert stat.S_IMODE((tmp_path / "toy" / "quick").stat().st_mode) == 0o777 & ~mask


def test_a_replaced_record_keeps_an_ordinary_mode(tmp_path):
    from litrec.records.newrecord import write_replace

    record = write(tmp_path, "records/notes/NOTE-1.yaml", "id: NOTE-1\n")
    old = os.umask(0o022)
    try:
        write_replace(record, "id: NOTE-1\nkind: note\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE(record.stat().st_mode) == 0o644
    assert [p.name for p in record.parent.iterdir()] == ["NOTE-1.yaml"]


def test_litrec_run_writes_results_0644(mini, litrec):
    old = os.umask(0o022)
    try:
        slow(mini)
        done = litrec("run", "--profile", "quick", cwd=mini)
    finally:
        os.umask(old)
    assert done.code == 0, done.text
    for rel in ("quick.json", "quick/plot.svg"):
        assert stat.S_IMODE((mini / "results" / "toy" / rel).stat().st_mode) == 0o644, rel


# ---------------------------------------------------------------- lock


@pytest.mark.slow  # minutes of the everyday suite on two cores; run by make test-all
def test_a_run_holding_the_lock_keeps_a_second_one_out(ran, litrec):
    import fcntl

    before = settled(ran / "results")
    lock = ran / "results" / "toy" / ".litrec-lock"
    with open(lock, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        done = litrec("run", "--profile", "quick", "--force", cwd=ran, env={"TOY_TOKEN": "new"})
    assert done.code == 1, done.text
    assert "another litrec run is running 'toy'" in done.err and ".litrec-lock" in done.err
    assert "Traceback" not in done.text
    assert settled(ran / "results") == before
    assert lock.exists()  # the test's lock, left alone
    lock.unlink()
    again = litrec("run", "--profile", "quick", cwd=ran, env={"TOY_TOKEN": "new"})
    assert again.code == 0, again.text
    assert not lock.exists()  # a run removes its lock file when it ends


@pytest.mark.slow
def test_two_runs_at_once_do_not_interleave(ran, litrec):
    started = ran / "started"
    first = start(ran, "run", "--profile", "quick", "--force",
                  env={"TOY_TOKEN": "first", "TOY_SLEEP": "4", "TOY_STARTED": str(started)})
    try:
        wait_for(started)
        second = litrec("run", "--profile", "quick", "--force", cwd=ran, env={"TOY_TOKEN": "second"})
        out, err = first.communicate(timeout=120)
    finally:
        first.kill()
    assert first.returncode == 0, out + err
    assert second.code == 1 and "another litrec run is running 'toy'" in second.err
    assert token_of(ran / "results") == "first"


# ---------------------------------------------------------------- unwritable results


def test_a_results_folder_that_is_a_file_is_found_before_computing(mini, litrec):
    slow(mini)
    write(mini, "results/toy", "not a folder")
    started = mini / "started"
    done = litrec("run", "--profile", "quick", cwd=mini, env={"TOY_STARTED": str(started)})
    assert done.code == 1, done.text
    assert "results/toy" in done.err and "is a file" in done.err
    assert "nothing was computed" in done.err and "Traceback" not in done.text
    assert not started.exists()
    assert (mini / "results" / "toy").read_text() == "not a folder"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to a read-only folder anyway")
def test_a_read_only_results_folder_is_found_before_computing(ran, litrec):
    folder = ran / "results" / "toy"
    before = settled(ran / "results")
    folder.chmod(0o555)
    try:
        done = litrec("run", "--profile", "quick", "--force", cwd=ran,
                      env={"TOY_STARTED": str(ran / "started")})
    finally:
        folder.chmod(0o755)
    assert done.code == 1, done.text
    assert "results/toy" in done.err and "nothing was computed" in done.err
    assert not (ran / "started").exists()
    assert settled(ran / "results") == before


def test_a_write_that_fails_after_computing_keeps_what_was_computed(ran, litrec):
    # the analysis itself takes the results folder away while it computes
    sabotage = ("import pathlib; r = pathlib.Path('results'); (r / 'toy').rename(r / 'moved'); "
                "(r / 'toy').write_text('in the way')")
    slow(ran, hook=sabotage)
    done = litrec("run", "--profile", "quick", cwd=ran, env={"TOY_TOKEN": "new"})
    assert done.code == 1, done.text
    assert "cannot write the result to" in done.err and "results/toy" in done.err
    m = re.search(r"what was computed is kept in (\S+\.json)", done.err)
    assert m, done.err
    kept = Path(m.group(1))
    try:
        data = json.loads(kept.read_text())
        assert data["metrics"]["token"] == "new"
        assert 'id="run-new"' in (kept.parent / data["figures"]["plot"]).read_text()
    finally:
        shutil.rmtree(kept.parent, ignore_errors=True)
    assert "Traceback" not in done.text


# ---------------------------------------------------------------- exits inside an analysis


@pytest.mark.slow
@pytest.mark.parametrize("hook,top,said", [
    ("import sys; sys.exit(0)", "", "called sys.exit(0)"),
    pytest.param("raise SystemExit(3)", "", "called sys.exit(3)", marks=pytest.mark.slow),
    ("raise KeyboardInterrupt", "", "raised KeyboardInterrupt itself"),
    ("pass", "import sys\nsys.exit(0)\n", "called sys.exit(0)"),  # at import
])
def test_an_analysis_that_exits_is_a_failure_and_keeps_the_old_result(ran, litrec, hook, top, said):
    before = settled(ran / "results")
    slow(ran, hook=hook, top=top)
    done = litrec("run", "--profile", "quick", cwd=ran, env={"TOY_TOKEN": "new"})
    assert done.code == 1, done.text
    assert "analysis toy failed: AnalysisExited" in done.err and said in done.err
    assert "its previous result is kept" in done.err and "Traceback" not in done.text
    assert settled(ran / "results") == before
    assert (ran / "results" / "toy" / "quick.error.log").is_file()


@pytest.mark.slow
def test_sys_exit_in_a_worker_process_is_a_failure(ran, litrec):
    before = settled(ran / "results")
    slow(ran, hook="import sys; sys.exit(0)")
    done = litrec("run", "--profile", "quick", "--jobs", "2", cwd=ran, env={"TOY_SWEEP": "1"})
    assert done.code == 1, done.text
    assert "AnalysisExited" in done.err and "sys.exit(0)" in done.err
    assert "Traceback" not in done.text
    assert settled(ran / "results") == before


# ---------------------------------------------------------------- Ctrl-C and SIGTERM


def test_a_signal_during_a_write_waits_for_the_write_then_stops_the_run():
    from litrec.runs import interrupt

    with interrupt.handling():
        with interrupt.deferred():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.1)  # the handler runs here, and only notes the signal
        assert interrupt.requested()
        assert interrupt.stray(SystemExit(0)) is None  # once the user stopped the run, all stops
        with pytest.raises(interrupt.Interrupted) as stopped:
            interrupt.check()
    assert stopped.value.exit_code == 143
    assert not interrupt.requested()
    assert "sys.exit(2)" in interrupt.stray(SystemExit(2))
    assert interrupt.stray(ValueError("x")) is None
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL  # put back as it was


def _stop(root: Path, sig: int, group: bool, *args, env: dict | None = None):
    """Start a long run, signal it once the analysis runs; (exit code, output, children)."""
    started = root / "started"
    env = {"TOY_TOKEN": "new", "TOY_SLEEP": "120", "TOY_STARTED": str(started), **(env or {})}
    proc = start(root, "run", "--profile", "quick", "--force", *args, env=env)
    try:
        wait_for(started)
        time.sleep(0.5)
        kids = sorted(descendants(proc.pid))
        if group:
            os.killpg(proc.pid, sig)  # what Ctrl-C in a terminal does
        else:
            proc.send_signal(sig)
        out, err = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while any(alive(k) for k in kids) and time.monotonic() < deadline:
        time.sleep(0.2)
    return proc.returncode, out + err, [k for k in kids if alive(k)]


@pytest.mark.slow
@pytest.mark.parametrize("sig,group,code,how", [
    (signal.SIGINT, True, 130, "here"),  # Ctrl-C: the whole process group
    (signal.SIGTERM, False, 143, "local workers"),  # kill PID: only litrec, which stops its workers
    pytest.param(signal.SIGINT, True, 130, "local workers", marks=pytest.mark.slow),
    pytest.param(signal.SIGTERM, False, 143, "here", marks=pytest.mark.slow),
])
def test_ctrl_c_and_sigterm_stop_the_run_and_its_workers(ran, sig, group, code, how):
    before = settled(ran / "results")
    args, env = (("--jobs", "2"), {"TOY_SWEEP": "1"}) if how == "local workers" else ((), {})
    rc, text, left = _stop(ran, sig, group, *args, env=env)
    assert rc == code, text
    assert "Traceback" not in text
    assert ("terminated" if code == 143 else "interrupted") in text
    assert "its previous result is kept" in text
    assert left == []
    assert settled(ran / "results") == before
    assert token_of(ran / "results") == "old"


@pytest.mark.slow
@pytest.mark.parametrize("sig,group,code", [(signal.SIGINT, True, 130), (signal.SIGTERM, False, 143)])
def test_ctrl_c_and_sigterm_stop_a_dask_local_cluster(ran, sig, group, code):
    pytest.importorskip("distributed")
    before = settled(ran / "results")
    rc, text, left = _stop(ran, sig, group, "--executor", "dask", "--jobs", "2",
                           env={"TOY_SWEEP": "1"})
    assert rc == code, text
    assert "Traceback" not in text
    assert left == []
    assert settled(ran / "results") == before


def _signal_while_starting(root: Path, sig: int, group: bool, delay: float, started: Path):
    """`litrec run --jobs 2` of a sweep, signalled `delay` s after its first child process
    appears (the resource tracker, then the server the workers fork from); (exit code, the
    output of every process of the group, processes left, whether a point had started)."""
    started.unlink(missing_ok=True)
    proc = start(root, "run", "--profile", "quick", "--force", "--jobs", "2",
                 env={"TOY_TOKEN": "new", "TOY_SLEEP": "60", "TOY_STARTED": str(started),
                      "TOY_SWEEP": "1"})
    try:
        t0 = time.monotonic()
        while len(in_group(proc.pid)) < 2 and proc.poll() is None and time.monotonic() - t0 < 60:
            time.sleep(0.005)
        time.sleep(delay)
        point_ran = started.exists()
        if group:
            os.killpg(proc.pid, sig)  # what Ctrl-C in a terminal does
        else:
            proc.send_signal(sig)
        out, err = proc.communicate(timeout=90)  # every process of the group writes to these pipes
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while in_group(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return proc.returncode, out + err, in_group(proc.pid), point_ran


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads process groups from /proc")
@pytest.mark.slow
@pytest.mark.parametrize("sig,group,code", [(signal.SIGINT, True, 130), (signal.SIGTERM, False, 143)])
def test_a_signal_while_the_workers_start_prints_no_traceback_from_any_process(ran, sig, group, code):
    """Ctrl-C (to the whole group) or SIGTERM (to litrec alone) at random moments between the
    first child process and the first point: the documented exit code, one line, no traceback
    from litrec, its server or a worker (a forkserver child once printed FileNotFoundError from
    SemLock._rebuild), no process left, the stored result untouched."""
    from litrec.runs.executors import start_method

    if start_method() != "forkserver":
        pytest.skip("the workers start from a forkserver on Linux only")
    started = ran / "started"
    t0 = time.monotonic()  # the start-up window: from litrec's first child to the first point
    probe = start(ran, "run", "--profile", "quick", "--force", "--jobs", "2",
                  env={"TOY_TOKEN": "probe", "TOY_STARTED": str(started), "TOY_SWEEP": "1"})
    while len(in_group(probe.pid)) < 2 and probe.poll() is None:
        time.sleep(0.005)
    t1 = time.monotonic()
    wait_for(started)
    window = time.monotonic() - t1
    probe.communicate(timeout=120)
    assert probe.returncode == 0 and time.monotonic() - t0 < 120
    write_old_result(ran)  # the probe's result replaced by the old one again
    before = settled(ran / "results")
    rng = random.Random(20 + sig)
    # at once, then at a random moment in each third of the window (was five anywhere in it:
    # each signal costs a sweep's start-up; one a third keeps the moments spread over all of it)
    delays = [0.0] + [rng.uniform(i / 3 * window, (i + 1) / 3 * window) for i in range(3)]
    early = 0
    for delay in delays:
        rc, text, left, point_ran = _signal_while_starting(ran, sig, group, delay, started)
        assert rc == code, (delay, text)
        for bad in ("Traceback", "Error", "Exception ignored", "leaked"):
            assert bad not in text, (delay, text)
        assert ("terminated" if code == 143 else "interrupted") in text
        assert left == [], (delay, text)
        assert settled(ran / "results") == before
        early += not point_ran
    assert early >= 2  # most signals came before any point ran: the window was hit


# ---------------------------------------------------------------- SIGKILL at random


@pytest.mark.slow
def test_sigkill_at_random_moments_leaves_the_old_or_the_new_result_whole(ran):
    """Kill `litrec run --force` at random moments; every time the stored result is one
    run's, JSON and figures alike. Three kills in four fall between the analysis's start and
    a little past the moment its result is stored (the figure drawn, the result written), the
    rest anywhere in the run. (Every step of the write itself is crashed in turn by
    test_a_crash_at_any_step_of_a_write_leaves_one_whole_result; this is the real process,
    killed from outside.)"""
    rng = random.Random(20240)
    started = ran / "started"
    stored = ran / "results" / "toy" / "quick.json"
    env = {"TOY_SLEEP": "0.1", "TOY_STARTED": str(started)}
    t0 = time.monotonic()
    probe = start(ran, "run", "--profile", "quick", "--force", env={**env, "TOY_TOKEN": "probe"})
    wait_for(started, poll=0.005)
    t1 = time.monotonic()
    while probe.poll() is None and '"probe"' not in stored.read_text(encoding="utf-8"):
        time.sleep(0.005)  # the stored result is replaced whole: always there, old or new
    written = time.monotonic() - t1  # from the analysis's start to its result stored
    probe.communicate(timeout=300)
    assert probe.returncode == 0
    length = time.monotonic() - t0  # how long a whole run takes here
    seen = {"probe"}
    tokens = {"probe"}
    for i in range(12):  # was 24 kills spread over the run's last part, where the write is a sliver of it
        token = f"k{i}"
        tokens.add(token)
        started.unlink(missing_ok=True)
        proc = start(ran, "run", "--profile", "quick", "--force", env={**env, "TOY_TOKEN": token})
        if i % 4 == 0:
            when = rng.uniform(0.2, length * 1.2)
        else:
            wait_for(started, poll=0.005)
            when = rng.uniform(0, written * 1.3)
        try:
            proc.communicate(timeout=when)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
        seen.add(token_of(ran / "results"))  # parses, figures of the same run
        assert seen <= tokens
    assert len(seen) > 1  # some runs finished between the kills
    final = start(ran, "run", "--profile", "quick", "--force", env={**env, "TOY_TOKEN": "last"})
    final.communicate(timeout=300)
    assert token_of(ran / "results") == "last"
    assert sorted(p.name for p in (ran / "results" / "toy").iterdir()) == [
        "quick", "quick.history.jsonl", "quick.json"]  # the result, its figures, its ledger


@pytest.mark.slow  # minutes of the everyday suite on two cores; run by make test-all
def test_a_wait_of_the_run_returns_what_the_call_gave_and_stops_when_asked():
    """`interrupt.result` waits in steps: it gives the call's value or raises the call's own
    error (a TimeoutError included), also when the call ends between two steps, and raises a
    stop that was noted while it waited."""
    import concurrent.futures
    import threading

    from litrec.runs import interrupt

    def late(value, after):
        time.sleep(after)
        if isinstance(value, BaseException):
            raise value
        return value

    class EndsAfterTheStep:
        """A future whose wait times out, and that is done by the time it is asked."""

        def __init__(self, outcome):
            self.outcome, self.asked = outcome, 0

        def result(self, timeout=None):
            self.asked += 1
            if self.asked == 1:
                raise TimeoutError("the step's own")
            if isinstance(self.outcome, BaseException):
                raise self.outcome
            return self.outcome

        def done(self):
            return self.asked > 0

    assert interrupt.result(EndsAfterTheStep(7)) == 7
    with pytest.raises(TimeoutError, match="the call's own"):
        interrupt.result(EndsAfterTheStep(TimeoutError("the call's own")))
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for after in (0.0, interrupt.TICK_S * 1.5):
            assert interrupt.result(pool.submit(late, 7, after)) == 7
            with pytest.raises(TimeoutError, match="the call's own"):
                interrupt.result(pool.submit(late, TimeoutError("the call's own"), after))
        with interrupt.handling():
            threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGTERM)).start()
            with pytest.raises(interrupt.Interrupted) as stopped:
                interrupt.result(pool.submit(late, 1, 3.0))
        assert stopped.value.exit_code == 143
