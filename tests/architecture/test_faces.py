"""Each package's public face (`litrec.util.faces`): its `__init__` lists what it offers the
other packages, module by module; those names resolve to the objects their modules define; the
type checker's imports list the same; importing a package imports none of its modules; and a
module of one package imports another package's names from that package's face, never from
the module behind it (a function named like its own module excepted: a package cannot offer
a name that is also its submodule)."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "litrec"
FACED = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py")
               if "lazy_face" in p.read_text(encoding="utf-8"))


def _typed(stub: Path) -> dict[str, tuple[str, ...]]:
    """What a package's `__init__.pyi` imports from its own modules, by module."""
    out: dict[str, list[str]] = {}
    for node in ast.parse(stub.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(f"litrec.{stub.parent.name}."):
            out.setdefault(node.module.rsplit(".", 1)[1], []).extend(a.name for a in node.names)
    return {k: tuple(v) for k, v in out.items()}


def test_the_packages_have_faces():
    assert {"analyses", "records", "results", "verdicts", "util"} <= set(FACED), FACED


@pytest.mark.parametrize("name", FACED)
def test_a_face_offers_what_its_modules_define_and_the_type_checker_reads_the_same(name):
    package = importlib.import_module(f"litrec.{name}")
    offers = package.OFFERS
    modules = {p.stem for p in (PACKAGE / name).glob("*.py")}
    checked = _typed(PACKAGE / name / "__init__.pyi")
    assert {m: set(n) for m, n in checked.items()} == {m: set(n) for m, n in offers.items()}
    for module, names in offers.items():
        for offered in names:
            assert offered not in modules, f"{offered} is also a module of litrec.{name}"
            assert getattr(package, offered) is getattr(importlib.import_module(f"litrec.{name}.{module}"),
                                                        offered)
    with pytest.raises(AttributeError):
        package.no_such_name  # noqa: B018


@pytest.mark.parametrize("name", FACED)
def test_importing_a_package_imports_none_of_its_modules(name):
    code = (f"import sys, litrec.{name}\n"
            f"print(sorted(m for m in sys.modules if m.startswith('litrec.{name}.') and m != 'litrec.util.faces'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def behind_the_face(package: Path = PACKAGE) -> list[str]:
    """Each import of another package's name from the module behind its face, located."""
    faced = {p.parent.name for p in package.glob("*/__init__.py") if "lazy_face" in p.read_text(encoding="utf-8")}
    out = []
    for path in sorted(package.rglob("*.py")):
        here = path.relative_to(package).parts[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.ImportFrom) and (node.module or "").startswith("litrec.")):
                continue
            parts = node.module.split(".")
            if len(parts) == 3 and parts[1] != here and parts[1] in faced:
                names = [a.name for a in node.names if a.name != parts[2]]
                if names:
                    out.append(f"{path.relative_to(package.parent).as_posix()}:{node.lineno}: "
                               f"{', '.join(names)} from {node.module}")
    return out


def test_other_packages_import_through_the_face():
    assert behind_the_face() == []
