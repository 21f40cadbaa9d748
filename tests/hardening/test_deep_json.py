"""Every JSON file litrec reads goes through one guarded reader (`litrec.util.jsonread`): nesting
deeper than Python can read is a located problem, never a RecursionError traceback."""

from __future__ import annotations

import pytest

from litrec.util import jsonread

DEEP = "[" * 200_000 + "]" * 200_000


def test_the_reader_turns_deep_nesting_into_a_value_error():
    with pytest.raises(jsonread.JsonUnreadable, match="nested deeper"):
        jsonread.loads(DEEP)
    assert isinstance(jsonread.JsonUnreadable("x"), ValueError)
    assert jsonread.loads('{"a": [1, 2]}') == {"a": [1, 2]}


@pytest.mark.slow
def test_a_deep_ledger_line_is_located_not_a_traceback(mini, litrec):
    assert litrec("run", "--profile", "quick", cwd=mini).code == 0
    ledger = mini / "results" / "toy" / "quick.history.jsonl"
    ledger.write_text(ledger.read_text() + DEEP + "\n")
    for args in (("validate",), ("status", "--profile", "quick"), ("export", "json", "--profile", "quick")):
        res = litrec(*args, cwd=mini)
        assert "Traceback" not in res.err and "RecursionError" not in res.err, (args, res.err[-2000:])
    res = litrec("validate", cwd=mini)
    assert res.code == 1 and "quick.history.jsonl:" in res.text and "not a JSON object" in res.text


def test_a_deep_result_is_damaged_not_a_traceback(mini, litrec):
    assert litrec("run", "--profile", "quick", cwd=mini).code == 0
    (mini / "results" / "toy" / "quick.json").write_text(DEEP)
    res = litrec("status", "--profile", "quick", cwd=mini)
    assert res.code == 1 and "Traceback" not in res.err and "quick.json" in res.err
