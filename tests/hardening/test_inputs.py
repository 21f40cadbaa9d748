"""Never a stale answer: every input of a result is seen (`litrec.analyses.inputs`), by every cache.

Each case is built in a temporary project, run once, then changed as a user (or a hostile
user) would. Its answer is then worked out three ways, each on its own copy of the project,
caches included: `litrec run` as it is (caches on), with every cache off
(`LITREC_NO_CACHE=1`) and with `--force`; the three verdicts must agree, and they must say
what the changed input says.
"""

from __future__ import annotations

import json
import os
import py_compile
import shutil
from pathlib import Path

import pytest

from tests.support.answers import CLAIM, PLAIN, project_with, run_answer, status_both_ways, three_ways
from tests.support.files import write
from tests.support.toy import analysis

COUNTING = analysis(
    doc="Counts the lines of a data file it declares.",
    head="""
    from pathlib import Path

    DATA = ("analysis/data/*.txt",)
    """,
    body="""
    folder = Path(__file__).parent / "data"
    total = sum(len(p.read_text().split()) for p in sorted(folder.glob("*.txt")))
    return {"metrics": {"total": float(total)}}
    """)

BY_NAME = analysis(doc="Loads its helper by name.", head="import importlib", body="""
    helper = importlib.import_module("analysis.helper")
    return {"metrics": {"total": float(helper.TOTAL)}}
    """)


@pytest.mark.parametrize("source, first, then, before, after", [
    pytest.param(COUNTING, ("analysis/data/a.txt", "1 2 3 4 5 6 7 8 9 10\n"),
                 ("analysis/data/a.txt", "1 2 3 4 5 6 7 8 9\n"), 10.0, 9.0, id="a declared data file changes"),
    pytest.param(COUNTING, ("analysis/data/a.txt", "1 2 3 4 5 6 7 8 9\n"), ("analysis/data/b.txt", "x\n"),
                 9.0, 10.0, id="a new file matches a declared glob", marks=pytest.mark.slow),
    pytest.param(BY_NAME, ("analysis/helper.py", "TOTAL = 10\n"), ("analysis/helper.py", "TOTAL = 9\n"),
                 10.0, 9.0, id="a helper loaded by name changes", marks=pytest.mark.slow),
])
def test_an_input_that_changes_makes_the_result_stale(tmp_path, litrec, source, first, then, before, after):
    """Written `first` (the claim: total >= 10), run, run again with nothing to run (its answer
    kept), then `then` written: rerun, and all three ways agree on the new total."""
    verdict = {10.0: "reproduced", 9.0: "not reproduced"}
    root = project_with(tmp_path / "p", source)
    write(root, *first)
    _, verdicts = run_answer(litrec, root)
    assert verdicts[CLAIM] == (verdict[before], {"total": before})
    run_answer(litrec, root)  # a no-op run: its answer is kept
    write(root, *then)
    verdicts, ran = three_ways(litrec, root, tmp_path)
    assert ran == ["toy"] and verdicts[CLAIM] == (verdict[after], {"total": after})


@pytest.mark.slow
def test_a_module_loaded_by_a_computed_name_is_refused_with_its_line(tmp_path, litrec):
    computed = BY_NAME.replace('importlib.import_module("analysis.helper")',
                               'importlib.import_module("analysis." + "helper")')
    root = project_with(tmp_path / "p", computed)
    write(root, "analysis/helper.py", "TOTAL = 10\n")
    done = litrec("validate", cwd=root)
    assert done.code == 1 and "Traceback" not in done.text
    assert "analysis/toy.py:15: import_module() loads a module whose name is worked out" in done.text
    assert "IMPORTS = (" in done.text
    run = litrec("run", "--profile", "quick", cwd=root)
    assert run.code == 1 and "Traceback" not in run.text
    assert not (root / "results/toy/quick.json").exists()
    # declared: it runs, and the declared module is an input
    write(root, "analysis/toy.py", computed.replace('from dataclasses import dataclass\n',
                                                    'from dataclasses import dataclass\n\n'
                                                    'IMPORTS = ("analysis.helper",)\n', 1))
    assert litrec("validate", cwd=root).code == 0
    _, verdicts = run_answer(litrec, root)
    assert verdicts[CLAIM][0] == "reproduced"
    write(root, "analysis/helper.py", "TOTAL = 9\n")
    verdicts, _ = three_ways(litrec, root, tmp_path)
    assert verdicts[CLAIM][0] == "not reproduced"


def test_a_declared_data_file_that_is_missing_or_outside_is_refused(tmp_path, litrec):
    root = project_with(tmp_path / "p", COUNTING.replace('"analysis/data/*.txt"', '"../secret.txt"'))
    done = litrec("run", "--profile", "quick", cwd=root)
    assert done.code == 1 and "Traceback" not in done.text
    assert "DATA entry '../secret.txt' must be a path or glob relative to the project" in done.text
    write(root, "analysis/toy.py", COUNTING.replace('"analysis/data/*.txt"', '"data/none.csv"'))
    done = litrec("status", "--profile", "quick", cwd=root)
    assert "DATA entry 'data/none.csv' matches no file" in done.text


def test_an_edit_that_keeps_size_and_mtime_is_run_not_the_old_bytecode(tmp_path, litrec):
    root = project_with(tmp_path / "p", PLAIN)
    source = root / "analysis/toy.py"
    _, verdicts = run_answer(litrec, root)
    assert verdicts[CLAIM] == ("reproduced", {"total": 10.0})
    py_compile.compile(str(source), cfile=str(root / "analysis/__pycache__/toy.cpython-"
                                              f"{''.join(map(str, __import__('sys').version_info[:2]))}.pyc"))
    st = source.stat()
    source.write_text(source.read_text().replace("10.0", "09.0"))  # same size
    os.utime(source, ns=(st.st_atime_ns, st.st_mtime_ns))          # same mtime
    assert source.stat().st_size == st.st_size
    verdicts, ran = three_ways(litrec, root, tmp_path)
    assert ran == ["toy"] and verdicts[CLAIM] == ("not reproduced", {"total": 9.0})


def _venv_package(root: Path, version: str) -> Path:
    site = root / ".venv/lib/site-packages"
    for old in site.glob("toypkg-*.dist-info") if site.is_dir() else []:
        shutil.rmtree(old)
    write(site, "toypkg/__init__.py", "TOTAL = 10\n")
    info = site / f"toypkg-{version}.dist-info"
    write(info, "METADATA", f"Metadata-Version: 2.1\nName: toypkg\nVersion: {version}\n")
    write(info, "top_level.txt", "toypkg\n")
    write(info, "RECORD", "toypkg/__init__.py,,\n")
    return site


@pytest.mark.slow
def test_a_package_upgraded_in_the_projects_venv_makes_results_stale(tmp_path, litrec):
    uses = analysis(doc="The total its package says.",
                    body='import toypkg\nreturn {"metrics": {"total": float(toypkg.TOTAL)}}')
    root = project_with(tmp_path / "p", uses)
    _venv_package(root, "1.0")
    env = lambda copy: {"PYTHONPATH": str(copy / ".venv/lib/site-packages")}  # noqa: E731
    _, verdicts = run_answer(litrec, root, env=env(root))
    assert verdicts[CLAIM][0] == "reproduced"
    assert json.loads((root / "results/toy/quick.json").read_text())["versions"] == {"toypkg": "1.0"}
    run_answer(litrec, root, env=env(root))  # kept as a no-op answer
    _venv_package(root, "2.0")
    status = litrec("status", "--profile", "quick", cwd=root, env=env(root))
    assert "versions changed: toypkg 1.0 -> 2.0" in status.text
    verdicts, ran = three_ways(litrec, root, tmp_path, env=env)
    assert ran == ["toy"] and verdicts[CLAIM][0] == "reproduced"


@pytest.mark.process
@pytest.mark.parametrize("name, value", [
    pytest.param("PYTHONHASHSEED", "7", marks=pytest.mark.slow),
    ("JAX_DEFAULT_PRNG_IMPL", "rbg"),
    pytest.param("OMP_NUM_THREADS", "3", marks=pytest.mark.slow),
    pytest.param("TF_XLA_FLAGS", "--tf_xla_auto_jit=2", marks=pytest.mark.slow),
    pytest.param("XLA_FLAGS", "--xla_cpu_x=1", marks=pytest.mark.slow),
    pytest.param("JAX_ENABLE_X64", "1", marks=pytest.mark.slow)])
def test_a_numerics_variable_makes_results_stale(tmp_path, litrec, name, value):
    root = project_with(tmp_path / "p", PLAIN)
    run_answer(litrec, root)
    status = litrec("status", "--profile", "quick", cwd=root, env={name: value})
    assert f"numerics environment changed: {name} (unset) -> {value}" in status.text
    doc, _ = run_answer(litrec, root, env={name: value})
    assert doc["ran"] == ["toy"]
    assert json.loads((root / "results/toy/quick.json").read_text())["inputs"]["env"] == {name: value}


@pytest.mark.parametrize("name, value", [
    ("JAX_COMPILATION_CACHE_DIR", "elsewhere"),       # where compiled programs are kept
    ("TF_CLI_CONFIG_FILE", "/root/.terraformrc"),      # Terraform's, not TensorFlow's
    pytest.param("XLA_PYTHON_CLIENT_MEM_FRACTION", ".5", marks=pytest.mark.slow),  # device memory
    pytest.param("LITREC_TOY_UNRELATED", "1", marks=pytest.mark.slow)])
def test_a_variable_that_cannot_change_numbers_leaves_results_current(tmp_path, litrec, name, value):
    root = project_with(tmp_path / "p", PLAIN)
    run_answer(litrec, root)
    status = litrec("status", "--profile", "quick", "--check-current", cwd=root, env={name: value})
    assert status.code == 0, status.text


def test_the_numerics_variables_are_named_by_prefix():
    from litrec.analyses.numerics import is_numeric_variable

    numeric = ["JAX_DEFAULT_PRNG_IMPL", "JAX_ENABLE_X64", "JAX_SOME_FUTURE_FLAG", "XLA_FLAGS", "TF_XLA_FLAGS",
               "TF_ENABLE_ONEDNN_OPTS", "OMP_NUM_THREADS", "MKL_CBWR", "OPENBLAS_CORETYPE", "NUMEXPR_MAX_THREADS"]
    not_numeric = ["JAX_COMPILATION_CACHE_DIR", "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "TF_CLI_CONFIG_FILE",
                   "TF_VAR_region", "TF_CPP_MIN_LOG_LEVEL", "TF_SOME_OTHER_TOOL", "XLA_PYTHON_CLIENT_PREALLOCATE",
                   "PATH", "HOME",
                   "PYTHONHASHSEED"]  # the hash seed is read as the interpreter started with it
    assert [n for n in numeric if not is_numeric_variable(n)] == []
    assert [n for n in not_numeric if is_numeric_variable(n)] == []


def test_the_exceptions_are_only_under_the_numerics_prefixes():
    """`NOT_NUMERIC` lists only names a prefix would otherwise take in (no other tool's names),
    and the variables named one by one are not under a prefix already."""
    from litrec.analyses.numerics import NOT_NUMERIC, NOT_NUMERIC_PREFIXES, NUMERIC_NAMES, NUMERIC_PREFIXES

    assert [n for n in (*NOT_NUMERIC, *NOT_NUMERIC_PREFIXES) if not n.startswith(NUMERIC_PREFIXES)] == []
    assert [n for n in NUMERIC_NAMES if n.startswith(NUMERIC_PREFIXES)] == []


def test_a_result_that_records_no_inputs_is_stale_and_says_why(tmp_path, litrec):
    root = project_with(tmp_path / "p", PLAIN)
    run_answer(litrec, root)
    path = root / "results/toy/quick.json"
    result = json.loads(path.read_text())
    del result["inputs"]
    from litrec.results.seal import seal

    figures = {}
    path.write_text(json.dumps(seal({k: v for k, v in result.items()
                                     if k not in ("content_hash", "figure_hashes")}, figures)))
    status = litrec("status", "--profile", "quick", cwd=root)
    assert "stale" in status.text and "records no data files, numerics environment" in status.text
    doc, _ = run_answer(litrec, root)
    assert doc["ran"] == ["toy"]


def test_a_data_file_changed_while_the_analysis_runs_stores_nothing(tmp_path, litrec):
    editing = COUNTING.replace('    return {"metrics"', '    (folder / "a.txt").write_text("1\\n")\n'
                               '    return {"metrics"')
    root = project_with(tmp_path / "p", editing)
    write(root, "analysis/data/a.txt", "1 2 3 4 5 6 7 8 9 10\n")
    # the analysis edits its own input here; a sandbox mounts it read-only (the next test)
    done = litrec("run", "--profile", "quick", cwd=root, env={"LITREC_SANDBOX": "off"})
    assert done.code == 1 and "Traceback" not in done.text
    assert "changed while the analysis ran" in done.text
    assert not (root / "results/toy/quick.json").exists()


def test_in_a_sandbox_an_analysis_cannot_change_its_declared_data(tmp_path, litrec, sandboxed):
    from litrec.runs import sandbox

    if sandbox.unavailable() is not None:
        pytest.skip(f"no sandbox on this machine: {sandbox.unavailable()}")
    editing = COUNTING.replace('    return {"metrics"', '    (folder / "a.txt").write_text("1\\n")\n'
                               '    return {"metrics"')
    root = project_with(tmp_path / "p", editing)
    write(root, "analysis/data/a.txt", "1 2 3 4 5 6 7 8 9 10\n")
    done = litrec("run", "--profile", "quick", cwd=root)
    assert done.code == 1 and "Traceback" not in done.text
    assert "Read-only file system" in done.text, done.text
    assert (root / "analysis/data/a.txt").read_text() == "1 2 3 4 5 6 7 8 9 10\n"
    assert not (root / "results/toy/quick.json").exists()


def test_the_run_memo_is_kept_only_when_the_inputs_did_not_change_during_the_run(tmp_path):
    from litrec.analyses.memo import memo_key
    from litrec.cache import runmemo

    root = project_with(tmp_path / "p", PLAIN)
    records, answer = root / "records", runmemo.Answer([], [], [], {})
    key = memo_key(records, root / "analysis", root / "results", "quick", [])
    runmemo.keep(records, "quick", key, answer, again=lambda: "another key")
    assert runmemo.recall(records, "quick", key, lambda patterns: {}) is None
    runmemo.keep(records, "quick", key, answer, again=lambda: key)
    assert runmemo.recall(records, "quick", key, lambda patterns: {}) == answer


USES_HELPER = analysis(doc="The total its helper says.",
                       body='from analysis.helper import TOTAL\nreturn {"metrics": {"total": float(TOTAL)}}')
A, B = "TOTAL = 10\n", "TOTAL =  9\n"  # the same size: B is seen by its bytes only


@pytest.mark.parametrize("at_b, times", [
    pytest.param("status only", "new times", marks=pytest.mark.slow),
    pytest.param("status only", "times put back", marks=pytest.mark.slow),
    pytest.param("run", "new times", marks=pytest.mark.slow),
    pytest.param("run", "times put back", marks=pytest.mark.slow)])
def test_a_helper_edited_a_b_a_is_answered_for_a(tmp_path, litrec, at_b, times):
    """A -> B -> A on an analysis helper: at every step `status` and `run` with caches on say
    what they say with every cache off and with `--force`; back at A, A's answer, never B's,
    and no rerun while A's result is still the one stored."""
    root = project_with(tmp_path / "p", USES_HELPER)
    helper = write(root, "analysis/helper.py", A)
    first = helper.stat()
    _, verdicts = run_answer(litrec, root)
    assert verdicts[CLAIM] == ("reproduced", {"total": 10.0})
    assert run_answer(litrec, root)[0]["ran"] == []  # a no-op: its answer is kept
    helper.write_text(B)
    assert status_both_ways(litrec, root)[CLAIM] == "stale"
    verdicts, ran = three_ways(litrec, root, tmp_path)
    assert ran == ["toy"] and verdicts[CLAIM] == ("not reproduced", {"total": 9.0})
    if at_b == "run":
        assert run_answer(litrec, root)[1] == verdicts
        assert run_answer(litrec, root)[0]["ran"] == []  # B's answer kept
    helper.write_text(A)
    if times == "times put back":
        os.utime(helper, ns=(first.st_atime_ns, first.st_mtime_ns))
    assert status_both_ways(litrec, root)[CLAIM] == ("reproduced" if at_b == "status only" else "stale")
    verdicts, ran = three_ways(litrec, root, tmp_path)
    assert verdicts[CLAIM] == ("reproduced", {"total": 10.0})
    assert ran == ([] if at_b == "status only" else ["toy"])
    for _ in range(2):  # on the project itself, then from the answer it kept
        doc, again = run_answer(litrec, root)
        assert again == verdicts
    assert doc["ran"] == []
