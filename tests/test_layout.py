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
