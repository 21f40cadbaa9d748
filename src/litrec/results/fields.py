"""Checks of a stored result's fields: what litrec writes, located in the file when it is not.

`result_problem` finds the first field of a result that is not of the type
litrec writes (a bad provenance type, a figure path that leaves its folder);
`json_line` finds the line of a key in the file, for located messages.
"""

from __future__ import annotations

import json
import re
from typing import Any

RERUN = "rerun the analysis with --force to replace it"


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    return "a list" if isinstance(value, list) else "a mapping"


_TEXT = ("analysis", "title", "profile", "module", "code_hash", "litrec", "started")
_MAPPINGS = ("platform", "device", "config", "sweep", "spread", "inputs", "git")


def result_problem(data: dict) -> tuple[tuple, str] | None:
    """(field location, what is wrong) of the first field of a result that is not what litrec writes."""
    if not isinstance(data.get("metrics"), dict):
        found = "no 'metrics'" if "metrics" not in data else f"'metrics' is {_kind(data['metrics'])}"
        return ("metrics",), f"not a litrec result: {found}, not a mapping of metric names to values"
    fmt = data.get("format", 1)
    if isinstance(fmt, bool) or not isinstance(fmt, int):
        return ("format",), f"expected a whole number, found {_kind(fmt)}"
    for key in _TEXT:
        if key in data and not isinstance(data[key], str):
            return (key,), f"expected text, found {_kind(data[key])}"
    for key in _MAPPINGS:
        if key in data and not isinstance(data[key], dict):
            return (key,), f"expected a mapping, found {_kind(data[key])}"
    for key, allow_null in (("code_files", False), ("versions", True), ("dependencies", True)):
        value = data.get(key, {})
        if not isinstance(value, dict):
            return (key,), f"expected a mapping of names to text, found {_kind(value)}"
        for k, v in value.items():
            if not (isinstance(v, str) or (allow_null and v is None)):
                return (key, k), f"expected text, found {_kind(v)}"
    devices = data.get("device", {}).get("devices", [])
    if not isinstance(devices, list) or not all(isinstance(d, str) for d in devices):
        return ("device", "devices"), "expected a list of device names"
    wall = data.get("wall_time_s", 0)
    if isinstance(wall, bool) or not isinstance(wall, (int, float)):
        return ("wall_time_s",), f"expected a number of seconds, found {_kind(wall)}"
    if not isinstance(data.get("points", []), list):
        return ("points",), f"expected a list, found {_kind(data['points'])}"
    notes = data.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        return ("notes",), "expected a list of text"
    figures = data.get("figures", {})
    if not isinstance(figures, dict):
        return ("figures",), (f"expected a mapping of figure names to files, found {_kind(figures)}")
    for fig, rel in figures.items():
        why = figure_path_problem(rel)
        if why:
            return ("figures", fig), why
    return None


def figure_path_problem(rel: Any) -> str | None:
    """Why `rel` is not a figure path of a result (a relative path inside its folder), or None."""
    if not isinstance(rel, str) or not rel:
        return f"expected a file name inside the result's folder, found {_kind(rel)}"
    parts = rel.split("/")
    if rel.startswith(("/", "\\")) or "\\" in rel or ":" in parts[0] or "\0" in rel:
        return f"the figure path {rel!r} is not relative to the result's folder"
    if ".." in parts or "" in parts or "." in parts:
        return f"the figure path {rel!r} leaves the result's folder or is not plain"
    return None


def field_name(loc: tuple) -> str:
    """A location as a dotted field name: `device.devices`."""
    return ".".join(str(p) for p in loc)


def json_line(text: str, loc: tuple) -> int:
    """The line of the key at `loc` (a path of keys) in a JSON text, found by reading forward."""
    pos = 0
    for key in loc:
        match = re.compile(re.escape(json.dumps(str(key))) + r"\s*:").search(text, pos)
        if match is None:
            match = re.compile(re.escape(json.dumps(str(key), ensure_ascii=False)) + r"\s*:"
                               ).search(text, pos)
        if match is None:
            break
        pos = match.start()
    return text.count("\n", 0, pos) + 1


# ---------------------------------------------------------------- writing
