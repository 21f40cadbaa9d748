"""litrec's packages form layers, stated in one line and held here:

    util < cache < analyses < records < bibtex < results < verdicts < runs < site < export < commands

A package imports only packages to its left (and itself); `litrec/__init__.py` (the version)
sits below them all and `litrec/__main__.py` above. Every import counts, those inside functions
and under `if TYPE_CHECKING:` too: a lazy import is still a dependency. site/architecture.md
draws the same order.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "litrec"
LAYERS = ("util", "cache", "analyses", "records", "bibtex", "results", "verdicts", "runs", "site",
          "export", "commands")
BOTTOM, TOP = "__init__", "__main__"


def layer_of(path: Path, package: Path = PACKAGE) -> str:
    """The layer a module of `package` belongs to: its top-level package, or `__init__` /
    `__main__` for those two files; anything else directly under the package is its own name
    (and an unknown layer)."""
    rel = path.relative_to(package).parts
    return rel[0] if len(rel) > 1 else Path(rel[0]).stem


def imported_layers(path: Path, package: Path = PACKAGE) -> dict[str, int]:
    """Layer -> the first line of `path` that imports from it (litrec's own packages only)."""
    found: dict[str, int] = {}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = layer_of(path, package)
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = ([f"{node.module}.{a.name}" for a in node.names] if node.module == "litrec"
                     else [node.module])
        elif isinstance(node, ast.ImportFrom) and node.level:
            names = [f"litrec.{here}"]  # relative: within its own package
        for name in names:
            parts = name.split(".")
            if parts[0] != "litrec":
                continue
            layer = parts[1] if len(parts) > 1 else BOTTOM
            if layer == "__version__":
                layer = BOTTOM
            found.setdefault(layer, node.lineno)
    return found


def upward_imports(package: Path = PACKAGE, layers: tuple[str, ...] = LAYERS) -> list[str]:
    """Each import of a module from its own layer or above, as `file:line: a imports b`; and
    each module in no known layer."""
    rank = {BOTTOM: -1, **{name: i for i, name in enumerate(layers)}, TOP: len(layers)}
    out = []
    for path in sorted(package.rglob("*.py")):
        here = layer_of(path, package)
        rel = path.relative_to(package.parent).as_posix()
        if here not in rank:
            out.append(f"{rel}: in no layer; put it in one of {', '.join(layers)}")
            continue
        for layer, line in sorted(imported_layers(path, package).items()):
            if layer != here and rank.get(layer, len(layers) + 1) > rank[here]:
                out.append(f"{rel}:{line}: {here} imports {layer}, a layer above it")
    return out


def test_every_import_points_down_the_layers():
    assert upward_imports() == []


def test_an_upward_import_is_found_and_located(tmp_path):
    pkg = tmp_path / "litrec"
    for rel, text in {"__init__.py": "__version__ = '0'\n", "util/__init__.py": "",
                      "util/a.py": "def f():\n    from litrec.records import x\n",
                      "records/__init__.py": "", "records/b.py": "from litrec.util import a\n",
                      "stray.py": "import os\n"}.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text, encoding="utf-8")
    assert upward_imports(pkg, ("util", "records")) == [
        "litrec/stray.py: in no layer; put it in one of util, records",
        "litrec/util/a.py:2: util imports records, a layer above it"]


def test_the_architecture_page_states_the_same_order():
    page = (ROOT / "site" / "architecture.md").read_text(encoding="utf-8")
    assert " < ".join(LAYERS) in page


def private_imports(package: Path = PACKAGE) -> list[str]:
    """Each `from litrec.x import _name` in the package: a private name used outside its module."""
    out = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("litrec"):
                out += [f"{path.relative_to(package.parent).as_posix()}:{node.lineno}: {node.module}.{a.name}"
                        for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
    return out


def test_no_module_imports_another_modules_private_name():
    assert private_imports() == []


def test_a_private_import_is_found(tmp_path):
    pkg = tmp_path / "litrec"
    (pkg / "util").mkdir(parents=True)
    (pkg / "util" / "a.py").write_text("def f():\n    from litrec.util.b import _hidden, shown\n", encoding="utf-8")
    assert private_imports(pkg) == ["litrec/util/a.py:2: litrec.util.b._hidden"]
