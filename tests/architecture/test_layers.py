"""The layout holds: commands on top, no import cycles, modules of a readable size.

The import graph is read from the source (imports inside functions too), so a
lazy import cannot hide a dependency.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
COMMANDS = ("litrec.commands", "litrec.__main__")
# Modules are split or merged by concern; about 400 lines is the guideline (site/architecture.md)
# and 500 the line past which a module surely holds two concerns.
MAX_LINES = 500


def _modules() -> dict[str, Path]:
    mods = {}
    for f in (SRC / "litrec").rglob("*.py"):
        parts = list(f.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = f
    return mods


def _runtime_nodes(tree: ast.AST):
    """Every node but those under `if TYPE_CHECKING:` (imports for the type checker only)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not (isinstance(child, ast.If) and getattr(child.test, "id", None) == "TYPE_CHECKING"):
                todo.append(child)


def _imports(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the package modules it imports at run time (resolved to modules that exist)."""
    graph: dict[str, set[str]] = {}
    for mod, path in mods.items():
        is_pkg = path.name == "__init__.py"
        found: set[str] = set()
        for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
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


@functools.cache
def _graph() -> dict[str, set[str]]:
    """The import graph of the package, read once, when a test first asks (not at collection)."""
    return _imports(_modules())


def test_nothing_below_the_command_layer_imports_it():
    up = [f"{m} imports {d}" for m, deps in sorted(_graph().items()) if not m.startswith(COMMANDS)
          for d in sorted(deps) if d.startswith(COMMANDS)]
    assert up == []


def test_no_import_cycles():
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("folder", ["src/litrec", "analysis"])
def test_no_module_over_the_line_count_that_means_two_concerns(folder):
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


def _shared_basenames(package: Path) -> dict[str, list[str]]:
    """Module file names that occur more than once under `package` outside its `commands`
    folder (`__init__.py` excepted) -> where each occurs."""
    where: dict[str, list[str]] = {}
    for f in sorted(package.rglob("*.py")):
        rel = f.relative_to(package)
        if f.name != "__init__.py" and rel.parts[0] != "commands":
            where.setdefault(f.name, []).append(rel.as_posix())
    return {name: found for name, found in where.items() if len(found) > 1}


def test_no_two_modules_share_a_name_outside_the_commands():
    """A command's module is named for its command (`commands/status.py` beside
    `verdicts/status.py`); elsewhere a module's name alone says which it is."""
    assert _shared_basenames(SRC / "litrec") == {}


def test_the_shared_name_check_finds_one(tmp_path):
    for rel in ("commands/status.py", "verdicts/status.py", "cache/history.py", "site/history.py",
                "site/__init__.py", "cache/__init__.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    assert _shared_basenames(tmp_path) == {"history.py": ["cache/history.py", "site/history.py"]}


# What only the cache package itself may use: the primitive, its format and its folder's name.
CACHE_INTERNALS = {"Slot", "plain", "named", "refusal", "litrec_code_hash", "CACHE", "MAGIC",
                   "FORMAT"}


def _cache_code(path: Path) -> list[str]:
    """What in `path` is cache code: the cache folder named, marshal imported, or the cache's
    primitive taken (imported from `litrec.cache...` or reached as an attribute)."""
    text = path.read_text(encoding="utf-8")
    found = [f"names {q}.litrec-cache{q}" for q in "\"'" if f"{q}.litrec-cache{q}" in text]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found += [f"imports {a.name}" for a in node.names if a.name == "marshal"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("litrec.cache"):
            found += [f"imports {node.module}.{a.name}" for a in node.names
                      if a.name in CACHE_INTERNALS]
        elif isinstance(node, ast.ImportFrom) and node.module == "marshal":
            found.append("imports marshal")
        elif isinstance(node, ast.Attribute) and node.attr in CACHE_INTERNALS - {"FORMAT"}:
            found.append(f"uses .{node.attr}")
    return found


def test_no_cache_code_outside_the_cache_package():
    """The one cache: nothing outside litrec/cache/ seals or writes a cache entry of its own (the
    primitive is `litrec.cache.slots.Slot`), names the cache folder or builds a path in it; the uses
    (`vcache`, `runmemo`, `sourcefacts`, `jaxcache`) and `cache_dir` are what the rest calls."""
    outside = {str(f.relative_to(ROOT)): found for f in sorted((SRC / "litrec").rglob("*.py"))
               if f.relative_to(SRC / "litrec").parts[0] != "cache" and (found := _cache_code(f))}
    assert outside == {}


def test_the_cache_code_check_finds_cache_code(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import marshal\nfrom litrec.cache import CACHE, Slot, caching_off\n"
                     "import litrec.cache\nx = litrec.cache.plain\np = '.litrec-cache'\n")
    assert sorted(_cache_code(probe)) == sorted([
        "names '.litrec-cache'", "imports marshal", "imports litrec.cache.CACHE",
        "imports litrec.cache.Slot", "uses .plain"])
