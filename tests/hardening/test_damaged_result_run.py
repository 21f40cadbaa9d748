"""`litrec run` and a stored result that does not read (damaged).

A damaged result's state holds no inputs (`litrec.results.state`), and the run passed that
None on as the inputs of the new run: `analysis toy failed: AttributeError: 'NoneType'
object has no attribute 'files'`, with --force too, so the fix every message names
("rerun the analysis with --force to replace it") could not be done (found by mypy). Now
--force works the inputs out and replaces the result; a plain run leaves the file as it
is and says how to replace it.
"""

from __future__ import annotations

import json

RESULT = "results/toy/quick.json"


def _damaged(mini, litrec) -> bytes:
    res = litrec("run", "--profile", "quick", cwd=mini)
    assert res.code == 0, res.text
    (mini / RESULT).write_text("{not json")
    return (mini / RESULT).read_bytes()


def test_force_replaces_a_damaged_result(mini, litrec):
    _damaged(mini, litrec)
    res = litrec("run", "--profile", "quick", "--force", cwd=mini)
    assert res.code == 0, res.text
    assert "AttributeError" not in res.text and "Traceback" not in res.text
    assert json.loads((mini / RESULT).read_text())["metrics"]["total"] == 10
    assert litrec("status", "--profile", "quick", cwd=mini).code == 0


def test_a_plain_run_keeps_the_damaged_file_and_says_how_to_replace_it(mini, litrec):
    before = _damaged(mini, litrec)
    res = litrec("run", "--profile", "quick", cwd=mini)
    assert res.code == 1
    assert "AttributeError" not in res.text and "Traceback" not in res.text
    said = " ".join(res.err.split())
    assert ("analysis toy failed: RunError: analysis 'toy': its stored result is damaged; rerun: "
            "litrec run toy --profile quick --force; its previous result is kept") in said
    assert "litrec run: error: damaged result: results/toy/quick.json:1:2: not valid JSON" in said
    assert (mini / RESULT).read_bytes() == before
    assert not (mini / "results/toy/quick.error.log").exists()
