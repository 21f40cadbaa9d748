"""Every registered analysis follows site/writing-analyses.md: registry, frozen Config, profiles, lazy import."""
import dataclasses
import importlib
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = yaml.safe_load((ROOT / "analysis" / "registry.yaml").read_text())
OURS = ["prop1-identity", "single-layer-lsa", "gd-input-range", "conditioning-vs-parameters"]


@pytest.mark.parametrize("name", OURS)
def test_module_contract(name):
    module = importlib.import_module(f"analysis.{REGISTRY[name]['module']}")
    assert (module.__doc__ or "").strip(), "a docstring naming the paper's section"
    assert dataclasses.is_dataclass(module.Config) and module.Config.__dataclass_params__.frozen
    assert {"quick", "paper"} <= set(module.PROFILES)
    assert all(isinstance(c, module.Config) for c in module.PROFILES.values())
    assert callable(module.run)


def test_package_and_modules_import_without_jax_work():
    code = ("import sys, analysis; assert 'jax' not in sys.modules, 'analysis/__init__ imports jax'\n"
            + "".join(f"import analysis.{REGISTRY[n]['module']}\n" for n in OURS)
            + "import jax; assert not jax.live_arrays(), 'arrays created at import time'\n")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
