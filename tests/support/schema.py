"""The JSON Schemas of schema/ as an editor uses them, and `litrec validate`'s answer on one record:
the first line a record file starts with, a validator per record kind, a value as an editor
sees it (JSON: dates are strings), the strict models' verdict, and both on one record file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import jsonschema
from pydantic import ValidationError

from litrec.records import model as m
from litrec.records.kinds import ID_RE, KINDS
from litrec.records.schema import schema_for
from litrec.util.yamlsafe import load_bytes

COMMENT = "# yaml-language-server: $schema="
VALIDATORS = {
    kind: jsonschema.Draft202012Validator(schema_for(kind), format_checker=jsonschema.FormatChecker())
    for kind in KINDS
}


def as_json(value: Any) -> Any:
    """The value as an editor sees it (JSON data model): dates are strings."""
    if isinstance(value, dict):
        return {str(k): as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return value


def pydantic_valid(kind: str, data: dict) -> bool:
    """What `litrec validate` says of one record on its own: the model and the id pattern."""
    try:
        rec = m.MODELS[kind].model_validate(data)
    except ValidationError:
        return False
    return bool(ID_RE[kind].match(rec.id))


def assert_valid_both_ways(path: Path) -> None:
    """The record file at `path` is valid for the strict models and for its kind's JSON Schema."""
    data = load_bytes(path.read_bytes()).data
    kind = data["kind"]
    assert pydantic_valid(kind, data)
    errors = [e.message for e in VALIDATORS[kind].iter_errors(as_json(data))]
    assert not errors, errors
