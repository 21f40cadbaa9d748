"""The tests' own layout: one fixture tree, shared through tests/conftest.py; helpers shared
through tests/support, never imported from another test module; no test reaches into litrec's
private names."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import FIXTURES, REPO


def test_tests_fixtures_is_the_only_fixture_tree():
    trees = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "tests").rglob("*fixture*")
                   if p.is_dir() and "__pycache__" not in p.parts)
    assert trees == ["tests/fixtures"], (
        f"fixture folders besides tests/fixtures: {trees}; put fixtures in tests/fixtures "
        "and share them through tests/conftest.py")


def test_the_fixture_tree_holds_what_its_readme_lists():
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    top = sorted(p.name + ("/" if p.is_dir() else "") for p in FIXTURES.iterdir()
                 if p.name not in ("README.md", "__pycache__"))
    missing = [name for name in top if f"`{name}" not in readme]
    assert top and not missing, f"tests/fixtures/README.md does not describe: {missing}"


def test_slow_is_one_marker_written_at_the_test():
    """One way to say a test is slow: `@pytest.mark.slow` on the test (or `pytestmark` in its
    module); no list of names elsewhere that a rename would silently leave behind."""
    conftest = (REPO / "tests" / "conftest.py").read_text(encoding="utf-8")
    assert "add_marker(pytest.mark.slow" not in conftest and "SLOW_TESTS" not in conftest
    marked = [p for p in (REPO / "tests").rglob("test_*.py")
              if "@pytest.mark.slow" in p.read_text(encoding="utf-8")]
    assert len(marked) > 10



def test_cores_are_counted_in_one_place():
    """Every pool litrec starts is sized by `litrec.util.cores.usable_cores`: no other module
    asks the system how many CPUs there are."""
    asking = [p.relative_to(REPO).as_posix() for p in (REPO / "src" / "litrec").rglob("*.py")
              if p.name != "cores.py" and "sched_getaffinity" in p.read_text(encoding="utf-8")]
    counting = [p.relative_to(REPO).as_posix() for p in (REPO / "src" / "litrec").rglob("*.py")
                if p.name not in ("cores.py", "machine.py")  # machine.py records the CPU count
                and "os.cpu_count()" in p.read_text(encoding="utf-8")]
    assert asking == [] and counting == []


def test_structures_are_hashed_in_one_place():
    """Canonical JSON (sorted keys) is written by `litrec.util.canonical` only: a second
    serializer with other options would hash the same data two ways."""
    found = [p.relative_to(REPO).as_posix() for p in (REPO / "src" / "litrec").rglob("*.py")
             if p.name != "canonical.py"
             and any("sort_keys=True" in line and "indent=" not in line  # a file's layout is free
                     for line in p.read_text(encoding="utf-8").splitlines())]
    assert found == []


# --------------------------------------------- what a test may import: support, never another test

TESTS = REPO / "tests"
SRC = REPO / "src"

# Private names of litrec a test may reach, each because patching or resetting that seam is the
# only way to play what the test plays; anything else a test needs is public (or tested through
# what is).
PRIVATE_SEAMS = {
    # this process's answers about sources: cleared, a test plays a new process without starting one
    "litrec.cache.sourcefacts._HELD",
}


def _test_files(root: Path = TESTS) -> list[Path]:
    """Every Python file of the suite (the fixture project's own modules are data, not tests)."""
    return sorted(p for p in root.rglob("*.py")
                  if "__pycache__" not in p.parts and "fixtures" not in p.relative_to(root).parts)


def _module_of(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, root: Path) -> list[tuple[int, str]]:
    """(line, dotted name) of every module or name `path` imports, relative imports resolved."""
    here = _module_of(path, root).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1] + [node.module or ""]) if node.level \
                else node.module or ""
            base = base.rstrip(".")
            found += [(node.lineno, f"{base}.{a.name}") for a in node.names]
    return found


def test_imports_across_tests(root: Path = TESTS) -> list[str]:
    """Each import of a test module (`test_*.py`), or of another folder's conftest or helpers:
    what tests share lives in tests/support (or tests/conftest.py), never in a test module."""
    top = root.name
    problems = []
    for path in _test_files(root):
        folder = path.relative_to(root).parts[0] if len(path.relative_to(root).parts) > 1 else None
        for line, name in _imported(path, root):
            parts = name.split(".")
            if parts[0] != top:
                continue
            where = f"{path.relative_to(root.parent).as_posix()}:{line}: {name}"
            if any(p.startswith("test_") for p in parts[1:]):
                problems.append(f"{where} (a test module)")
            elif len(parts) > 2 and parts[1] not in ("support", "conftest", folder):
                problems.append(f"{where} (another folder's helpers: share them through tests/support)")
    return problems


test_imports_across_tests.__test__ = False  # a finder, called by the tests below


def test_no_test_imports_another_test_module_or_folder():
    assert test_imports_across_tests() == []


def test_an_import_across_tests_is_found(tmp_path):
    root = tmp_path / "tests"
    for rel, text in {"a/test_x.py": "from tests.a.test_y import helper\nfrom . import test_y\n",
                      "a/test_y.py": "from tests.b.conftest import thing\nfrom tests.a.conftest import ok\n",
                      "b/test_z.py": "from tests.support.toy import analysis\nfrom tests.conftest import REPO\n",
                      "support/toy.py": "from tests.b.helpers import nope\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    assert test_imports_across_tests(root) == [
        "tests/a/test_x.py:1: tests.a.test_y.helper (a test module)",
        "tests/a/test_x.py:2: tests.a.test_y (a test module)",
        "tests/a/test_y.py:1: tests.b.conftest.thing (another folder's helpers: share them through tests/support)",
        "tests/support/toy.py:1: tests.b.helpers.nope (another folder's helpers: share them through tests/support)"]


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_names(path: Path) -> list[tuple[int, str]]:
    """(line, dotted name) of each private name of litrec that `path` reaches: imported
    (`from litrec.x import _y`), read off an imported name (`mod._y`, `fn._cache`), named to
    `setattr`-like calls (`monkeypatch.setattr(mod, "_y", ...)`) or as a dotted string
    (`monkeypatch.setattr("litrec.x._y", ...)`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound: dict[str, str] = {}  # a name bound by an import from litrec -> what it names
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "litrec":
                    found += [(node.lineno, a.name)] if any(map(_private, a.name.split("."))) else []
                    bound[a.asname or "litrec"] = a.name if a.asname else "litrec"
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "litrec":
            for a in node.names:
                full = f"{node.module}.{a.name}"
                found += [(node.lineno, full)] if any(map(_private, full.split("."))) else []
                bound[a.asname or a.name] = full

    def dotted(expr) -> str | None:
        chain = []
        while isinstance(expr, ast.Attribute):
            chain.append(expr.attr)
            expr = expr.value
        if isinstance(expr, ast.Name) and expr.id in bound:
            return ".".join([bound[expr.id], *reversed(chain)])
        return None

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and (name := dotted(node)):
            found.append((node.lineno, name))
        elif isinstance(node, ast.Call) and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str) and _private(node.args[1].value) \
                and (owner := dotted(node.args[0])):
            found.append((node.lineno, f"{owner}.{node.args[1].value}"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and re.fullmatch(r"litrec(\.\w+)+", node.value) and any(map(_private, node.value.split("."))):
            found.append((node.lineno, node.value))
    return sorted(set(found))


def test_no_test_reaches_a_private_name_of_litrec():
    """A test calls what litrec makes public (a unit worth testing is made public); the one
    exception is a private seam only patching can reach, listed with its reason above."""
    found = [f"{p.relative_to(REPO).as_posix()}:{line}: {name}"
             for p in _test_files() if p != Path(__file__)  # this file names private names as data
             for line, name in private_names(p) if name not in PRIVATE_SEAMS]
    assert found == [], found


def test_every_allowed_private_seam_is_still_used_and_still_private():
    used = {name for p in _test_files() for _, name in private_names(p)}
    assert PRIVATE_SEAMS <= used, f"allowed but no longer used: {sorted(PRIVATE_SEAMS - used)}"


def test_a_private_name_is_found_however_it_is_reached(tmp_path):
    path = tmp_path / "test_x.py"
    path.write_text("from litrec.verdicts.judge import _decide, evaluate\n"
                    "import litrec.cache.runmemo\n"
                    "from litrec.cache import sourcefacts as sf\n"
                    "def test(monkeypatch):\n"
                    "    litrec.cache.runmemo._tree(1)\n"
                    "    sf._HELD.clear()\n"
                    "    monkeypatch.setattr(sf, '_READER', [])\n"
                    "    monkeypatch.setattr('litrec.runs.executors._start_server', None)\n"
                    "    evaluate.__name__, self._mine, sf.fact\n")
    assert private_names(path) == [(1, "litrec.verdicts.judge._decide"), (5, "litrec.cache.runmemo._tree"),
                                   (6, "litrec.cache.sourcefacts._HELD"), (7, "litrec.cache.sourcefacts._READER"),
                                   (8, "litrec.runs.executors._start_server")]
