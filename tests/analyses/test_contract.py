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
ANALYSES = sorted(n for n in REGISTRY if n != "scales")  # `scales:` is the registry's own key


@pytest.mark.parametrize("name", ANALYSES)
def test_module_contract(name):
    module = importlib.import_module(f"analysis.{REGISTRY[name]['module']}")
    assert (module.__doc__ or "").strip(), "a docstring naming the paper's section"
    assert dataclasses.is_dataclass(module.Config) and module.Config.__dataclass_params__.frozen
    assert {"quick", "paper"} <= set(module.PROFILES)
    assert all(isinstance(c, module.Config) for c in module.PROFILES.values())
    assert callable(module.run)


def test_package_and_modules_import_without_jax_work():
    code = ("import sys, analysis; assert 'jax' not in sys.modules, 'analysis/__init__ imports jax'\n"
            + "".join(f"import analysis.{REGISTRY[n]['module']}\n" for n in ANALYSES)
            + "import jax; assert not jax.live_arrays(), 'arrays created at import time'\n")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_analysis_modules_are_small_and_draw_without_pyplot():
    for path in sorted((ROOT / "analysis").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= 400, f"{path.name} is over 400 lines: split it"
        assert "matplotlib.use" not in text and "pyplot" not in text, \
            f"{path.name}: draw on matplotlib.figure.Figure, no pyplot state"


def test_keys_are_only_split_by_the_helper():
    for path in sorted((ROOT / "analysis").glob("*.py")):
        if path.name != "keys.py":
            assert "random.split" not in path.read_text(encoding="utf-8"), \
                f"{path.name}: split keys with analysis.keys.named_keys"
