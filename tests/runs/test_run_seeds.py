"""`run_seeds`: an analysis that takes all its seeds in one call stores the same result as one run per seed."""

from __future__ import annotations

import json
import sys
import textwrap
import types

import pytest

from litrec.analyses.contract import check_module, check_seed_outputs, source_problems
from litrec.util.errors import ContractError
from tests.conftest import without_times
from tests.support.toy import SEED_FIGURES, analysis


@pytest.fixture(autouse=True)
def _hook_alone(monkeypatch):
    """The toy logs its calls beside its module, which a sandbox mounts read-only: the audit hook alone watches (LITREC_SANDBOX=off); the sandbox's own tests are
    tests/runs/test_sandbox.py."""
    monkeypatch.setenv("LITREC_SANDBOX", "off")

# One seed's output depends on the seed and on the swept field n (NumPy only).
PLAIN = analysis(doc="A toy trained model, one seed per call.", head='''
    import numpy as np
    from matplotlib.figure import Figure

    SEEDS = {"quick": (3, 1, 2)}
    SWEEP = {"quick": {"n": [1, 2]}}


    def one(config):
        """The output of one seed."""
        rng = np.random.default_rng(config.seed)
        loss = 0.1 * config.n + 0.01 * rng.standard_normal()
        fig = Figure()
        fig.add_subplot().plot([loss, loss / 2])
        return {"metrics": {"loss": loss, "curve": [loss, loss / 2], "deep": {"gap": loss - 0.05}},
                "noise": {"loss": 0.001 * config.n}, "notes": [f"n = {config.n}"],
                "figures": {"curve": fig}}
    ''', fields='"""The seed and a swept size."""\n\nseed: int = 0\nn: int = 1', body='"""One seed."""\nreturn one(config)') + SEED_FIGURES

# The same analysis with every seed in one call; `run` refuses, so only run_seeds can have run.
BATCHED = PLAIN + '''

def run(config, progress=None):  # noqa: F811
    """Not used when run_seeds is there."""
    raise RuntimeError("run called")


def run_seeds(config, seeds, progress=None):
    """All seeds at once; calls are logged next to the module."""
    import dataclasses
    import pathlib

    with open(pathlib.Path(__file__).with_name("calls.log"), "a") as fh:
        fh.write(f"{list(seeds)} n={config.n}\\n")
    return [one(dataclasses.replace(config, seed=s)) for s in seeds]
'''

LIT = '''
id: ARXIV-0000.00004
kind: literature
title: A paper
claims:
  - id: F1
    kind: finding
    title: The loss is small
    statement: The loss is below one.
    check:
      analysis: {name}
      expect:
        - {{metric: loss, op: "<", value: 1.0, source: {{kind: paper, where: §1, quote: a test claim, threshold: paper}}}}
'''


@pytest.fixture
def toys(tmp_path, monkeypatch):
    """A project with two analyses: `plain` (run per seed) and `batched` (run_seeds)."""
    (tmp_path / "analysis").mkdir()
    (tmp_path / "analysis" / "__init__.py").write_text("")
    (tmp_path / "analysis" / "plain.py").write_text(PLAIN)
    (tmp_path / "analysis" / "batched.py").write_text(BATCHED)
    (tmp_path / "analysis" / "registry.yaml").write_text(
        "plain:\n  module: plain\n  title: Plain\n\nbatched:\n  module: batched\n  title: Batched\n")
    for i, name in enumerate(("plain", "batched")):
        rec = tmp_path / "records" / "literature" / f"ARXIV-0000.0000{4 + i}.yaml"
        rec.parent.mkdir(parents=True, exist_ok=True)
        rec.write_text(textwrap.dedent(LIT).replace("0000.00004", f"0000.0000{4 + i}")
                       .format(name=name))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for mod in [m for m in sys.modules if m == "analysis" or m.startswith("analysis.")]:
        monkeypatch.delitem(sys.modules, mod)
    return tmp_path


def _comparable(result: dict) -> dict:
    """A stored result without what names the analysis, its timing or its hash."""
    drop = {"analysis", "title", "module", "code_hash", "code_files", "started", "wall_time_s",
            "content_hash", "expectations"}
    return {k: v for k, v in without_times(result).items() if k not in drop}


def test_run_seeds_is_called_once_per_point_and_stores_what_one_run_per_seed_stores(toys, cli):
    assert cli("validate")[0] == 0
    code, _, err = cli("run", "--profile", "quick", "--jobs", "1")
    assert code == 0, err
    # one call per value of the swept field, with every seed, in SEEDS' order
    assert (toys / "analysis" / "calls.log").read_text().splitlines() == ["[3, 1, 2] n=1", "[3, 1, 2] n=2"]
    plain = json.loads((toys / "results" / "plain" / "quick.json").read_text())
    batched = json.loads((toys / "results" / "batched" / "quick.json").read_text())
    assert [p["overrides"] for p in batched["points"]] == [
        {"seed": 3, "n": 1}, {"seed": 3, "n": 2}, {"seed": 1, "n": 1}, {"seed": 1, "n": 2},
        {"seed": 2, "n": 1}, {"seed": 2, "n": 2}]
    assert batched["seeds"] == [3, 1, 2] and set(batched["spread"]) >= {"loss", "curve", "deep.gap"}
    assert _comparable(batched) == _comparable(plain)
    assert sorted(batched["figures"]) == ["curve", "curves"]
    for name in ("curve", "curves"):  # the first seed's figure, and every seed's curves
        assert (toys / "results" / "batched" / "quick" / f"{name}.svg").read_bytes() == \
            (toys / "results" / "plain" / "quick" / f"{name}.svg").read_bytes()


@pytest.mark.parametrize("jobs, calls", [
    ("2", ["[3] n=1", "[3] n=2", "[1, 2] n=1", "[1, 2] n=2"]),
    pytest.param("3", ["[3] n=1", "[3] n=2", "[1] n=1", "[1] n=2", "[2] n=1", "[2] n=2"], marks=pytest.mark.slow),
    pytest.param("5", ["[3] n=1", "[3] n=2", "[1] n=1", "[1] n=2", "[2] n=1", "[2] n=2"], marks=pytest.mark.slow),
])
def test_on_workers_the_seeds_are_split_among_them_and_the_result_is_the_same(toys, cli, jobs, calls):
    code, _, err = cli("run", "batched", "--profile", "quick", "--jobs", "1", "--results", "one")
    assert code == 0, err
    (toys / "analysis" / "calls.log").unlink()
    code, _, err = cli("run", "batched", "--profile", "quick", "--jobs", jobs, "--results", "many")
    assert code == 0, err
    # a group of seeds per worker (contiguous, in SEEDS' order), one call per group and n
    assert sorted((toys / "analysis" / "calls.log").read_text().splitlines()) == sorted(calls)
    one = json.loads((toys / "one" / "batched" / "quick.json").read_text())
    many = json.loads((toys / "many" / "batched" / "quick.json").read_text())
    assert _comparable(many) == _comparable(one)
    for name in ("curve", "curves"):
        assert (toys / "many" / "batched" / "quick" / f"{name}.svg").read_bytes() == \
            (toys / "one" / "batched" / "quick" / f"{name}.svg").read_bytes()


def test_run_seeds_returning_too_few_outputs_fails_and_writes_nothing(toys, cli):
    (toys / "analysis" / "batched.py").write_text(
        BATCHED.replace("for s in seeds]", "for s in seeds][:-1]"))
    code, _, err = cli("run", "--profile", "quick", "--jobs", "1", "batched")
    assert code == 1
    assert ("ContractError: analysis.batched.run_seeds returned 2 outputs for the 3 seeds [3, 1, 2]"
            in " ".join(err.split()))
    assert not (toys / "results" / "batched" / "quick.json").exists()


@pytest.mark.parametrize("source, piece", [
    ("def run_seeds(config, seeds, progress=None):\n    pass\n", None),
    ("def run_seeds(config, seeds, **kwargs):\n    pass\n", None),
    ("def run_seeds(config, progress=None):\n    pass\n", "must take the config and the seeds"),
    ("def run_seeds(config, seeds):\n    pass\n", "run_seeds() takes no 'progress' argument"),
])
def test_validate_checks_the_signature_of_run_seeds(source, piece):
    base = "PROFILES = {}\nSEEDS = {}\ndef run(config, progress=None):\n    pass\n"
    problems = source_problems(base + source)
    assert problems == [] if piece is None else any(piece in p for p in problems)


def test_validate_wants_seeds_beside_run_seeds(toys, cli):
    (toys / "analysis" / "batched.py").write_text(BATCHED.replace('SEEDS = {"quick": (3, 1, 2)}', ""))
    code, out, _ = cli("validate")
    assert code == 1
    (line,) = [ln for ln in out.splitlines() if "analysis contract" in ln]
    assert line.startswith("analysis/registry.yaml:5:1: batched: module analysis/batched.py")
    assert "defines run_seeds() but no SEEDS" in line


def test_check_module_and_check_seed_outputs_name_the_piece():
    mod = types.ModuleType("analysis.m")
    mod.PROFILES = {"quick": object()}
    mod.run = lambda config, progress=None: {}
    mod.run_seeds = 3
    with pytest.raises(ContractError, match=r"analysis 'm' \(analysis.m\): run_seeds must be a function"):
        check_module(mod, "m")
    with pytest.raises(ContractError, match="run_seeds returned dict for the 2 seeds"):
        check_seed_outputs({"metrics": {}}, [0, 1], "analysis.m")
    with pytest.raises(ContractError, match=r"analysis.m.run_seeds \(seed 1\) returned 'notes'"):
        check_seed_outputs([{"metrics": {}}, {"metrics": {}, "notes": "x"}], [0, 1], "analysis.m")
    assert check_seed_outputs([{"metrics": {"x": 1}}], [5], "analysis.m") == [{"metrics": {"x": 1}}]
