"""JSON Schemas of the record kinds, generated from the pydantic models.

Editors that speak the YAML language server protocol validate and complete a
record when its first line names the schema:

    # yaml-language-server: $schema=../../schema/literature.schema.json

A schema says what `litrec validate` accepts of one record on its own, no more
and no less, so an editor and the validator agree. The models are strict: a
boolean is `true` or `false`, a number is a number (an integer where a float
is asked for, never a string or a boolean), a date is an unquoted YAML date,
and pydantic's own JSON Schema says just that. The generator below adds what
pydantic's schema cannot see:

- the relation names of `Link.rel` and what each operator asks of an
  expectation: exactly one right-hand side, or low, high and position, and a
  tolerance for `≈` (pydantic validators, invisible to pydantic's schema,
  written here from the operators' rows, `litrec.records.operators`);
- the id pattern of the kind (checked by the loader, not by the model);
- surrounding whitespace in patterned strings (the models strip it first);
- that numbers are finite (the models refuse infinities and NaN; a schema can
  bound a number, so infinities are refused, but it cannot see a NaN);
- that an expectation's `value` and `ref` are never null, and that a boolean
  `value` is compared with `==` or `≈` only;
- regular expressions without Python-only syntax (`(?P<name>`), which
  JavaScript-based editors cannot compile.

Cross-record checks (dangling links, cycles, the anthology's stance) need
the whole collection and are out of reach of a JSON Schema. Some values an
editor cannot tell apart although the validator can (a quoted date and an
unquoted one; PyYAML reads YAML 1.1, editors YAML 1.2, so `yes` and `1e-10`
differ between them). What still differs, and why, is listed in
`tests/ecosystem/test_schema.py` (`KNOWN_DIFFERENCES`).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from pydantic.json_schema import GenerateJsonSchema

from litrec.records import model as m
from litrec.records.kinds import KIND, KINDS
from litrec.records.operators import OPERATORS, POSITION_RE, POSITIONAL, RIGHT_HAND, boolean_ops
from litrec.util.confine import Refused, read_regular

DRAFT = "https://json-schema.org/draft/2020-12/schema"
FLOAT_MAX = 1.7976931348623157e308  # the largest finite float: beyond it, an infinity
SCHEMA_BYTES = 1 << 22  # a file larger is no schema litrec wrote (each is under 64 KiB): not read


def _js_pattern(pattern: str) -> str:
    """A Python regex as one both Python and ECMA 262 engines read the same way."""
    return re.sub(r"\(\?P<[A-Za-z_][A-Za-z0-9_]*>", "(?:", pattern)


def _strip_tolerant(pattern: str) -> str:
    """Accept surrounding whitespace, which the models strip before matching."""
    body = pattern[1:] if pattern.startswith("^") else ".*" + pattern
    body = body[:-1] if body.endswith("$") and not body.endswith(r"\$") else body + ".*"
    return rf"^\s*(?:{body})\s*$"


class LitrecJsonSchema(GenerateJsonSchema):
    """pydantic's JSON Schema, with patterns an editor can compile and that allow for stripping."""

    strip_whitespace = True

    def float_schema(self, schema):
        """A float field: finite, as the models ask (`allow_inf_nan=False`)."""
        out = super().float_schema(schema)
        if not any(k in out for k in ("minimum", "exclusiveMinimum")):
            out["minimum"] = -FLOAT_MAX
        if not any(k in out for k in ("maximum", "exclusiveMaximum")):
            out["maximum"] = FLOAT_MAX
        return out

    def str_schema(self, schema):
        """A string field, with the pattern pydantic checks."""
        out = super().str_schema(schema)
        if "pattern" in out:
            pattern = _js_pattern(out["pattern"])
            out["pattern"] = _strip_tolerant(pattern) if self.strip_whitespace else pattern
        return out


def _add_model_rules(schema: dict) -> None:
    """Rules of the models' validators, written in JSON Schema."""
    defs = schema.get("$defs", {})
    link = defs.get("Link")
    if link is not None:
        link["properties"]["rel"]["enum"] = list(m.RELATIONS)
    exp = defs.get("Expectation")
    if exp is not None:
        for name in RIGHT_HAND:  # written out, never null
            prop = exp["properties"][name]
            kept = [t for t in prop.pop("anyOf", []) if t.get("type") != "null"]
            prop.update(kept[0] if len(kept) == 1 else {"anyOf": kept})
            prop.pop("default", None)
        exp["allOf"] = _operator_rules()


def _given(name: str) -> dict:
    """The condition that field `name` is written out, and not null."""
    return {"required": [name], "properties": {name: {"not": {"type": "null"}}}}


def _op_is(names: list[str]) -> dict:
    """The condition that an expectation's `op` is one of `names`."""
    return {"required": ["op"],
            "properties": {"op": {"const": names[0]} if len(names) == 1 else {"enum": names}}}


def _operator_rules() -> list[dict]:
    """What each operator's row (`litrec.records.operators`) asks of an expectation: the
    fields it reads (the positional operators low, high and position; every other exactly one
    right-hand side), the fields of which it needs one, and which operators compare booleans."""
    positional = [o.name for o in OPERATORS if o.positional]
    named = " or ".join(f"op '{n}'" for n in positional)
    rules: list[dict] = [
        {"if": _op_is(positional),
         "then": {"required": list(POSITIONAL),
                  "not": {"anyOf": [{"required": [k]} for k in RIGHT_HAND]},
                  "properties": {"position": {"pattern": POSITION_RE.pattern}}},
         "else": {"oneOf": [_given(k) for k in RIGHT_HAND],
                  "properties": {k: {"type": "null"} for k in POSITIONAL}},
         "description": f"{named} takes low, high and position; every other op "
                        f"exactly one right-hand side: {' or '.join(RIGHT_HAND)}"}]
    rules += [{"if": _op_is([o.name]), "then": {"anyOf": [_given(k) for k in o.needs_one_of]},
               "description": o.needs} for o in OPERATORS if o.needs_one_of]
    booleans = boolean_ops()
    rules.append({"if": {"required": ["value"], "properties": {"value": {"type": "boolean"}}},
                  "then": {"properties": {"op": {"enum": booleans}}},
                  "description": "a boolean value is compared with "
                                 f"{' or '.join(repr(n) for n in booleans)} only"})
    return rules


def schema_for(kind: str) -> dict:
    """The JSON Schema of one record kind."""
    cls = m.MODELS[kind]

    class Gen(LitrecJsonSchema):  # as this kind's model strips its strings, or not
        strip_whitespace = bool(cls.model_config.get("str_strip_whitespace"))

    schema = cls.model_json_schema(schema_generator=Gen)
    schema["$schema"] = DRAFT
    schema["title"] = f"litrec {kind} record"
    id_pattern = rf"^(?:{KIND[kind].pattern})$"
    if Gen.strip_whitespace:
        id_pattern = _strip_tolerant(id_pattern)
    schema.setdefault("properties", {})["id"]["pattern"] = _js_pattern(id_pattern)
    schema["properties"]["id"]["description"] = f"the record id, e.g. {KIND[kind].example}"
    _add_model_rules(schema)
    return schema


def schema_filename(kind: str) -> str:
    """`<kind>.schema.json`."""
    return f"{kind}.schema.json"


def schema_text(kind: str) -> str:
    """The schema of one kind as the committed file holds it."""
    return json.dumps(schema_for(kind), indent=2, ensure_ascii=False) + "\n"


def _ours(path: Path, kind: str) -> bool:
    """Whether `path` may be replaced by `kind`'s schema: nothing there, an empty file, or a
    schema litrec wrote for that kind (any version: its title says so). Never a link, a FIFO or
    another file, which are not litrec's to replace."""
    if not os.path.lexists(path):
        return True
    if path.is_symlink():
        return False
    try:
        raw = read_regular(path, limit=SCHEMA_BYTES)  # TooLarge (Refused) past it
        doc = json.loads(raw.decode("utf-8")) if raw.strip() else None
    except (Refused, OSError, ValueError):
        return False
    return doc is None or (isinstance(doc, dict) and doc.get("title") == f"litrec {kind} record")


def write_schemas(out: Path) -> list[Path]:
    """Write every kind's schema into a folder; return the paths. `UsageError`, with nothing
    written, where a file of a schema's name is there that litrec did not write."""
    theirs = [out / schema_filename(k) for k in KINDS if not _ours(out / schema_filename(k), k)]
    if theirs:
        from litrec.util.errors import UsageError

        names = ", ".join(f"'{p}'" for p in theirs)
        raise UsageError(f"{names} {'is a file' if len(theirs) == 1 else 'are files'} litrec did not "
                         "write (not a litrec schema), and litrec replaces only its own: move "
                         f"{'it' if len(theirs) == 1 else 'them'} away, or give another folder; "
                         "nothing was written")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in KINDS:
        path = out / schema_filename(kind)
        text = schema_text(kind)
        try:
            same = read_regular(path) == text.encode("utf-8")
        except (Refused, OSError):
            same = False
        if not same:
            tmp = out / f".{path.name}.{os.getpid()}.tmp"  # O_EXCL: never through a link
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, path)
        written.append(path)
    return written
