"""The tests' own layout: one fixture tree, shared through tests/conftest.py."""

from __future__ import annotations

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


def test_each_test_named_slow_in_conftest_exists():
    """A renamed test would silently leave the everyday suite slow again."""
    import ast

    from tests.conftest import SLOW_TESTS

    for nodeid in SLOW_TESTS:
        rel, name = nodeid.split("::")
        path = REPO / rel
        assert path.is_file(), nodeid
        names = {n.name for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(n, ast.FunctionDef)}
        assert name in names, f"{nodeid}: no such test; update SLOW_TESTS in tests/conftest.py"
