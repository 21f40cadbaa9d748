"""JSON Schemas of the record kinds, generated from the pydantic models.

Editors that speak the YAML language server protocol validate and complete a
record when its first line names the schema:

    # yaml-language-server: $schema=../../schema/literature.schema.json

A schema says what `litrec validate` accepts of one record on its own, no more
and no less, so an editor and the validator agree. pydantic's own JSON Schema
describes the canonical form only, so the generator below adds what the
models accept besides:

- the relation names of `Link.rel` and the rule that an expectation has
  exactly one right-hand side (pydantic validators, invisible to pydantic's
  schema);
- the id pattern of the kind (checked by the loader, not by the model);
- the coercions pydantic applies in its lax mode that a YAML author meets:
  booleans written `yes`/`off`/`0`/`1` (PyYAML reads YAML 1.1, editors read
  YAML 1.2, where `yes` is a string), numbers written as strings (`1e-10` is a
  string to PyYAML), booleans where a number is expected;
- surrounding whitespace in patterned strings (the models strip it first);
- regular expressions without Python-only syntax (`(?P<name>`), which
  JavaScript-based editors cannot compile.

Cross-record checks (dangling links, cycles, the anthology's stance) need
the whole collection and are out of reach of a JSON Schema. What still
differs, and why, is listed in `tests/ecosystem/test_schema.py`
(`KNOWN_DIFFERENCES`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pydantic.json_schema import GenerateJsonSchema

from litrec import model as m

DRAFT = "https://json-schema.org/draft/2020-12/schema"

# pydantic's lax bool accepts these words, in any case, and 0 or 1
_BOOL_WORDS = ("true", "false", "yes", "no", "on", "off", "t", "f", "y", "n", "1", "0")
_WS = r"\s*"
_INT_STR = r"[+-]?[0-9]+(?:\.0+)?"  # "2022", "-3", "2022.0"
_BOUNDS = {"ge", "gt", "le", "lt", "multiple_of"}
_FLOAT_STR = r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"  # unsigned: "1.5", "1e-10", ".5", "3."


def _any_case(word: str) -> str:
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else re.escape(c) for c in word)


def _js_pattern(pattern: str) -> str:
    """A Python regex as one both Python and ECMA 262 engines read the same way."""
    return re.sub(r"\(\?P<[A-Za-z_][A-Za-z0-9_]*>", "(?:", pattern)


def _strip_tolerant(pattern: str) -> str:
    """Accept surrounding whitespace, which the models strip before matching."""
    body = pattern[1:] if pattern.startswith("^") else ".*" + pattern
    body = body[:-1] if body.endswith("$") and not body.endswith(r"\$") else body + ".*"
    return f"^{_WS}(?:{body}){_WS}$"


def int_range_regex(lo: int, hi: int) -> str:
    """A regex (no anchors) for the decimal numerals of the integers in [lo, hi], 0 <= lo <= hi."""
    if not 0 <= lo <= hi:
        raise ValueError(f"need 0 <= lo <= hi, got {lo}, {hi}")
    parts = []
    while lo <= hi:  # split at powers of ten: numerals of one length at a time
        top = min(hi, 10 ** len(str(lo)) - 1)
        parts.append(_same_length(str(lo), str(top)))
        lo = top + 1
    return "|".join(parts)


def _same_length(lo: str, hi: str) -> str:
    """Numerals of one length from `lo` to `hi` (both that long, zero-padded)."""
    if lo == hi:
        return lo
    n = len(lo) - 1
    if n == 0 or (lo[1:] == "0" * n and hi[1:] == "9" * n):
        return _digits(lo[0], hi[0]) + _any_digits(n)
    if lo[0] == hi[0]:
        return f"{lo[0]}(?:{_same_length(lo[1:], hi[1:])})"
    parts = [f"{lo[0]}(?:{_same_length(lo[1:], '9' * n)})"]
    if int(hi[0]) - int(lo[0]) > 1:
        parts.append(_digits(str(int(lo[0]) + 1), str(int(hi[0]) - 1)) + _any_digits(n))
    parts.append(f"{hi[0]}(?:{_same_length('0' * n, hi[1:])})")
    return "|".join(parts)


def _digits(a: str, b: str) -> str:
    return a if a == b else f"[{a}-{b}]"


def _any_digits(n: int) -> str:
    return "" if n == 0 else "[0-9]" if n == 1 else f"[0-9]{{{n}}}"


class LitrecJsonSchema(GenerateJsonSchema):
    """pydantic's JSON Schema, widened to what the lax models accept from YAML."""

    strip_whitespace = True

    def bool_schema(self, schema):
        words = "|".join(_any_case(w) for w in _BOOL_WORDS)
        return {"anyOf": [{"type": "boolean"}, {"enum": [0, 1]},
                          {"type": "string", "pattern": f"^(?:{words})$"}]}

    def int_schema(self, schema):
        alts = [super().int_schema(schema)]
        bools = [b for b in (False, True) if _in_bounds(int(b), schema)]
        if bools:
            alts.append({"enum": bools})
        lo, hi = schema.get("ge"), schema.get("le")
        if not _BOUNDS & schema.keys():
            alts.append({"type": "string", "pattern": f"^{_WS}{_INT_STR}{_WS}$"})
        elif _BOUNDS & schema.keys() == {"ge", "le"} and 0 <= lo <= hi:
            digits = int_range_regex(lo, hi)
            alts.append({"type": "string",
                         "pattern": rf"^{_WS}\+?0*(?:{digits})(?:\.0+)?{_WS}$"})
        return {"anyOf": alts}

    def float_schema(self, schema):
        alts = [super().float_schema(schema)]
        bools = [b for b in (False, True) if _in_bounds(float(b), schema)]
        if bools:
            alts.append({"type": "boolean"} if len(bools) == 2 else {"enum": bools})
        inf = "|".join(_any_case(w) for w in ("infinity", "inf"))
        if not _BOUNDS & schema.keys():
            nan = _any_case("nan")
            alts.append({"type": "string",
                         "pattern": f"^{_WS}[+-]?(?:{_FLOAT_STR}|{inf}|{nan}){_WS}$"})
        elif _BOUNDS & schema.keys() == {"ge"} and schema["ge"] == 0:  # no sign but '+', or -0
            zero = r"-(?:0+\.?0*|\.0+)(?:[eE][+-]?[0-9]+)?"
            alts.append({"type": "string",
                         "pattern": f"^{_WS}(?:\\+?(?:{_FLOAT_STR}|{inf})|{zero}){_WS}$"})
        return {"anyOf": alts}

    def str_schema(self, schema):
        out = super().str_schema(schema)
        if "pattern" in out:
            pattern = _js_pattern(out["pattern"])
            out["pattern"] = _strip_tolerant(pattern) if self.strip_whitespace else pattern
        return out


def _in_bounds(x: float, schema: dict) -> bool:
    return (("ge" not in schema or x >= schema["ge"]) and ("gt" not in schema or x > schema["gt"])
            and ("le" not in schema or x <= schema["le"]) and ("lt" not in schema or x < schema["lt"]))


def _add_model_rules(schema: dict) -> None:
    """Rules of the models' validators, written in JSON Schema."""
    defs = schema.get("$defs", {})
    link = defs.get("Link")
    if link is not None:
        link["properties"]["rel"]["enum"] = list(m.RELATIONS)
    exp = defs.get("Expectation")
    if exp is not None:
        def given(name: str) -> dict:
            return {"required": [name], "properties": {name: {"not": {"type": "null"}}}}

        exp["allOf"] = [
            {"oneOf": [given("value"), given("ref")],
             "description": "exactly one right-hand side: value or ref"},
            {"if": {"required": ["op"], "properties": {"op": {"const": "≈"}}},
             "then": {"anyOf": [given("rel_tol"), given("abs_tol")]},
             "description": "op '≈' needs a tolerance: rel_tol or abs_tol"},
        ]


def schema_for(kind: str) -> dict:
    cls = m.MODELS[kind]
    gen = type("Gen", (LitrecJsonSchema,),
               {"strip_whitespace": bool(cls.model_config.get("str_strip_whitespace"))})
    schema = cls.model_json_schema(schema_generator=gen)
    schema["$schema"] = DRAFT
    schema["title"] = f"litrec {kind} record"
    id_pattern = rf"^(?:{m.ID_PATTERNS[kind]})$"
    if gen.strip_whitespace:
        id_pattern = _strip_tolerant(id_pattern)
    schema.setdefault("properties", {})["id"]["pattern"] = _js_pattern(id_pattern)
    schema["properties"]["id"]["description"] = f"the record id, e.g. {m.ID_EXAMPLES[kind]}"
    _add_model_rules(schema)
    return schema


def schema_filename(kind: str) -> str:
    return f"{kind}.schema.json"


def schema_text(kind: str) -> str:
    return json.dumps(schema_for(kind), indent=2, ensure_ascii=False) + "\n"


def write_schemas(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in m.KINDS:
        path = out / schema_filename(kind)
        text = schema_text(kind)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            tmp = path.with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
        written.append(path)
    return written
