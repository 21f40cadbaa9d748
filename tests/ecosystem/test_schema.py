"""The JSON Schemas in schema/ say what `litrec validate` says of one record.

An editor validates a record against the schema its first line names; the
validator checks it with the strict pydantic models. The two must agree, on
the seed records, on every single change to full records, and on randomly
corrupted copies. The reference answer is what `litrec validate` checks of a
record on its own: the kind's model and the id's pattern. Checks that need
the whole collection (dangling links, cycles, stances) are out of reach of a
JSON Schema and out of scope here.

Values reach jsonschema as an editor sees them: YAML dates become ISO strings.
Where two values the validator tells apart look the same to an editor (a date
and its ISO string in a date field, 2022 and 2022.0 in an integer field), the
schema gives the validator's answer for the one it accepts (`editor_blind`);
those pairs, and what differs between YAML 1.1 and 1.2, are listed in
`KNOWN_DIFFERENCES` and `YAML_DIFFERENCES` at the end.
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import json
import math
import typing
from pathlib import Path
from typing import Annotated, Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import Field, ValidationError

from litrec.records import model as m
from litrec.records.discover import find_record_files
from litrec.records.kinds import KINDS
from litrec.records.locators import Locator, Where
from litrec.records.schema import LitrecJsonSchema, schema_filename, schema_for, schema_text
from litrec.util.yamlsafe import load_bytes
from tests.conftest import FIXTURES
from tests.support.schema import VALIDATORS, as_json, assert_valid_both_ways, pydantic_valid

from .conftest import ROOT

SCHEMA_DIR = ROOT / "schema"


def schema_valid(kind: str, data: dict) -> bool:
    return VALIDATORS[kind].is_valid(as_json(data))


def _field_types() -> dict[str, set]:
    """Each field name of the record models, and the types it has in them."""
    out: dict[str, set] = {}
    todo = [m.Strict]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__ == m.__name__:
            for name, f in cls.model_fields.items():
                out.setdefault(name, set()).add(f.annotation)
    return out


def _fields_typed(tp) -> frozenset[str]:
    """Names of the fields of type `tp` (alone or with None) in every record model that has them."""
    return frozenset(name for name, types in _field_types().items()
                     if all(t is tp or typing.get_args(t) == (tp, type(None)) for t in types))


DATE_FIELDS = _fields_typed(dt.date)  # date
INT_FIELDS = _fields_typed(int)       # year
LOCATOR_FIELDS = frozenset(Where.model_fields)  # a claim's where: text or a whole number


def _iso_date(value) -> bool:
    try:
        return isinstance(value, str) and dt.date.fromisoformat(value).isoformat() == value
    except ValueError:
        return False


def twin(value: Any, tp: type) -> Any:
    """The value of type `tp` an editor cannot tell from `value`, else `value` itself.

    An editor reads YAML 1.2, which has no dates: `date: 2026-10-09` and
    `date: "2026-10-09"` are the same string to it, a date and a string (which
    strict models refuse) to the validator; so are `note: 2026-10-09` (a date,
    refused in a text field) and `note: "2026-10-09"`. JSON has one number
    2022, so `year: 2022.0` (a float, refused) is `year: 2022` to a JSON Schema.
    """
    if tp is dt.date and _iso_date(value):
        return dt.date.fromisoformat(value)
    if tp is int and isinstance(value, float) and value.is_integer():
        return int(value)
    if tp is str and isinstance(value, dt.date):
        return value.isoformat()
    if tp == "locator":  # text or a whole number: both twins
        return twin(twin(value, int), str)
    return value


def editor_blind(node: Any, key: Any = None) -> Any:
    """`node` with each value in a date or integer field replaced by its twin."""
    if isinstance(node, dict):
        return {k: editor_blind(v, k) for k, v in node.items()}
    if isinstance(node, list):
        return [editor_blind(v) for v in node]
    if key in DATE_FIELDS:
        return twin(node, dt.date)
    if key in INT_FIELDS:
        return twin(node, int)
    if key in LOCATOR_FIELDS:
        return twin(node, "locator")
    return node


def expected(kind: str, data: dict) -> bool:
    """What the schema must say: the validator's answer, for the twin where an editor sees one."""
    assert as_json(editor_blind(data)) == as_json(data)
    return pydantic_valid(kind, editor_blind(data))


# ------------------------------------------------------------------ files


def test_committed_schemas_are_current():
    """schema/*.schema.json is what `litrec schema --out schema` writes now."""
    for kind in KINDS:
        path = SCHEMA_DIR / schema_filename(kind)
        assert path.is_file(), f"missing {path}; run: litrec schema --out schema"
        assert path.read_text(encoding="utf-8") == schema_text(kind), (
            f"{path} is out of date; run: litrec schema --out schema")


def test_schemas_are_valid_json_schemas():
    for kind in KINDS:
        jsonschema.Draft202012Validator.check_schema(schema_for(kind))


def test_patterns_compile_in_javascript_syntax():
    """No Python-only regex syntax: editors compile the patterns with ECMA 262."""
    text = "".join(schema_text(kind) for kind in KINDS)
    assert "(?P<" not in text


def test_every_model_forbids_unknown_fields():
    for kind in KINDS:
        schema = schema_for(kind)
        objects = [schema, *schema.get("$defs", {}).values()]
        for obj in objects:
            if obj.get("type") == "object":
                assert obj.get("additionalProperties") is False, (kind, obj.get("title"))


def _records() -> list[Path]:
    """The fixture project's records (the seed as frozen for the tests)."""
    return find_record_files(FIXTURES / "project" / "records")


@pytest.mark.parametrize("path", _records(), ids=lambda p: p.stem)
def test_fixture_record_valid_both_ways(path: Path):
    assert_valid_both_ways(path)


# -------------------------------------------------------------- corruption

# Records with every optional field filled, so corruption reaches each one.
FULL = [
    {"id": "NOTE-7", "kind": "note", "title": "t", "summary": "s", "body": "b", "partial": False,
     "known_from": "k", "tags": ["a"], "date": dt.date(2026, 1, 2),
     "links": [{"rel": "uses", "target": "ARXIV-2212.07677#P1", "note": "n"}],
     "claims": [{"id": "C1", "kind": "conjecture", "title": "t", "statement": "s",
                 "where": {"section": "2", "page": 3, "theorem": "1", "lemma": 2,
                           "corollary": "3a", "equation": 4, "table": "1", "figure": "2, 3"},
                 "check": {"analysis": "a", "expect": [
                     {"metric": "x", "op": "≈", "ref": "y", "rel_tol": 0.1, "abs_tol": 0.0,
                      "factor": 2.0, "paper": 0.5, "official": "0.2", "note": "n"}]}}]},
    {"id": "THEORY-3", "kind": "theory", "status": "open", "links": [
        {"rel": "derived_from", "target": "NOTE-7"}]},
    {"id": "ADR-001", "kind": "decision", "status": "accepted", "date": dt.date(2026, 3, 4),
     "context": "c", "decision": "d", "consequences": "q",
     "links": [{"rel": "supersedes", "target": "ADR-000"}]},
    {"id": "my-work", "kind": "work", "status": "draft", "bibliography": [
        {"ref": "ARXIV-2212.07677", "status": "cited", "note": "n"}]},
    {"id": "ANTH-NOTE-4", "kind": "anthology", "stance": "open", "read_for": "r"},
    {"id": "DOI-10.1000_abc(1)", "kind": "literature", "title": "t", "authors": ["A B"],
     "year": 2020, "venue": "v", "volume": "1", "pages": "1--2", "publisher": "p",
     "arxiv": "2001.00001v2", "doi": "10.1000/abc(1)", "url": "https://x", "code": "c",
     "question": "q", "filed": {"date": dt.date(2026, 1, 1), "requested_by": "o", "from_work": "my-work"},
     "discrepancies": [{"id": "D1", "topic": "t", "text_says": "a", "code_does": "b",
                        "numbers_follow": "both", "analysis": "a", "metrics": ["m"], "note": "n"}]},
]
SEEDS = [load_bytes(p.read_bytes()).data for p in _records()] + FULL

# Values a corruption writes: wrong types, coercible look-alikes, near-misses of enums and ids.
POOL = [
    None, True, False, 0, 1, 7, -3, 2022, 2022.0, 1.5, -0.5, 1e-10, math.inf,
    "", "x", "  padded  ", "2022", " 2022 ", "1", "0", "1.5", "-0.5", "1e-10", ".inf",
    "true", "False", "yes", "No", "ON", "off", "y", "2026-10-09",
    "2026-13-40", "NOTE-621", "NOTE-62a", "ARXIV-2212.07677#P1", "ARXIV-2212.07677#p1", "P1", "D2",
    "uses", "used_by", "≈", "<", "proposition", "kept", "cited", "accepted", "held",
    [], ["x"], [1], [{"rel": "uses"}], {}, {"x": 1}, {"rel": "uses", "target": "NOTE-1"},
    {"metric": "m", "op": "<", "value": 1}, {"metric": "m", "op": "≈", "value": 1},
]
UNKNOWN_KEYS = ["titel", "extra", "Kind", "notes", "value2"]


def _containers(node, path=()):
    """Every (path, container) of a record, the record included."""
    if isinstance(node, (dict, list)):
        yield path, node
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for k, v in items:
            yield from _containers(v, (*path, k))


def _corrupt(data: dict, draw) -> dict:
    data = copy.deepcopy(data)
    where = draw(st.sampled_from(list(_containers(data))))[1]
    keys = list(where.keys()) if isinstance(where, dict) else list(range(len(where)))
    action = draw(st.sampled_from(["set", "set", "set", "delete", "unknown", "append"]))
    if action == "unknown" and isinstance(where, dict):
        where[draw(st.sampled_from(UNKNOWN_KEYS))] = draw(st.sampled_from(POOL))
    elif action == "append" and isinstance(where, list):
        where.append(copy.deepcopy(draw(st.sampled_from(POOL + [where[0]] if where else POOL))))
    elif keys and action == "delete":
        del where[draw(st.sampled_from(keys))]
    elif keys:
        where[draw(st.sampled_from(keys))] = copy.deepcopy(draw(st.sampled_from(POOL)))
    return data


@pytest.mark.slow  # fuzzing: 400 examples
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_corrupted_records_same_answer(data):
    seed = data.draw(st.sampled_from(SEEDS))
    kind = seed["kind"]
    bad = seed
    for _ in range(data.draw(st.integers(1, 3))):
        bad = _corrupt(bad, data.draw)
    assert schema_valid(kind, bad) == expected(kind, bad), json.dumps(as_json(bad), ensure_ascii=False)


_DELETE = object()


def _set(data: dict, path: tuple, value: Any) -> dict:
    """A copy of `data` with the value at `path` replaced by `value`, or deleted."""
    data = copy.deepcopy(data)
    node = data
    for k in path[:-1]:
        node = node[k]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = copy.deepcopy(value)
    return data


@pytest.mark.slow
@pytest.mark.parametrize("seed", FULL, ids=lambda d: d["id"])
def test_every_single_change_same_answer(seed):
    """Every value of a full record replaced by each value of POOL, or deleted; an unknown key added."""
    kind = seed["kind"]
    changed = []
    for path, node in _containers(seed):
        keys = list(node) if isinstance(node, dict) else range(len(node))
        changed += [_set(seed, (*path, k), v) for k in keys for v in (_DELETE, *POOL)]
        if isinstance(node, dict):
            changed += [_set(seed, (*path, k), v) for k in UNKNOWN_KEYS[:2] for v in POOL[:3]]
    wrong = [json.dumps(as_json(bad), ensure_ascii=False) for bad in changed
             if schema_valid(kind, bad) != expected(kind, bad)]
    assert not wrong, wrong[:3]


@pytest.mark.parametrize("seed", FULL, ids=lambda d: d["id"])
def test_full_records_valid_both_ways(seed):
    assert pydantic_valid(seed["kind"], seed)
    assert schema_valid(seed["kind"], seed)


@pytest.mark.parametrize("change,valid", [
    ({"value": None, "ref": None}, False),      # no right-hand side
    ({"value": 1.0, "ref": "y"}, False),         # two right-hand sides
    ({"value": False, "ref": _DELETE}, True),    # false is a value
    ({"value": 1.0, "ref": None}, False),        # a null ref is refused, not taken for none
    ({"value": None, "ref": "y"}, False),        # so is a null value
    ({"value": True, "ref": _DELETE, "op": "<"}, False),  # a boolean is compared with == or ≈
    ({"value": math.inf, "ref": _DELETE, "op": "<"}, False),  # numbers are finite
    ({"op": "≈", "rel_tol": None, "abs_tol": None}, False),
    ({"op": "≈", "rel_tol": None, "abs_tol": 0.0}, True),
    ({"op": "<", "rel_tol": None, "abs_tol": None}, True),
])
def test_expectation_rules(change, valid):
    seed = copy.deepcopy(FULL[0])
    exp = seed["claims"][0]["check"]["expect"][0]
    for key, value in change.items():
        if value is _DELETE:
            del exp[key]
        else:
            exp[key] = value
    assert pydantic_valid("note", seed) is valid
    assert schema_valid("note", seed) is valid


# ------------------------------------------------------- scalar types

@functools.cache
def _fragment_validator(tp) -> tuple[type, jsonschema.Validator]:
    """A field of type `tp` in a model configured as the records' are, and its JSON Schema."""

    class M(m.Strict):
        v: tp

    schema = M.model_json_schema(schema_generator=LitrecJsonSchema)
    return M, jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def _fragment_valid(tp, value) -> bool:
    try:
        _fragment_validator(tp)[0].model_validate({"v": value})
    except ValidationError:
        return False
    return True


# name: (type, the type whose twin an editor cannot tell apart, if any)
SCALARS = {
    "bool": (bool, None),
    "int": (int, int),
    "year": (Annotated[int, Field(ge=1000, le=2999)], int),
    "float": (float, None),
    "tolerance": (Annotated[float, Field(ge=0)], None),
    "date": (dt.date, dt.date),
    "str": (str, str),
    "number or text": (float | str, str),
    "value": (float | bool | None, None),
    "locator": (Locator, "locator"),
}
NUMBERS = st.one_of(
    st.integers(-5, 5000), st.floats(-1e4, 1e4, allow_nan=False),  # NaN: see KNOWN_DIFFERENCES
    st.sampled_from([math.inf, -math.inf, 0.0, -0.0, 1000.0, 2999.0, 3000.0]),
)
TEXT = st.one_of(
    st.sampled_from([v for v in POOL if isinstance(v, str)]),
    st.from_regex(r"\A *[+-]?(\d{1,5}(\.\d{0,3})?|\.\d{1,3})([eE][+-]?\d{1,2})? *\Z"),  # numbers as strings
    st.from_regex(r"\A[+-]?\.?(inf|infinity|nan|Inf|NaN|INFINITY)\Z"),
    st.from_regex(r"\A(true|false|yes|no|on|off|[tfyn01]|True|FALSE|Yes|nO|oN|maybe)\Z"),  # bool words
    st.dates(dt.date(1900, 1, 1), dt.date(2100, 1, 1)).map(dt.date.isoformat),  # quoted dates
    st.from_regex(r"\A *\d{4}-\d{1,2}-\d{1,2}[ T]?\Z"),
)
VALUES = st.one_of(NUMBERS, TEXT, st.booleans(), st.none(),
                   st.dates(dt.date(1900, 1, 1), dt.date(2100, 1, 1)),
                   st.datetimes(dt.datetime(1900, 1, 1), dt.datetime(2100, 1, 1)))


@pytest.mark.slow
@pytest.mark.parametrize("name", SCALARS)
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_scalar_types_same_answer(name, data):
    """What the strict models accept of a YAML value for a bool, int, float, date or text, so does the schema."""
    tp, twin_type = SCALARS[name]
    value = data.draw(VALUES)
    _, validator = _fragment_validator(tp)
    assert validator.is_valid(as_json({"v": value})) == _fragment_valid(tp, twin(value, twin_type)), (name, value)


# What still differs, and why. If one of these starts to agree, delete it here and in
# site/usage.md.
#
# Values that look the same to an editor but not to the validator (see `twin`): the
# schema accepts both, the validator only one.
# (type, value, the validator's answer): the schema gives the other answer
KNOWN_DIFFERENCES = [
    ("date", "2026-10-09", False),          # a quoted date: a string, refused; unquoted, a date
    ("str", dt.date(2026, 10, 9), False),   # an unquoted date in a text field: a date to PyYAML,
                                            # a string to an editor; quote it
    ("year", 2022.0, False),                # a float is not an int to the validator; to JSON
                                            # Schema, 2022.0 is the integer 2022
    ("locator", 12.0, False),               # the same for a claim's `where: {page: 12.0}`
    # Inputs no one writes on purpose:
    ("tolerance", math.nan, False),         # NaN fails `>= 0` in pydantic; JSON Schema's
                                            # `minimum` cannot see it (every comparison is false)
    ("float", math.nan, False),             # NaN is refused by the models; JSON Schema's
                                            # bounds cannot see it (and JSON has no NaN)
]


@pytest.mark.parametrize("name,value,pydantic_says", KNOWN_DIFFERENCES)
def test_known_differences(name, value, pydantic_says):
    tp = SCALARS[name][0]
    assert _fragment_valid(tp, value) is pydantic_says
    assert _fragment_validator(tp)[1].is_valid(as_json({"v": value})) is not pydantic_says


# The validator reads records with PyYAML, which follows YAML 1.1; editors follow YAML 1.2,
# and read some plain scalars as another type (the YAML 1.2 core schema: only
# true/false are booleans, `1e-10` is a number, `1_000` is a string). No schema can see
# the difference. (type, YAML text, what an editor reads, the validator's answer)
YAML_DIFFERENCES = [
    ("bool", "yes", "yes", True),       # write true
    ("bool", "Off", "Off", True),       # write false
    ("float", "1e-10", 1e-10, False),   # a string to PyYAML; write 1.0e-10
    ("float", "2E+3", 2000.0, False),   # write 2.0e+3
    ("year", "2_022", "2_022", True),   # digit separators; write 2022
]


@pytest.mark.parametrize("name,text,editor_reads,pydantic_says", YAML_DIFFERENCES)
def test_yaml_differences(name, text, editor_reads, pydantic_says):
    tp = SCALARS[name][0]
    validator_reads = load_bytes(f"v: {text}\n".encode()).data["v"]
    assert validator_reads != editor_reads or type(validator_reads) is not type(editor_reads)
    assert _fragment_valid(tp, validator_reads) is pydantic_says
    assert _fragment_validator(tp)[1].is_valid({"v": editor_reads}) is not pydantic_says
