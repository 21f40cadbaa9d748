"""The one cache primitive (`litrec.cache.Slot`) and its refusal rules, tested once for every use:
caching off, links, damage, foreign versions, keys; a failed write is silent."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from litrec import cache
from litrec.cache import Slot, named


@dataclasses.dataclass(frozen=True)
class Entry:
    name: str
    values: list


@pytest.fixture
def slot(tmp_path, monkeypatch) -> Slot:
    monkeypatch.delenv("LITREC_NO_CACHE", raising=False)
    return Slot(tmp_path, "things", "one")


def _file(slot: Slot) -> Path:
    return slot.root / ".litrec-cache" / slot.folder / f"{slot.name}.bin"


def test_a_value_is_kept_under_its_key_only(slot):
    assert slot.read("k") is None
    assert slot.write("k", Entry("a", [1, 2.5, None]))
    assert named(Entry, slot.read("k")) == Entry("a", [1, 2.5, None])
    assert slot.read("another key") is None
    assert named(Entry, {"name": "a"}) is None  # other fields: not an Entry


@pytest.mark.parametrize("how", ["env", "flag"])
def test_caching_off_reads_and_writes_nothing(slot, monkeypatch, how):
    slot.write("k", 1)
    if how == "env":
        monkeypatch.setenv("LITREC_NO_CACHE", "1")
    else:
        monkeypatch.setenv("LITREC_NO_CACHE", "0")  # restored afterwards
        cache.turn_off()  # what --no-cache does
    assert slot.read("k") is None
    assert not slot.write("k", 2)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped byte", "empty"])
def test_a_damaged_entry_is_read_as_missing_and_replaced(slot, damage):
    slot.write("k", {"a": 1})
    path = _file(slot)
    blob = path.read_bytes()
    path.write_bytes({"garbage": b"\x00not a cache", "truncated": blob[:-3], "empty": b"",
                      "flipped byte": blob[:-1] + bytes([blob[-1] ^ 1])}[damage])
    assert slot.read("k") is None
    assert slot.write("k", {"a": 2}) and slot.read("k") == {"a": 2}


@pytest.mark.parametrize("field, value", [("format", 99), ("version", "0.0.0-other")])
def test_an_entry_of_another_format_or_litrec_is_read_as_missing(slot, monkeypatch, field, value):
    monkeypatch.setattr(cache, "FORMAT" if field == "format" else "__version__", value)
    slot.write("k", 1)
    monkeypatch.undo()
    assert slot.read("k") is None


@pytest.mark.parametrize("where", ["entry", "folder", "cache"])
def test_nothing_is_read_or_written_through_a_link(slot, tmp_path, where):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    Slot(elsewhere, "things", "one").write("k", 1)
    outside = elsewhere / ".litrec-cache"
    base = tmp_path / ".litrec-cache"
    if where == "cache":
        base.symlink_to(outside)
    elif where == "folder":
        base.mkdir()
        (base / "things").symlink_to(outside / "things")
    else:
        (base / "things").mkdir(parents=True)
        (base / "things" / "one.bin").symlink_to(outside / "things" / "one.bin")
    assert slot.read("k") is None
    if where != "entry":
        assert "symbolic link" in slot.refused()
        assert not slot.write("k", 2)
    assert Slot(elsewhere, "things", "one").read("k") == 1  # never written through the link


def test_a_folder_where_the_entry_should_be_and_a_read_only_project(slot, tmp_path):
    _file(slot).mkdir(parents=True)
    assert slot.read("k") is None
    assert not slot.write("k", 1)  # silent
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        assert not Slot(ro, "things", "one").write("k", 1) or os.geteuid() == 0
    finally:
        ro.chmod(0o700)
