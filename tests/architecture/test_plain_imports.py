"""Plain imports: a package's `__init__` is its docstring alone, and a name is imported from the
module that defines it (`from litrec.util.atomic import replace_file`), so a reader following an
import lands on the definition. Importing a package then imports none of its modules: a command
pays only for the modules it uses (`validate` loads no JAX)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "litrec"
PACKAGES = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py") if p.parent.name != "commands")


@pytest.mark.parametrize("name", PACKAGES)
def test_a_package_init_is_its_docstring_alone(name):
    body = ast.parse((PACKAGE / name / "__init__.py").read_text(encoding="utf-8")).body
    assert len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant), (
        f"litrec/{name}/__init__.py holds more than its docstring")
    assert not (PACKAGE / name / "__init__.pyi").exists()


def test_every_litrec_import_names_the_defining_module_or_a_module():
    """`from litrec.PKG import NAME` only where NAME is a module of PKG: never a name a package
    re-exports (there is none to re-export). The command layer's package is the program itself
    (`litrec.commands.main`), not a package of modules."""
    wrong = []
    for path in sorted([*PACKAGE.rglob("*.py"), *(ROOT / "tests").rglob("*.py"), *(ROOT / "analysis").rglob("*.py"),
                        *(ROOT / "bench").rglob("*.py"), *(ROOT / "tools").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").startswith("litrec."):
                target = PACKAGE.joinpath(*node.module.split(".")[1:])
                if target.name in PACKAGES and target.parent == PACKAGE:
                    wrong += [f"{path.relative_to(ROOT)}:{node.lineno}: {node.module}.{a.name}"
                              for a in node.names if not (target / f"{a.name}.py").is_file()
                              and not (target / a.name / "__init__.py").is_file()]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("name", PACKAGES)
def test_importing_a_package_imports_none_of_its_modules(name):
    code = (f"import sys, litrec.{name}\n"
            f"print(sorted(m for m in sys.modules if m.startswith('litrec.{name}.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
