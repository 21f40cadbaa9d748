"""The validation cache (.litrec-cache/validate/): every change that invalidates an entry.

Each test compares a cached run with `--no-cache`: the problems must be the same
lines in the same order. `checked` records which files were parsed and checked
again (the fixture project is small, so the work runs in this process). The
cache's refusal rules (caching off, links, damage, other versions) are tested
once for every use, in tests/cache/test_cache.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import litrec.cache.slots
from litrec.cache import vcache
from litrec.records import filecheck

NOTE = Path("records/notes/NOTE-621.yaml")
PAPER = Path("records/literature/ARXIV-2212.07677.yaml")
CACHE = Path(".litrec-cache/validate/records.bin")


@pytest.fixture
def checked(monkeypatch):
    """The record files checked again (not taken from the cache) since the last call."""
    seen: list[str] = []
    real = filecheck.check_file

    def spy(path, root, want_model=False):
        seen.append(Path(path).as_posix().split("records/", 1)[1])
        return real(path, root, want_model)

    monkeypatch.setattr(filecheck, "check_file", spy)

    def take() -> list[str]:
        out = sorted(seen)
        seen.clear()
        return out

    return take


def same(cli, checked, *args) -> tuple[int, str, list[str]]:
    """Run validate cached, then uncached; assert both print the same problems.

    Returns the cached run's exit code, output, and the files it checked again.
    """
    checked()
    cached = cli("validate", *args)
    again = checked()
    uncached = cli("validate", "--no-cache", *args)
    checked()
    assert cached[:2] == uncached[:2], (cached, uncached)
    return cached[0], cached[1], again


def test_a_warm_run_checks_no_file_and_prints_the_same(project, cli, checked):
    assert same(cli, checked)[0] == 0
    assert (project / CACHE).is_file()
    assert same(cli, checked)[::2] == (0, [])


def test_an_edit_of_the_same_size_with_the_time_put_back_is_caught_by_the_hash(project, cli, checked):
    assert same(cli, checked)[0] == 0
    path = project / NOTE
    st = path.stat()
    text = path.read_text(encoding="utf-8")
    edited = text.replace("target: THEORY-169", "target: THEORY-196")
    assert len(edited) == len(text) and edited != text
    path.write_text(edited, encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
    code, out, again = same(cli, checked)
    assert code == 1 and "no record 'THEORY-196'" in out
    assert again == ["notes/NOTE-621.yaml"]


def test_a_touched_file_is_read_but_stays_valid(project, cli, checked):
    assert same(cli, checked)[0] == 0
    path = project / NOTE
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 5_000_000_000))
    assert same(cli, checked)[::2] == (0, ["notes/NOTE-621.yaml"])  # read again: its time changed
    assert same(cli, checked)[::2] == (0, [])  # the new time is kept


def test_an_added_file_is_checked_and_links_to_it_resolve(project, cli, checked):
    path = project / NOTE
    path.write_text(path.read_text(encoding="utf-8").replace(
        "target: THEORY-169", "target: THEORY-170"), encoding="utf-8")
    code, out, _ = same(cli, checked)
    assert code == 1 and "no record 'THEORY-170'" in out
    new = project / "records/theories/THEORY-170.yaml"
    new.write_text("id: THEORY-170\nkind: theory\ntitle: Another\n", encoding="utf-8")
    assert same(cli, checked)[::2] == (0, ["theories/THEORY-170.yaml"])


def test_a_removed_file_leaves_dangling_links_in_the_files_that_name_it(project, cli, checked):
    assert same(cli, checked)[0] == 0
    (project / "records/theories/THEORY-169.yaml").unlink()
    code, out, again = same(cli, checked)
    assert code == 1 and "NOTE-621.yaml" in out and "no record 'THEORY-169'" in out
    assert again == []  # no file changed: only the checks between records ran again


def test_a_link_target_removed_in_another_file_is_reported(project, cli, checked):
    assert same(cli, checked)[0] == 0
    path = project / PAPER
    path.write_text(path.read_text(encoding="utf-8").replace("  - id: P1\n", "  - id: P9\n"),
                    encoding="utf-8")
    code, out, again = same(cli, checked)
    assert code == 1
    assert any(ln.startswith(os.path.join("records", "notes", "NOTE-621.yaml"))
               for ln in out.splitlines() if "has no claim 'P1'" in ln), out
    assert again == ["literature/ARXIV-2212.07677.yaml"]


def test_a_renamed_file_is_checked_under_its_new_name(project, cli, checked):
    assert same(cli, checked)[0] == 0
    old = project / "records/decisions/ADR-013.yaml"
    old.rename(project / "records/decisions/ADR-014.yaml")
    code, out, again = same(cli, checked)
    assert code == 1 and "does not match the file name 'ADR-014.yaml'" in out
    assert again == ["decisions/ADR-014.yaml"]
    entries = vcache.Cache(project, project / "records").files
    assert "decisions/ADR-014.yaml" in entries and "decisions/ADR-013.yaml" not in entries


def test_a_changed_schema_hash_checks_every_file_again(project, cli, checked, monkeypatch):
    assert same(cli, checked)[0] == 0
    monkeypatch.setattr(vcache, "schema_hash", lambda: "another schema")
    assert len(same(cli, checked)[2]) == 8
    assert len(same(cli, checked)[2]) == 0


def test_a_changed_registry_is_read_again_without_checking_the_files(project, cli, checked):
    assert same(cli, checked)[0] == 0
    reg = project / "analysis/registry.yaml"
    reg.write_text(reg.read_text(encoding="utf-8").replace("prop1-identity:", "prop1-identity-x:"),
                   encoding="utf-8")
    code, out, again = same(cli, checked)
    assert code == 1 and "no registered analysis 'prop1-identity'" in out
    assert again == []


def test_a_registry_edit_undone_while_it_is_read_keeps_nothing(project, cli, monkeypatch):
    """A -> B -> A on registry.yaml while the registry is checked, size and time put back: the
    check read B, so its problems are not kept as A's (the key sees the change time)."""
    import litrec.analyses.registry

    reg = project / "analysis/registry.yaml"
    real, st = litrec.analyses.registry.load_registry, reg.stat()
    a = reg.read_text(encoding="utf-8")
    b = a.replace("prop1-identity:", "prop1-identitx:")  # the same size

    def read_b_then_undo(*args, **kwargs):
        for text in (b, None):
            if text is None:
                reg.write_text(a, encoding="utf-8")
            else:
                reg.write_text(text, encoding="utf-8")
                found = real(*args, **kwargs)
            os.utime(reg, ns=(st.st_atime_ns, st.st_mtime_ns))
        return found

    with monkeypatch.context() as m:
        m.setattr(litrec.analyses.registry, "load_registry", read_b_then_undo)
        during = cli("validate")
    assert during[0] == 1 and "no registered analysis 'prop1-identity'" in during[1]  # read B
    fresh = cli("validate", "--no-cache")
    assert fresh[0] == 0 and cli("validate")[:2] == fresh[:2]


def test_the_schema_hash_covers_every_module_a_file_check_loads():
    # a file checked (the parsing and the schemas are imported where a file is checked)
    code = ("import sys; from pathlib import Path; from litrec.records.filecheck import check_bytes; "
            "check_bytes(Path('NOTE-1.yaml'), b'id: NOTE-1\\nkind: note\\ntitle: A note\\n'); "
            "print(' '.join(sorted(m[7:].replace('.', '/') "
            "for m, mod in sys.modules.items() if m.startswith('litrec.') "
            "and not hasattr(mod, '__path__'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.split()
    assert "records/model" in loaded
    assert set(loaded) - set(litrec.cache.slots.litrec_closure(vcache.SCHEMA_ENTRIES)) == set()


def test_an_edited_model_changes_the_schema_hash(monkeypatch, tmp_path):
    before = vcache.schema_hash()
    fake = tmp_path / "litrec"
    fake.mkdir()
    package = Path(litrec.cache.slots.__file__).resolve().parent.parent
    for name in litrec.cache.slots.litrec_closure(vcache.SCHEMA_ENTRIES):
        (fake / name).parent.mkdir(parents=True, exist_ok=True)
        edit = b"# edited\n" if name == "records/model" else b""
        (fake / f"{name}.py").write_bytes((package / f"{name}.py").read_bytes() + edit)
    monkeypatch.setattr(litrec.cache.slots, "__file__", str(fake / "cache" / "slots.py"))
    assert vcache.schema_hash() != before


# ------------------------------------------------------------------ many problems


def _errors_project(project: Path) -> None:
    """Several kinds of problem at once: YAML, schema, id, duplicate, dangling, registry."""
    recs = project / "records"
    (recs / "notes/NOTE-1.yaml").write_text("id: NOTE-1\nkind: note\ntitle: [unclosed\n")
    (recs / "notes/NOTE-2.yaml").write_text("id: NOTE-2\nkind: note\ntitel: typo\n")
    (recs / "notes/NOTE-3.yaml").write_text("id: NOTE-4\nkind: note\n")
    (recs / "notes/NOTE-5.yaml").write_text(
        "id: NOTE-5\nkind: note\nlinks:\n  - rel: uses\n    target: ARXIV-2212.07677#P7\n"
        "  - rel: uses\n    target: THEORY-1690\n")
    (recs / "theories/THEORY-169.yml").write_text("id: THEORY-169\nkind: theory\n")
    (recs / "notes/stray.txt").write_text("not a record")


def test_problems_are_the_same_cached_and_uncached(project, cli):
    _errors_project(project)
    cold = cli("validate")
    assert cold[0] == 1 and len(cold[1].splitlines()) >= 7
    assert cli("validate")[:2] == cold[:2] == cli("validate", "--no-cache")[:2]
    js = cli("validate", "--format", "json")
    assert json.loads(js[1]) == json.loads(cli("validate", "--no-cache", "--format", "json")[1])
    folders = ("--records", project / "records", "--analysis", project / "analysis")
    there = cli("validate", *folders)
    os.chdir(project / "records")  # paths are shown from the working folder: the same, shown apart
    here = cli("validate", *folders)
    assert here[:2] == cli("validate", "--no-cache", *folders)[:2]
    assert here[1] != there[1]
