"""Property tests: corrupted records never give a traceback, and always give a located error.

Fuzzing, a project copied and validated per example: slow (`make test-all`, or `pytest -m slow`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from litrec.commands import main
from tests.conftest import FIXTURES, copy_project

pytestmark = pytest.mark.slow

BASE = FIXTURES / "project"
SEED_FILES = sorted((BASE / "records").rglob("*.yaml"))
LINE = re.compile(r"^records/\S+\.yaml:\d+:\d+: ")
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _project(tmp: Path, target: Path, new: bytes) -> None:
    copy_project(tmp)
    (tmp / target.relative_to(BASE)).write_bytes(new)


def _validate(tmp: Path, capsys, monkeypatch) -> tuple[int, list[str]]:
    monkeypatch.chdir(tmp)
    code = main(["validate", "--quiet"])  # an exception here fails the test: no traceback allowed
    out = capsys.readouterr().out
    return code, [ln for ln in out.splitlines() if ln]


@SETTINGS
@given(idx=st.integers(0, len(SEED_FILES) - 1), data=st.data())
def test_any_byte_corruption_is_reported_not_raised(tmp_path_factory, capsys, monkeypatch, idx, data):
    target = SEED_FILES[idx]
    raw = target.read_bytes()
    pos = data.draw(st.integers(0, len(raw)))
    junk = data.draw(st.binary(min_size=0, max_size=8))
    cut = data.draw(st.integers(0, 8))
    corrupted = raw[:pos] + junk + raw[pos + cut:]
    tmp = tmp_path_factory.mktemp("p")
    _project(tmp, target, corrupted)
    code, lines = _validate(tmp, capsys, monkeypatch)
    assert code in (0, 1)
    if code == 1:
        assert lines and all(LINE.match(ln) for ln in lines), lines


_BREAKERS = st.sampled_from([
    ("unknown field", lambda t: t + "\nno_such_field: 1\n"),
    ("bad id", lambda t: re.sub(r"(?m)^id: .*$", "id: not an id!", t, count=1)),
    ("kind gone", lambda t: re.sub(r"(?m)^kind: .*$", "", t, count=1)),
    ("kind wrong", lambda t: re.sub(r"(?m)^kind: .*$", "kind: paper", t, count=1)),
    ("dangling", lambda t: t + "\nlinks:\n  - rel: relates_to\n    target: NOTE-999999\n"
     if "\nlinks:" not in t else t.replace("\nlinks:\n", "\nlinks:\n  - rel: relates_to\n    target: NOTE-999999\n", 1)),
    ("tab", lambda t: t.replace("\n", "\n\t", 1)),
    ("partial typed", lambda t: t + "\npartial: maybe\n" if "\npartial:" not in t
     else re.sub(r"(?m)^partial: .*$", "partial: maybe", t)),
])


@SETTINGS
@given(idx=st.integers(0, len(SEED_FILES) - 1), breaker=_BREAKERS)
def test_breaking_corruption_exits_1_with_a_located_error(tmp_path_factory, capsys, monkeypatch,
                                                          idx, breaker):
    target = SEED_FILES[idx]
    name, fn = breaker
    tmp = tmp_path_factory.mktemp("p")
    _project(tmp, target, fn(target.read_text(encoding="utf-8")).encode())
    code, lines = _validate(tmp, capsys, monkeypatch)
    assert code == 1, name
    rel = target.relative_to(BASE).as_posix()
    assert any(ln.startswith(rel + ":") for ln in lines), (name, lines)
    assert all(LINE.match(ln) for ln in lines), lines
