"""How to mend what a parser or a schema refused: each error as what was found and the fix.

`explain_error` teaches pydantic's errors, for every schema litrec validates (records,
the analysis registry, imported BibTeX): an unknown field with its did-you-mean and the
fields allowed there, a missing field, a number written as text, a date with a time, a
value of the wrong form, each with what was found. `syntax_fix` adds the likely fix to a
YAML syntax error.
"""

from __future__ import annotations

import difflib
import re
import typing
from typing import Any

from pydantic import BaseModel
from pydantic_core import ErrorDetails

from litrec.util.formatting import excerpt

_UNION_TAG = re.compile(r"^(?:float|bool|int|str|date|none|list\[.*\]|dict\[.*\]|"
                        r"literal\[.*\]|function-[a-z]+\[.*\])$")


def data_loc(data: Any, loc: tuple) -> tuple:
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


def found(value: Any) -> str:
    """What was found, in a few words: a mapping, a list, or the value's excerpt."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return excerpt(repr(value), 60)


def explain_error(err: ErrorDetails, model_cls: type[BaseModel]) -> str:
    """One pydantic error of `model_cls` as what was found and how to mend it."""
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
        return f"{found(err.get('input'))} is not of the expected form (pattern {err['ctx']['pattern']})"
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
            return f"expected a number, found the text {found(inp)}; write it without quotes{hint}"
    if typ == "date_type" and inp is not None and hasattr(inp, "hour"):
        return f"expected a date without a time (YYYY-MM-DD), found {inp.isoformat()}"
    if typ == "date_type" and isinstance(inp, str):
        return f"expected a date, found the text {found(inp)}; write it as YYYY-MM-DD without quotes"
    if typ in ("union_tag_invalid", "literal_error", "enum"):
        return f"found {found(err.get('input'))}: {msg[0].lower() + msg[1:]}"
    if typ == "value_error" and (inp is None or isinstance(inp, dict)):  # the message says it all
        return msg[0].lower() + msg[1:]
    return f"{msg[0].lower() + msg[1:]}; found {found(err.get('input'))}"


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


# What a syntax error's words most often mean in a record, and how to mend it (first match wins)
_SYNTAX_FIXES = (
    ("another document", "a record file holds one document: remove the '---' and what follows, "
                         "or move it to a file of its own"),
    ("flow sequence", "close the list with ']', or quote the value if the '[' is text"),
    ("flow mapping", "close the mapping with '}', or quote the value if the '{' is text"),
    ("mapping values are not allowed", "quote the value (it holds ': '), or indent it under its key"),
    ("could not find expected ':'", "a key needs ': ' after it; quote the line if it is text"),
    ("quoted scalar", "close the quote, or double a ' inside a '...' value ('it''s')"),
    ("block end", "line the entries of one list or mapping up at one indentation, and look above "
                  "for a quote left open"),
    ("block mapping", "line the keys of one mapping up at one indentation, and look above for a "
                      "quote left open"),
    ("alias", "quote a value that starts with '*' or '&'"),
    ("anchor", "quote a value that starts with '*' or '&'"),
)


def syntax_fix(problem: str, context: str, text: str, mark: Any) -> str:
    """How to mend a YAML syntax error, from its words and the line it stopped at."""
    lines = text.splitlines()
    line = lines[mark.line] if mark is not None and 0 <= mark.line < len(lines) else ""
    head = line[: mark.column + 1] if mark is not None else ""
    if "\t" in head:
        return "a tab: YAML indents with spaces only; replace the tab with spaces"
    at = line[mark.column: mark.column + 1] if mark is not None else ""
    if at in ("`", "@"):
        return f"a value cannot start with '{at}' in YAML; quote the value"
    words = f"{problem} {context}"
    for needle, fix in _SYNTAX_FIXES:
        if needle in words:
            return fix
    return "check the indentation and the quoting at this line and the one before"
