"""The environment as a declared input (`litrec.analyses.environ`): a point sees the variables every
point keeps and those its analysis declares in `ENV`; a declared variable's value (or its
absence) is part of the result's key, so changing it makes the result stale and says which;
an undeclared one is not in `os.environ` inside the point, nor in a program it starts.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from litrec.analyses.contract import check_module, source_problems
from litrec.analyses.environ import KEPT, KEPT_PREFIXES, point_env
from litrec.analyses.inputs import analysis_inputs
from litrec.analyses.numerics import NUMERIC_NAMES, NUMERIC_PREFIXES
from litrec.util.errors import ContractError
from tests.conftest import REPO
from tests.support.mini import PAPER
from tests.support.toy import analysis, importable, write_project

BODY = '''\
import subprocess
shown = subprocess.run(["env"], capture_output=True, text=True).stdout
return {"metrics": {"total": 10.0, "draws": os.environ.get("TOY_DRAWS", "unset"),
                    "in_program": "TOY_DRAWS=" in shown, "secret": "TOY_SECRET" in os.environ}}'''


def _project(root: Path, env: str = "") -> Path:
    source = analysis(doc="A toy that reports what it sees of the environment.", head=f"import os\n{env}",
                      body=BODY)
    return write_project(root, source, {"literature/ARXIV-0000.00001.yaml": PAPER})


def _result(root: Path) -> dict:
    return json.loads((root / "results/toy/quick.json").read_text())


def test_an_undeclared_variable_is_not_seen_by_the_point(tmp_path, monkeypatch, cli):
    root = importable(_project(tmp_path / "p"), monkeypatch)
    monkeypatch.setenv("TOY_DRAWS", "3")
    monkeypatch.setenv("TOY_SECRET", "x")
    code, _, err = cli("run", "--profile", "quick")
    assert code == 0, err
    metrics = _result(root)["metrics"]
    assert metrics["draws"] == "unset" and metrics["in_program"] is False and metrics["secret"] is False
    assert "environ" not in _result(root)["inputs"]  # nothing declared: keyed as before


def test_a_declared_variable_is_seen_keyed_and_makes_the_result_stale_when_it_changes(tmp_path, monkeypatch, cli):
    root = importable(_project(tmp_path / "p", 'ENV = ("TOY_DRAWS",)'), monkeypatch)
    monkeypatch.setenv("TOY_DRAWS", "3")
    monkeypatch.setenv("TOY_SECRET", "x")
    code, _, err = cli("run", "--profile", "quick")
    assert code == 0, err
    result = _result(root)
    assert result["metrics"]["draws"] == "3" and result["metrics"]["in_program"] is True
    assert result["metrics"]["secret"] is False
    assert result["inputs"]["environ"] == {"TOY_DRAWS": "3"}
    inputs = analysis_inputs(root / "analysis", "toy", "quick")
    assert inputs.matches(result)
    code, _, err = cli("run", "--profile", "quick")  # current: nothing to run (and kept in the run memo)
    assert code == 0 and "nothing to run" in err, err

    monkeypatch.setenv("TOY_DRAWS", "5")
    inputs = analysis_inputs(root / "analysis", "toy", "quick")
    assert not inputs.matches(result)
    assert inputs.why_stale(result) == "environment variable TOY_DRAWS changed: 3 -> 5"
    code, _, err = cli("run", "--profile", "quick")  # the run memo's answer is not used: it reruns
    assert code == 0 and "running toy" in err, err
    assert _result(root)["metrics"]["draws"] == "5"

    monkeypatch.delenv("TOY_DRAWS")  # its absence is an input too
    inputs = analysis_inputs(root / "analysis", "toy", "quick")
    assert inputs.why_stale(_result(root)) == "environment variable TOY_DRAWS changed: 5 -> (unset)"


def test_env_must_be_a_literal_tuple_of_variable_names():
    base = analysis(doc="A toy.", metrics={"x": 1})
    assert source_problems(base.replace("PROFILES =", 'ENV = ("TOY_DRAWS",)\nPROFILES =')) == []
    assert source_problems(base.replace("PROFILES =", 'ENV = ("TOY-DRAWS",)\nPROFILES =')) == [
        "ENV: 'TOY-DRAWS' is not the name of an environment variable (letters, digits and '_', "
        "not starting with a digit)"]
    assert source_problems(base.replace("PROFILES =", "ENV = names()\nPROFILES =")) == [
        'ENV is not a literal tuple of environment variable names (ENV = ("TOY_DRAWS",))']

    class Module:
        __name__ = "analysis.toy"
        PROFILES = {"quick": object()}
        ENV = "TOY_DRAWS"

        @staticmethod
        def run(config, progress=None):
            return {}

    with pytest.raises(ContractError, match=r"ENV must be a tuple of environment variable names"):
        check_module(Module, "toy")
    Module.ENV = ("LITREC_NO_CACHE",)
    with pytest.raises(ContractError, match="one of litrec's own settings"):
        check_module(Module, "toy")


def test_a_non_literal_env_is_a_located_problem_of_the_inputs(tmp_path):
    root = _project(tmp_path / "p", "ENV = tuple(['TOY_DRAWS'])")
    problems = analysis_inputs(root / "analysis", "toy", "quick").problems
    assert len(problems) == 1 and re.match(r"analysis/toy\.py:\d+: ENV must be a literal tuple", problems[0])


def test_the_kept_variables_are_documented_and_hold_every_numerics_variable(monkeypatch):
    page = (REPO / "site" / "writing-analyses.md").read_text()
    for name in sorted(KEPT) + [f"{p}*" for p in KEPT_PREFIXES]:
        assert f"`{name}`" in page, f"site/writing-analyses.md does not list `{name}` among the kept variables"
    assert set(NUMERIC_PREFIXES) <= set(KEPT_PREFIXES)
    assert all(name.startswith(KEPT_PREFIXES) for name in NUMERIC_NAMES)
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    monkeypatch.setenv("TOY_SECRET", "x")
    env = point_env({"TOY_DRAWS": "3", "TOY_UNSET": None})
    assert env["OMP_NUM_THREADS"] == "1" and env["TOY_DRAWS"] == "3"
    assert "TOY_SECRET" not in env and "TOY_UNSET" not in env
    assert ast.literal_eval(repr(sorted(KEPT)))  # a plain list of names
