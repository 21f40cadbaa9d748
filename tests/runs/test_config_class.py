"""A profile that names the Config class instead of a Config (`PROFILES = {"quick": Config}`).

`dataclasses.is_dataclass` is true of the class too, so the run went on to
`dataclasses.asdict(Config)` and failed as "TypeError: asdict() should be called on
dataclass instances", naming neither the profile nor the fix (found by mypy). The
profile is now refused where it is read, saying both, and a run here and one laid out
in a worker say the same.
"""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest

from litrec.runs.sweep import config_json, make_config
from litrec.util.errors import SweepError
from tests.support.sweep_toy import TOY

SAID = ("analysis 'toy-sweep': analysis.toy_sweep: PROFILES['quick'] is the class Config, not a "
        "configuration; write Config() (with the profile's values)")


def test_make_config_refuses_the_class_and_names_the_fix():
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Config:
        n: int = 3

    mod = SimpleNamespace(__name__="analysis.toy", PROFILES={"quick": Config, "paper": Config(n=4)})
    with pytest.raises(SweepError, match=r"^analysis\.toy: PROFILES\['quick'\] is the class Config, "
                                         r"not a configuration; write Config\(\)"):
        make_config(mod, "quick", {})
    assert make_config(mod, "paper", {}) == Config(n=4)
    assert config_json(Config(n=4)) == {"n": 4}
    assert config_json(SimpleNamespace(n=5, name="x")) == {"n": 5, "name": "x"}  # not a dataclass


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_run_names_the_profile_that_holds_the_class(sweep_project, cli, jobs):
    source = (TOY % {"quick": ""}).replace('"quick": Config()', '"quick": Config')
    assert '"quick": Config,' in source
    (sweep_project / "analysis" / "toy_sweep.py").write_text(source)
    for mod in [m for m in sys.modules if m == "analysis" or m.startswith("analysis.")]:
        del sys.modules[mod]
    code, _, err = cli("run", "--profile", "quick", "--jobs", jobs)
    assert code == 1
    assert SAID in " ".join(err.split()), err
    assert "asdict()" not in err
    assert not (sweep_project / "results" / "toy-sweep" / "quick.json").exists()
