"""tools/mutation.py (`make mutation`) decides the mutants that mutmut cannot activate, those of
code run only at import, by their `killed_by` tests in a fresh interpreter: killed when the tests
fail with the mutant active from the start, a survivor when they pass; the tests must pass with no
mutant; `--report-only` reuses what an earlier check recorded. Each test runs the tool on a fake
mutants/ folder as mutmut 3 writes it (its trampolines, a .meta of exit codes): a module whose
table is built at import, by the function mutmut mutated."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from tests.conftest import REPO

ORIGINAL = 'return {"name": name, "sign": "<"}'
MUTANTS = {1: 'return {"name": name, "sign": ">"}',     # changes TABLE: the test fails
           2: 'return {"XXnameXX": name, "sign": "<"}'}  # TABLE's sign unchanged: the test passes

MODULE = f'''from mutmut.mutation.trampoline import wrap_in_trampoline as _mutmut_mutated, MutantDict

mutants_x_sign__mutmut: MutantDict = {{}}


@_mutmut_mutated(mutants_x_sign__mutmut)
def sign(name):
    {ORIGINAL}


def x_sign__mutmut_orig(name):
    {ORIGINAL}


def x_sign__mutmut_1(name):
    {MUTANTS[1]}


def x_sign__mutmut_2(name):
    {MUTANTS[2]}


mutants_x_sign__mutmut["_mutmut_orig"] = x_sign__mutmut_orig
mutants_x_sign__mutmut["x_sign__mutmut_1"] = x_sign__mutmut_1
mutants_x_sign__mutmut["x_sign__mutmut_2"] = x_sign__mutmut_2

TABLE = sign("less")  # runs only at import
'''

TEST = '''from toy.table import TABLE


def test_the_sign():
    assert TABLE["sign"] == "<"
'''


def fake_project(root: Path, test: str = TEST, **entry) -> Path:
    """root: tools/mutation.py, pyproject's [tool.mutmut], the list, and mutants/ as mutmut left
    it, where both mutants of `sign` survived (mutmut forked their runs after the import)."""
    (root / "tools").mkdir(parents=True)
    shutil.copy(REPO / "tools" / "mutation.py", root / "tools" / "mutation.py")
    conf = '[tool.mutmut]\npytest_add_cli_args = ["-p", "no:xdist", "-q"]\n'
    (root / "pyproject.toml").write_text(conf, encoding="utf-8")
    src = root / "mutants" / "src" / "toy"
    src.mkdir(parents=True)
    (src / "__init__.py").write_text("", encoding="utf-8")
    (src / "table.py").write_text(MODULE, encoding="utf-8")
    codes = {f"toy.table.x_sign__mutmut_{n}": 0 for n in MUTANTS}
    (src / "table.py.meta").write_text(json.dumps({"exit_code_by_key": codes}), encoding="utf-8")
    (root / "mutants" / "pyproject.toml").write_text("[tool.pytest.ini_options]\n", encoding="utf-8")
    (root / "mutants" / "tests").mkdir()
    (root / "mutants" / "tests" / "test_table.py").write_text(test, encoding="utf-8")
    listed = [{"module": "toy.table", "function": "sign", "before": [ORIGINAL], "after": [after],
               "why": "runs only at import, building TABLE", "killed_by": ["tests/test_table.py"],
               **entry} for after in MUTANTS.values()]
    (root / "tests" / "verdicts").mkdir(parents=True)
    (root / "tests" / "verdicts" / "equivalent_mutants.yaml").write_text(
        yaml.safe_dump([{k: v for k, v in e.items() if v is not None} for e in listed]),
        encoding="utf-8")
    return root


def report(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(root / "tools" / "mutation.py"), "--report-only",
                           "--max-children", "2"], cwd=root, capture_output=True, text=True,
                          timeout=300)


def test_an_import_time_mutant_is_killed_when_its_tests_fail_and_survives_when_they_pass(tmp_path):
    root = fake_project(tmp_path)
    done = report(root)
    assert done.returncode == 1, done.stdout + done.stderr  # 1 of 2 killed: below the goal
    assert ("toy.table.x_sign__mutmut_2 (survived in a fresh interpreter, by tests/test_table.py) "
            "in sign:") in done.stdout
    assert f"    + {MUTANTS[2]}" in done.stdout
    assert "x_sign__mutmut_1 (" not in done.stdout
    assert "fresh interpreter: 1 killed, 1 survived (2 run now in" in done.stdout
    assert ("mutation score of the verdict core: 50.0% (1 of 2 non-equivalent mutants killed, 1 of "
            "them in a fresh interpreter, 0 equivalent)") in done.stdout

    again = report(root)  # --report-only: the recorded exit codes, nothing run
    assert "1 killed, 1 survived (2 as recorded in mutants/fresh-runs.json" in again.stdout
    assert again.stdout.splitlines()[-1] == done.stdout.splitlines()[-1]


def test_killed_by_tests_that_fail_without_the_mutant_stop_the_score(tmp_path):
    root = fake_project(tmp_path, test=TEST.replace('== "<"', '== "≠"'))
    done = report(root)
    assert done.returncode == 2
    assert ("the killed_by tests tests/test_table.py of tests/verdicts/equivalent_mutants.yaml do not "
            "pass in mutants/ with no mutant active (pytest exited 1;") in done.stderr
    assert "mutation score" not in done.stdout


def test_an_entry_with_killed_by_needs_why_and_no_reason(tmp_path):
    root = fake_project(tmp_path, why=None, reason="it is equivalent")
    done = report(root)
    assert done.returncode == 2
    assert "equivalent_mutants.yaml: entry 1 (toy.table sign): needs module" in done.stderr
    assert done.stderr.rstrip().endswith("missing: why (and no reason: the tests kill it, it is not "
                                         "equivalent)")
