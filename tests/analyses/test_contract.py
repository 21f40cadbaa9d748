"""Every registered analysis follows site/writing-analyses.md: registry, frozen Config, profiles, lazy import."""
import ast
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


def _imported_analysis_modules(path: Path) -> set[str]:
    """The `analysis.*` modules a source imports (`from analysis import x` names a module)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "analysis":
            found |= ({f"{node.module}.{a.name}" for a in node.names} if node.module in ("analysis", "analysis.lib")
                      else {node.module})
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "analysis"}
    return found


def test_entry_modules_are_the_registry_and_import_only_the_library():
    entries = {f"analysis.{REGISTRY[n]['module']}" for n in ANALYSES}
    top = {f"analysis.{p.stem}" for p in (ROOT / "analysis").glob("*.py") if p.stem != "__init__"}
    assert top == entries, "analysis/ holds the entry modules of the registry; the rest goes in analysis/lib/"
    for path in sorted((ROOT / "analysis").rglob("*.py")):
        crossing = {m for m in _imported_analysis_modules(path) if m in entries}
        assert not crossing, f"{path.relative_to(ROOT)} imports the entry module(s) {sorted(crossing)}: " \
                             "move what they share into analysis/lib/"


def test_no_config_redeclares_a_shared_setting_unchanged():
    """A field of analysis.lib.config declared again in an analysis's Config must change its default."""
    for name in ANALYSES:
        config = importlib.import_module(f"analysis.{REGISTRY[name]['module']}").Config
        for base in config.__mro__[1:]:
            if not dataclasses.is_dataclass(base):
                continue
            shared = {f.name: f.default for f in dataclasses.fields(base)}
            own = config.__dict__.get("__annotations__", {})
            for field in own:
                if field in shared:
                    assert config.__dataclass_fields__[field].default != shared[field], \
                        f"{name}: Config declares {field} again with {base.__name__}'s default"


def test_package_and_modules_import_without_jax_work():
    code = ("import sys, analysis; assert 'jax' not in sys.modules, 'analysis/__init__ imports jax'\n"
            + "".join(f"import analysis.{REGISTRY[n]['module']}\n" for n in ANALYSES)
            + "import jax; assert not jax.live_arrays(), 'arrays created at import time'\n")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_analysis_modules_are_small_and_draw_without_pyplot():
    for path in sorted((ROOT / "analysis").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= 400, f"{path.name} is over 400 lines: split it"
        assert "matplotlib.use" not in text and "pyplot" not in text, \
            f"{path.name}: draw on matplotlib.figure.Figure, no pyplot state"


def test_keys_are_only_split_by_the_helper():
    for path in sorted((ROOT / "analysis").rglob("*.py")):
        if path.name != "keys.py":
            assert "random.split" not in path.read_text(encoding="utf-8"), \
                f"{path.name}: split keys with analysis.lib.keys.named_keys"
