"""Where an expectation comes from (`litrec.records.expectation.Source`): the JSON Schema an editor
validates a record with refuses what the model refuses (a field of another kind of source written
out, a threshold of litrec's without its reason) and accepts what it accepts (a field of another
kind left null, as an editor may write it); and a source in a few words."""

from __future__ import annotations

import jsonschema
import pytest

from litrec.records.expectation import Source
from litrec.records.schema import schema_for
from tests.support.models import validates

PAPER = {"kind": "paper", "where": "§4, Figure 5", "quote": "the trained model", "threshold": "paper"}
OFFICIAL = {"kind": "official", "file": "src/train.py", "line": 307, "threshold": "official"}
EXTENSION = {"kind": "extension", "reason": "the paper reports one seed"}

CASES = [  # (source, valid)
    (PAPER, True),
    ({**PAPER, "file": None, "reason": None}, True),  # another kind's fields, null: not written
    ({**PAPER, "file": "src/train.py"}, False),
    ({**PAPER, "reason": "why"}, False),
    ({**PAPER, "threshold": "litrec"}, False),
    ({**PAPER, "threshold": "litrec", "threshold_reason": "a 5% tolerance"}, True),
    ({**PAPER, "threshold": "litrec", "threshold_reason": "   "}, False),  # only spaces: none
    (OFFICIAL, True),
    ({**OFFICIAL, "quote": None, "states": None, "reason": None}, True),
    ({**OFFICIAL, "quote": "q"}, False),
    ({**OFFICIAL, "states": "s"}, False),
    ({**OFFICIAL, "reason": "r"}, False),
    ({**OFFICIAL, "threshold": "litrec"}, False),
    ({**OFFICIAL, "threshold": "litrec", "threshold_reason": "a margin over the measured loss"}, True),
    (EXTENSION, True),
    ({**EXTENSION, "threshold": "litrec"}, True),  # its reason stands for threshold_reason
    ({**EXTENSION, "quote": None, "file": None}, True),
    ({**EXTENSION, "quote": "q"}, False),
    ({**EXTENSION, "file": "a.py"}, False),
]


@pytest.fixture(scope="module")
def editor() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema_for("literature"))


@pytest.mark.parametrize("source, valid", CASES)
def test_the_schema_and_the_model_agree_on_a_source(editor, source, valid):
    record = {"id": "ARXIV-2212.07677", "kind": "literature", "title": "t", "claims": [
        {"id": "F1", "kind": "finding", "title": "t", "statement": "s", "check": {
            "analysis": "a", "expect": [{"metric": "m", "op": "<", "value": 1, "source": source}]}}]}
    assert validates(Source, source) is valid
    errors = [e.message for e in editor.iter_errors(record)]
    assert (not errors) is valid, errors

