"""Analysis results on disk: where they live, reading them, writing them whole.

A result lives at `results/<analysis>/<profile>.json`, its figures beside it in
`results/<analysis>/<profile>/`. Whether a result is current is decided in
`litrec.state`, from its fingerprint (`litrec.fingerprint`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from litrec.confine import Refused, project_root, read_file
from litrec.errors import DamagedResult


def result_path(results_dir: Path, name: str, profile: str) -> Path:
    """`results/<analysis>/<profile>.json`."""
    return Path(results_dir) / name / f"{profile}.json"


def figure_dir(results_dir: Path, name: str, profile: str) -> Path:
    """`results/<analysis>/<profile>/`, where the result's figures are."""
    return Path(results_dir) / name / profile


def stored_profiles(results_dir: Path) -> set[str]:
    """The profiles that have a stored result: `results/<analysis>/<profile>.json`."""
    try:
        return {p.stem for p in Path(results_dir).glob("*/*.json") if not p.name.startswith(".")}
    except OSError:
        return set()


def read_result(results_dir: Path, name: str, profile: str) -> dict | None:
    """The stored result, or None when there is none; DamagedResult when the file is not one.

    The message of a DamagedResult names the file, the line and the field.
    """
    path = result_path(results_dir, name, profile)
    try:
        raw = read_file(path, project_root(results_dir))
    except FileNotFoundError:
        return None
    except Refused as r:
        raise DamagedResult(f"{path}: {r.message}") from None
    except OSError as exc:
        raise DamagedResult(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DamagedResult(f"{path}:{line}: not UTF-8 (byte 0x{raw[exc.start]:02x}); "
                            f"{_RERUN}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DamagedResult(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}); "
                            f"{_RERUN}") from None
    except (ValueError, RecursionError) as exc:  # an integer too long to read, nesting too deep
        raise DamagedResult(f"{path}: not a readable result ({str(exc)[:80]}); {_RERUN}") from None
    if not isinstance(data, dict):
        raise DamagedResult(f"{path}:1: not a litrec result (the top level is not a mapping); "
                            f"{_RERUN}")
    problem = result_problem(data)
    if problem is not None:
        loc, what = problem
        raise DamagedResult(f"{path}:{json_line(text, loc)}: {_field(loc)}: {what}; {_RERUN}")
    return data


_RERUN = "rerun the analysis with --force to replace it"


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
_MAPPINGS = ("platform", "device", "config", "sweep", "spread")


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
    for key, allow_null in (("code_files", False), ("versions", True)):
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


def missing_figures(results_dir: Path, name: str, profile: str, result: dict) -> list[str]:
    """A located message for each figure `result` lists that is not on disk."""
    out = []
    text = None
    for fig, rel in (result.get("figures") or {}).items():
        if (Path(results_dir) / name / rel).is_file():
            continue
        path = result_path(results_dir, name, profile)
        if text is None:
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = ""
        out.append(f"{path}:{json_line(text, ('figures', fig))}: figures.{fig}: the figure file "
                   f"{Path(results_dir) / name / rel} is missing; rerun the analysis with --force "
                   "to draw it again")
    return out


def _field(loc: tuple) -> str:
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


def write_result(results_dir: Path, name: str, profile: str, payload: dict,
                 figures: dict[str, bytes]) -> Path:
    """Write a result and its figures so that a crash at any point leaves the old one whole.

    Figures go to a fresh temporary folder that replaces the old folder only once
    complete; the JSON is written to a temporary file and renamed over the old one.
    """
    out = result_path(results_dir, name, profile)
    out.parent.mkdir(parents=True, exist_ok=True)
    figs = figure_dir(results_dir, name, profile)
    tmp_dir = Path(tempfile.mkdtemp(prefix=f".{profile}-", dir=out.parent))
    tmp_json = None
    try:
        for fname, data in figures.items():
            (tmp_dir / fname).write_bytes(data)
        text = json.dumps(payload, indent=2, sort_keys=False, default=_json_default) + "\n"
        fd, tmp_json = tempfile.mkstemp(prefix=f".{profile}-", suffix=".json", dir=out.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        old = None
        if figs.exists():
            old = out.parent / f".{profile}-old-{os.getpid()}"
            figs.rename(old)
        tmp_dir.rename(figs)
        os.replace(tmp_json, out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if tmp_dir.exists():
            shutil.rmtree(tmp_dir, ignore_errors=True)
        if tmp_json is not None and os.path.exists(tmp_json):
            os.unlink(tmp_json)
    return out


def _json_default(obj: Any):
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if hasattr(obj, "isoformat"):
        return obj.isoformat()
    return str(obj)
