"""The analysis contract: a module that breaks it gets a located error, not an AttributeError."""

from __future__ import annotations

import json
import sys
import textwrap
import types

import pytest

from litrec.analyses.contract import check_module, check_output, source_problems
from litrec.util.errors import ContractError

GOOD = '''
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    n: int = 3


PROFILES = {"quick": Config(), "paper": Config(n=4)}


def run(config, progress=None):
    return {"metrics": {"n": config.n}}
'''

LIT = '''
id: ARXIV-0000.00002
kind: literature
title: A paper
claims:
  - id: F1
    kind: finding
    title: n is small
    statement: n is below ten.
    check:
      analysis: toy
      expect:
        - {metric: n, op: "<", value: 10, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
'''


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A project with one analysis, `toy`, whose source each test writes."""
    (tmp_path / "analysis").mkdir()
    (tmp_path / "analysis" / "__init__.py").write_text("")
    (tmp_path / "analysis" / "registry.yaml").write_text(
        "# analyses\n\ntoy:\n  module: toy\n  title: Toy\n")
    rec = tmp_path / "records" / "literature" / "ARXIV-0000.00002.yaml"
    rec.parent.mkdir(parents=True)
    rec.write_text(textwrap.dedent(LIT))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for mod in [m for m in sys.modules if m == "analysis" or m.startswith("analysis.")]:
        monkeypatch.delitem(sys.modules, mod)

    def write(source: str):
        (tmp_path / "analysis" / "toy.py").write_text(textwrap.dedent(source))
        return tmp_path

    return write


def test_a_module_that_keeps_the_contract_validates_and_runs(toy, cli):
    toy(GOOD)
    assert cli("validate")[0] == 0
    code, out, _ = cli("run", "--profile", "quick", "--format", "json")
    assert code == 0 and json.loads(out)["claims"][0]["verdict"] == "reproduced"


@pytest.mark.parametrize("source, piece", [
    (GOOD.replace('PROFILES = {"quick": Config(), "paper": Config(n=4)}', ""), "defines no PROFILES"),
    (GOOD.replace("def run(config, progress=None):", "def main(config, progress=None):"),
     "defines no run(config, progress=None) function"),
    (GOOD.replace("def run(config, progress=None):", "def run(config):"),
     "run() takes no 'progress' argument"),
    (GOOD.replace("def run(config, progress=None):", "def run():"), "run() takes no config argument"),
    ("def run(config, progress=None):\n    return {\n", "does not parse: line"),
])
def test_validate_names_the_registry_entry_and_the_missing_piece(toy, cli, source, piece):
    toy(source)
    code, out, _ = cli("validate")
    assert code == 1
    (line,) = [ln for ln in out.splitlines() if "analysis contract" in ln]
    assert line.startswith("analysis/registry.yaml:3:1: toy: module analysis/toy.py breaks the "
                           "analysis contract: ")
    assert piece in line


def test_run_refuses_what_run_returns_when_it_is_not_the_contract(toy, cli):
    toy(GOOD.replace('return {"metrics": {"n": config.n}}', "return [config.n]"))
    code, _, err = cli("run", "--profile", "quick")
    assert code == 1
    assert "analysis toy failed: ContractError: analysis.toy.run returned list; expected a dict " \
           "with a 'metrics' mapping" in " ".join(err.split())
    assert not (toy(GOOD.replace('return {"metrics": {"n": config.n}}', "return [config.n]"))
                / "results" / "toy" / "quick.json").exists()


def test_a_name_bound_by_import_or_assignment_counts():
    assert source_problems("from .common import PROFILES, run\n") == []
    assert source_problems("PROFILES = {}\nrun = lambda config, progress=None: {}\n") == []
    assert source_problems("PROFILES = {}\ndef run(config, **kwargs):\n    pass\n") == []


def test_check_module_and_check_output_name_the_piece():
    Mod = types.ModuleType("analysis.m")
    Mod.PROFILES = {"quick": object()}
    Mod.SWEEP = [1, 2]
    Mod.run = lambda config, progress=None: {}
    with pytest.raises(ContractError, match=r"analysis 'm' \(analysis.m\): SWEEP must map"):
        check_module(Mod, "m")
    Mod.SWEEP = None
    check_module(Mod, "m")
    Mod.PROFILES = {}
    with pytest.raises(ContractError, match="PROFILES must be a non-empty mapping"):
        check_module(Mod, "m")
    with pytest.raises(ContractError, match="'notes' that is not a list"):
        check_output({"metrics": {}, "notes": "one"}, "analysis.m")
    assert check_output({"metrics": {"x": 1}}, "analysis.m") == {"metrics": {"x": 1}}
