"""A record file whose last change had settled when it was read is vouched for by its status
(size, times, inode, device) the next time; any write afterwards gives it another change time,
so the validation cache never answers for bytes it did not check (git's racily-clean rule)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from litrec.util import settled
from litrec.util.settled import file_unchanged, read_record


def _write(path: Path, text: str, mtime_ns: int | None = None) -> None:
    path.write_text(text, encoding="utf-8")
    if mtime_ns is not None:
        os.utime(path, ns=(mtime_ns, mtime_ns))


def test_a_file_changed_just_before_it_was_read_has_no_witness(tmp_path):
    path = tmp_path / "r.yaml"
    _write(path, "id: NOTE-1\n")
    raw, key = read_record(str(path), tmp_path)
    assert raw == b"id: NOTE-1\n" and len(key) == 4 and key[3] is None
    assert not file_unchanged(str(path), key)  # read and hashed again next time


def test_a_settled_file_is_vouched_for_until_any_write(tmp_path, monkeypatch):
    monkeypatch.setattr(settled, "SETTLED_NS", -10**12)  # as if written long before the read
    path = tmp_path / "r.yaml"
    _write(path, "id: NOTE-1\n")
    key = read_record(str(path), tmp_path)[1]
    assert key[3] is not None and file_unchanged(str(path), key)
    time.sleep(0.02)  # past a coarse clock's tick
    _write(path, "id: NOTE-2\n", key[1])  # same size, modification time put back
    assert os.stat(path).st_size == key[0] and os.stat(path).st_mtime_ns == key[1]
    assert not file_unchanged(str(path), key)
    assert read_record(str(path), tmp_path)[1][2] != key[2]


@pytest.mark.parametrize("change", ["replaced", "linked", "removed"])
def test_another_file_in_its_place_is_not_vouched_for(tmp_path, monkeypatch, change):
    monkeypatch.setattr(settled, "SETTLED_NS", -10**12)
    path, other = tmp_path / "r.yaml", tmp_path / "o.yaml"
    _write(path, "id: NOTE-1\n")
    key = read_record(str(path), tmp_path)[1]
    _write(other, "id: NOTE-2\n", key[1])
    os.remove(path)
    if change == "replaced":
        os.rename(other, path)
    elif change == "linked":
        os.symlink(other, path)
    assert not file_unchanged(str(path), key)


def test_validate_answers_from_the_cache_only_for_the_bytes_it_checked(project, cli, monkeypatch):
    monkeypatch.setattr(settled, "SETTLED_NS", -10**12)
    rec = next((project / "records" / "decisions").glob("*.yaml"))
    assert cli("validate")[0] == 0
    assert cli("validate")[0] == 0  # every file vouched for by its status
    text = rec.read_text(encoding="utf-8")
    broken = text.replace("id: ", "id: X", 1)[:len(text)]  # same size: an invalid id
    assert len(broken.encode()) == len(text.encode())
    time.sleep(0.02)
    _write(rec, broken, rec.stat().st_mtime_ns)
    cached = cli("validate")
    assert cached[0] == 1 and rec.name in cached[1]
    assert cli("validate", "--no-cache")[:2] == cached[:2]
