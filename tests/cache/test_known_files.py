"""The key of a no-op run's answer (and of the suspect links', which is built on it) takes a
record file's hash from what validation read in the same process (`Checked.file_keys`) where the
file's status still vouches for those bytes, and reads the file otherwise: the key is the same
either way, and an edit after validation read the file changes it."""

from __future__ import annotations

import os

import pytest

from litrec.analyses.memo import memo_key
from litrec.records.validate import check_collection
from litrec.util import settled


@pytest.fixture
def settled_now(monkeypatch):
    """Every file counts as settled when read (no wait for its change time to age)."""
    monkeypatch.setattr(settled, "SETTLED_NS", -10**18)


def _key(root, known=None):
    return memo_key(root / "records", root / "analysis", root / "results", "quick", [], known=known)


def test_the_key_is_the_same_with_the_files_validation_read(mini, settled_now):
    checked = check_collection(mini / "records", mini / "analysis", use_cache=False)
    known = checked.file_keys()
    assert sorted(known) == ["literature/ARXIV-0000.00001.yaml", "notes/NOTE-1.yaml"]
    assert all(key[3] is not None for key in known.values())  # each with its witness
    assert _key(mini, known) == _key(mini) is not None


def test_a_file_edited_after_validation_read_it_is_read_again(mini, settled_now):
    known = check_collection(mini / "records", mini / "analysis", use_cache=False).file_keys()
    before = _key(mini)
    note = mini / "records" / "notes" / "NOTE-1.yaml"
    st = note.stat()
    note.write_text(note.read_text(encoding="utf-8").replace("toy paper", "toy pages"), encoding="utf-8")
    os.utime(note, ns=(st.st_atime_ns, st.st_mtime_ns))  # same size and modification time
    assert _key(mini, known) == _key(mini) != before


def test_a_kept_hash_without_its_witness_is_never_taken(mini):
    known = check_collection(mini / "records", mini / "analysis", use_cache=False).file_keys()
    lied = {rel: (key[0], key[1], "0" * 32, None) for rel, key in known.items()}  # no witness
    assert _key(mini, lied) == _key(mini)
