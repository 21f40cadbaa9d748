"""The layout holds: commands on top, no import cycles, modules of a readable size.

The import graph is read from the source (imports inside functions too), so a
lazy import cannot hide a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
COMMANDS = ("litrec.commands", "litrec.__main__")
MAX_LINES = 400


def _modules() -> dict[str, Path]:
    mods = {}
    for f in (SRC / "litrec").rglob("*.py"):
        parts = list(f.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = f
    return mods


def _imports(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the package modules it imports (resolved to modules that exist)."""
    graph: dict[str, set[str]] = {}
    for mod, path in mods.items():
        is_pkg = path.name == "__init__.py"
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = mod.split(".")
                    base = base if is_pkg else base[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    stem = ".".join(base + ([node.module] if node.module else []))
                else:
                    stem = node.module or ""
                names = [stem] + [f"{stem}.{a.name}" for a in node.names]
            for name in names:
                while name and name not in mods:
                    name = name.rpartition(".")[0]
                if name and name not in ("litrec", mod):
                    found.add(name)
        graph[mod] = found
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


GRAPH = _imports(_modules())


def test_nothing_below_the_command_layer_imports_it():
    up = [f"{m} imports {d}" for m, deps in sorted(GRAPH.items()) if not m.startswith(COMMANDS)
          for d in sorted(deps) if d.startswith(COMMANDS)]
    assert up == []


def test_no_import_cycles():
    assert _cycles(GRAPH) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("folder", ["src/litrec", "analysis"])
def test_no_module_over_400_lines(folder):
    long = {str(p.relative_to(ROOT)): n for p in sorted((ROOT / folder).rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def _public_without_docstring(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    missing = []
    if ast.get_docstring(tree) is None:
        missing.append("(module)")

    def walk(body, prefix=""):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if node.name.startswith("_"):
                    continue
                if ast.get_docstring(node) is None:
                    missing.append(prefix + node.name)
                if isinstance(node, ast.ClassDef):
                    walk(node.body, prefix + node.name + ".")

    walk(tree.body)
    return missing


def test_every_public_name_of_the_toolkit_has_a_docstring():
    missing = {str(p.relative_to(ROOT)): names for p in sorted((SRC / "litrec").rglob("*.py"))
               if (names := _public_without_docstring(p))}
    assert missing == {}


def test_the_package_shows_its_concepts():
    """At most 15 modules directly under src/litrec; the rest live in packages named for what
    they hold, and site/architecture.md names each package."""
    top = sorted(p.name for p in (SRC / "litrec").glob("*.py"))
    assert len(top) <= 15, top
    packages = sorted(p.parent.name for p in (SRC / "litrec").glob("*/__init__.py"))
    page = (ROOT / "site" / "architecture.md").read_text(encoding="utf-8")
    assert [p for p in packages if f"`litrec.{p}`" not in page] == []


def test_no_cache_code_outside_the_cache_package():
    """The one cache: nothing outside litrec/cache/ seals or writes a cache entry of its own
    (the primitive is `litrec.cache.Slot`) or names the cache folder."""
    outside = []
    for f in sorted((SRC / "litrec").rglob("*.py")):
        if "cache" in f.relative_to(SRC / "litrec").parts[:1]:
            continue
        text = f.read_text(encoding="utf-8")
        if '".litrec-cache"' in text or "'.litrec-cache'" in text or "import marshal" in text:
            outside.append(str(f.relative_to(ROOT)))
    assert outside == []
