"""Analysis results on disk: where they live, reading them, writing them whole.

A result lives at `results/<analysis>/<profile>.json`, its figures beside it in
`results/<analysis>/<profile>/`. Whether a result is current is decided in
`litrec.state`, from its fingerprint (`litrec.fingerprint`).
"""

from __future__ import annotations

import json
import os
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


def read_result(results_dir: Path, name: str, profile: str) -> dict | None:
    """The stored result, or None when there is none; DamagedResult when the file is not one."""
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
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise DamagedResult(f"{path}: not valid JSON ({exc}); rerun the analysis with "
                            f"--force to replace it") from None
    if not isinstance(data, dict) or not isinstance(data.get("metrics"), dict):
        raise DamagedResult(f"{path}: not a litrec result (no 'metrics' mapping); rerun the "
                            "analysis with --force to replace it")
    return data


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
