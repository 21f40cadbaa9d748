"""The answers read from the analyses' sources are kept in .litrec-cache/sources/ of the project:
the same answers as a fresh read, a damaged cache costs a parse, never a wrong state, and the
cache is never written outside the project nor through a link."""

from __future__ import annotations


import pytest

from litrec.cache import sourcefacts
from litrec.cache import Slot
from litrec.runs.inputs import result_inputs as fingerprint
from litrec.records.load import load_project
from litrec.runs.registry import load_registry

FACTS = (".litrec-cache", "sources", "facts.bin")


@pytest.fixture(autouse=True)
def fresh_stores(monkeypatch):
    """Each test starts with nothing held in this process."""
    monkeypatch.setattr(sourcefacts, "_STORES", {})
    monkeypatch.delenv("LITREC_NO_CACHE", raising=False)


def _answers(root):
    reg = load_registry(root / "analysis", [])
    fps = {name: fingerprint(reg, name, "quick") for name in reg.entries}
    sourcefacts.flush()
    return reg.profiles, {n: (fp.code_hash, fp.versions) for n, fp in fps.items()}


def test_kept_answers_equal_fresh_ones_and_a_change_is_read_afresh(project, monkeypatch):
    fresh = _answers(project)
    facts = project.joinpath(*FACTS)
    assert facts.is_file() and Slot(project, "sources", "facts").read(sourcefacts._reader_hash())
    monkeypatch.setattr(sourcefacts, "_STORES", {})  # a later process: answers from the file
    monkeypatch.setattr("ast.parse", lambda *a, **k: pytest.fail("parsed a kept source"))
    assert _answers(project) == fresh
    monkeypatch.undo()
    monkeypatch.setattr(sourcefacts, "_STORES", {})
    module = project / "analysis" / "prop1_identity.py"
    module.write_text(module.read_text() + "\nimport numpy\n")
    profiles, fps = _answers(project)
    assert fps["prop1-identity"] != fresh[1]["prop1-identity"]


@pytest.mark.parametrize("damage", [b"{not a cache", b"[1, 2]", b"\x00\xff", b""])
def test_a_damaged_cache_is_read_as_empty(project, damage):
    fresh = _answers(project)
    project.joinpath(*FACTS).write_bytes(damage)
    sourcefacts._STORES.clear()
    assert _answers(project) == fresh
    assert Slot(project, "sources", "facts").read(sourcefacts._reader_hash())  # rewritten whole


def test_no_cache_folder_outside_the_project_nor_through_a_link(project, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (project / ".litrec-cache").symlink_to(outside, target_is_directory=True)
    fresh = _answers(project)
    assert list(outside.iterdir()) == []
    (project / ".litrec-cache").unlink()
    (project / ".litrec-cache").mkdir()
    (project / ".litrec-cache" / "sources").symlink_to(outside, target_is_directory=True)
    sourcefacts._STORES.clear()
    assert _answers(project) == fresh
    assert list(outside.iterdir()) == []


def test_litrec_no_cache_writes_nothing(project, monkeypatch):
    monkeypatch.setenv("LITREC_NO_CACHE", "1")
    proj = load_project(project / "records")
    assert proj.ok, proj.errors
    _answers(project)
    assert not (project / ".litrec-cache").exists()


def test_a_file_where_the_cache_would_be_is_left_alone(project):
    (project / ".litrec-cache").write_bytes(b"mine")
    assert _answers(project)[0]
    assert (project / ".litrec-cache").read_bytes() == b"mine"
