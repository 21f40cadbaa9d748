"""Teaching pydantic's errors: each schema failure as a located message that says the fix.

`validate_record` turns one parsed file into its record model, or into
diagnostics: the field's line and column, what was found, what is allowed
(with a did-you-mean), and a hint for the usual YAML traps.
"""

from __future__ import annotations

import difflib
import re
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from litrec.records import model as m
from litrec.records.kinds import ID_RE, KIND, KINDS
from litrec.util import GENERATED_PAGE_NAMES, Diagnostic, excerpt, format_field, locate


def validate_record(data: dict, root, shown: str, diags: list[Diagnostic]):
    """The record model of one parsed file, or None after adding its diagnostics."""
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in m.MODELS:
        line, col = locate(root, ("kind",)) if "kind" in data else (1, 1)
        if kind is None:
            msg = f"missing field 'kind'; add one of: {', '.join(KINDS)}"
        elif not isinstance(kind, str):
            msg = f"kind must be one word, found {_found(kind)}; write one of: {', '.join(KINDS)}"
        else:
            close = difflib.get_close_matches(str(kind), KINDS, n=1)
            hint = f" Did you mean '{close[0]}'?" if close else ""
            msg = f"unknown kind {excerpt(repr(kind), 60)}.{hint} Known kinds: {', '.join(KINDS)}"
        diags.append(Diagnostic(shown, line, col, "kind", msg, "kind", record=_rid(data)))
        return None
    try:
        return m.MODELS[kind].model_validate(data)
    except ValidationError as exc:
        seen: set[tuple] = set()
        for err in exc.errors(include_url=False):
            # a union reports each member's failure under a type tag: report the field once
            loc = _data_loc(data, err["loc"])
            if err["type"] == "missing":  # the missing field is no union tag, whatever its name
                loc = _data_loc(data, err["loc"][:-1]) + tuple(err["loc"][-1:])
            if loc in seen:
                continue
            seen.add(loc)
            line, col = locate(root, loc, key=err["type"] == "extra_forbidden")
            diags.append(Diagnostic(
                shown, line, col, format_field(loc), _explain(err, m.MODELS[kind]),
                f"schema-{err['type']}", record=_rid(data)))
        return None


_UNION_TAG = re.compile(r"^(?:float|bool|int|str|date|none|list\[.*\]|dict\[.*\]|"
                        r"literal\[.*\]|function-[a-z]+\[.*\])$")


def _data_loc(data: Any, loc: tuple) -> tuple:
    """`loc` without the union tags pydantic inserts (`float`, `date`, `function-after[...]`).

    A part is a tag only where the data holds no such key: a field named `date`
    is kept, so its errors stay at its line.
    """
    out = []
    cur: Any = data
    walked = True  # still inside the data: a scalar reached this way has no fields
    for part in loc:
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        elif isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur):
            cur = cur[part]
        elif isinstance(part, str) and (_UNION_TAG.match(part) or (
                walked and not isinstance(cur, (dict, list)))):
            continue
        else:
            cur, walked = None, False
        out.append(part)
    return tuple(out)


def _rid(data: dict) -> str | None:
    rid = data.get("id")
    return rid if isinstance(rid, str) else None


def _found(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return excerpt(repr(value), 60)


def _explain(err: ErrorDetails, model_cls: type[BaseModel]) -> str:
    typ = err["type"]
    loc = tuple(err["loc"])
    if typ == "extra_forbidden":
        name = excerpt(loc[-1])
        allowed = _fields_at(model_cls, loc[:-1])
        close = difflib.get_close_matches(name, allowed, n=1)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        return f"unknown field '{name}'.{hint} Allowed here: {', '.join(allowed)}"
    if typ == "missing":
        return f"missing required field '{loc[-1]}'; add it"
    msg = err["msg"]
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    if typ == "string_pattern_mismatch":
        return f"{_found(err.get('input'))} is not of the expected form (pattern {err['ctx']['pattern']})"
    inp = err.get("input")
    if typ in ("float_type", "int_type") and isinstance(inp, str):
        try:
            float(inp.replace("_", ""))
        except ValueError:
            pass
        else:
            hint = ""
            if re.fullmatch(r"\s*[+-]?\d+[eE][+-]?\d+\s*", inp):
                mant, _, exp = inp.strip().lower().partition("e")
                hint = f" (YAML reads an exponent without a dot as text: write {mant}.0e{exp})"
            return f"expected a number, found the text {_found(inp)}; write it without quotes{hint}"
    if typ == "date_type" and inp is not None and hasattr(inp, "hour"):
        return f"expected a date without a time (YYYY-MM-DD), found {inp.isoformat()}"
    if typ == "date_type" and isinstance(inp, str):
        return f"expected a date, found the text {_found(inp)}; write it as YYYY-MM-DD without quotes"
    if typ in ("union_tag_invalid", "literal_error", "enum"):
        return f"found {_found(err.get('input'))}: {msg[0].lower() + msg[1:]}"
    if typ == "value_error" and (inp is None or isinstance(inp, dict)):  # the message says it all
        return msg[0].lower() + msg[1:]
    return f"{msg[0].lower() + msg[1:]}; found {_found(err.get('input'))}"


def _fields_at(model_cls: Any, loc: tuple) -> list[str]:
    """Names of the fields allowed at `loc` inside `model_cls`, for did-you-mean."""
    cur: Any = model_cls
    for part in loc:
        cur = _unwrap(cur)
        if isinstance(part, int):
            args = typing.get_args(cur)
            cur = args[0] if args else None
        elif isinstance(cur, type) and issubclass(cur, BaseModel) and part in cur.model_fields:
            cur = cur.model_fields[part].annotation
        else:
            return []
    cur = _unwrap(cur)
    if isinstance(cur, type) and issubclass(cur, BaseModel):
        return list(cur.model_fields)
    return []


def _unwrap(tp: Any) -> Any:
    for _ in range(5):
        args = typing.get_args(tp)
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = args[0]
        elif origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
            rest = [a for a in args if a is not type(None)]
            tp = rest[0] if len(rest) == 1 else tp
            if len(rest) != 1:
                return tp
        else:
            return tp
    return tp


def check_id(rec, path: Path, root, shown: str, diags: list[Diagnostic]) -> None:
    """The id must be ASCII, fit its kind's pattern, not be a generated page's name and match
    the file name."""
    odd = next((ch for ch in rec.id if not ch.isascii()), None)
    if odd is not None:
        line, col = locate(root, ("id",))
        diags.append(Diagnostic(
            shown, line, col, "id",
            f"{excerpt(rec.id)!r} is not a {rec.kind} id: it holds the non-ASCII character "
            f"{odd!r} (U+{ord(odd):04X}), and ids are ASCII; expected the form "
            f"{KIND[rec.kind].example}",
            "id-pattern", record=rec.id))
    elif not ID_RE[rec.kind].match(rec.id):
        line, col = locate(root, ("id",))
        diags.append(Diagnostic(
            shown, line, col, "id",
            f"{excerpt(rec.id)!r} is not a {rec.kind} id; expected the form {KIND[rec.kind].example}",
            "id-pattern", record=rec.id))
    elif rec.id in GENERATED_PAGE_NAMES:
        line, col = locate(root, ("id",))
        diags.append(Diagnostic(
            shown, line, col, "id",
            f"id '{rec.id}' is the name of a page the site generates ({KIND[rec.kind].section}/"
            f"{rec.id}.md); choose another id", "id-pattern", record=rec.id))
    elif path.stem != rec.id:
        line, col = locate(root, ("id",))
        diags.append(Diagnostic(
            shown, line, col, "id",
            f"id '{excerpt(rec.id)}' does not match the file name '{path.name}'; "
            f"rename the file to '{excerpt(rec.id)}{path.suffix}' or fix the id",
            "id-filename", record=rec.id))


SOURCE_HINT = ("source: {kind: paper, where: 'Fig. 5', quote: 'the sentence'}, "
               "{kind: official, file: 'src/train.py', line: 307} or "
               "{kind: extension, reason: 'why litrec tests more'}")


def check_sources(rec, root, shown: str, diags: list[Diagnostic]) -> None:
    """Every expectation of a paper's claim (a literature record's) says where it comes from:
    the paper, its official code, or litrec's extension (`Expectation.source`)."""
    if rec.kind != "literature":
        return
    for i, claim in enumerate(rec.claims or ()):
        for j, e in enumerate(claim.check.expect if claim.check is not None else ()):
            if e.source is not None:
                continue
            loc = ("claims", i, "check", "expect", j)
            line, col = locate(root, loc)
            diags.append(Diagnostic(
                shown, line, col, format_field(loc),
                f"expectation '{e.describe()}' of {rec.id}#{claim.id} has no source: a paper's "
                f"claim is judged on what the paper or its code states, so say which, or mark it "
                f"litrec's own; add {SOURCE_HINT}", "missing-source", record=rec.id))
