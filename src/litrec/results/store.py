"""Analysis results on disk: where they live, reading them, writing them whole, locking them.

A result lives at `results/<analysis>/<profile>.json`, its figures in the
folder its `figures` entries point into, `results/<analysis>/<profile>/` once
written. Whether a result is current is decided in `litrec.results.state`, from its
inputs (`litrec.analyses.inputs`).

A result and its figures change as one: the JSON only ever points into a
complete folder of figures, and a folder is removed only once no JSON points
into it (`write_result`). So a run killed at any moment leaves the old result
or the new one, each with its own figures, never new numbers with old figures.
A run holds `results/<analysis>/.litrec-lock` (`locked`) while it computes and
writes, so two runs of one analysis never interleave; the file goes when the run ends.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from litrec.analyses.contract import FIGURE_NAME_FIX, figure_name_problem
from litrec.results.fields import RERUN, field_name, json_line, result_problem
from litrec.util import jsonread
from litrec.util.atomic import fresh_dir, fresh_name, replace_file, sync_dir, write_new
from litrec.util.confine import Refused, project_root, read_file
from litrec.util.errors import ContractError, DamagedResult, ResultsLocked, ResultsUnwritable
from litrec.util.formatting import excerpt
from litrec.util.lockfile import acquire

LOCK = ".litrec-lock"


def result_path(results_dir: Path, name: str, profile: str) -> Path:
    """`results/<analysis>/<profile>.json`."""
    return Path(results_dir) / name / f"{profile}.json"


def figure_dir(results_dir: Path, name: str, profile: str) -> Path:
    """`results/<analysis>/<profile>/`, where a result's figures settle once written."""
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
                            f"{RERUN}") from None
    try:
        data = jsonread.loads(text)
    except json.JSONDecodeError as exc:
        raise DamagedResult(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}); "
                            f"{RERUN}") from None
    except (ValueError, RecursionError) as exc:  # an integer too long to read, nesting too deep
        raise DamagedResult(f"{path}: not a readable result ({str(exc)[:80]}); {RERUN}") from None
    if not isinstance(data, dict):
        raise DamagedResult(f"{path}:1: not a litrec result (the top level is not a mapping); "
                            f"{RERUN}")
    problem = result_problem(data)
    if problem is not None:
        loc, what = problem
        raise DamagedResult(f"{path}:{json_line(text, loc)}: {field_name(loc)}: {what}; {RERUN}")
    return data


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


def write_result(results_dir: Path, name: str, profile: str, payload: dict,
                 figures: dict[str, bytes]) -> Path:
    """Write a result and its figures as one: a crash at any point leaves the old or the new
    result, each with its own figures. The caller holds `locked(results_dir, name)`.

    The payload's figure paths start with `<profile>/`. Changed figures are written to a
    new folder `<profile>.new-*`; the JSON, pointing there, replaces the old one in one
    rename; only then are the old figures removed, the new ones linked into `<profile>/`
    and the JSON rewritten to point there. Unchanged figures are left as they are.

    A figure's file name that would lead out of `<profile>/` (a folder, `..`, an absolute
    path: `litrec.analyses.contract.figure_name_problem`) is a ContractError naming the analysis, the
    name and the fix, before anything is written or replaced.
    """
    for fname in figures:
        why = figure_name_problem(fname)
        if why is not None:
            raise ContractError(f"analysis '{name}' drew a figure whose file would be "
                                f"{excerpt(repr(fname), 80)}: {why}; {FIGURE_NAME_FIX}. Nothing "
                                "was written: the stored result is as it was")
    folder = Path(results_dir) / name
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{profile}.json"
    figs = folder / profile
    _tidy(folder, profile, keep=_pointed_to(out))
    if not figures or _holds(figs, figures):
        _write_json(out, payload, profile)
        if not figures:
            _discard(figs, profile)
        _tidy(folder, profile, keep=set())
        return out
    new = fresh_dir(folder, f"{profile}.new-")
    try:
        for fname, data in figures.items():
            write_new(new / fname, data)
        sync_dir(new)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    _write_json(out, _pointing(payload, profile, new.name), profile)  # the new result, whole
    _discard(figs, profile)  # the old figures: no JSON points there any more
    stage = fresh_dir(folder, f".{profile}-stage-")
    for fname in figures:
        _link(new / fname, stage / fname)
    sync_dir(stage)
    os.rename(stage, figs)
    _write_json(out, payload, profile)
    _tidy(folder, profile, keep=set())
    return out


def _write_json(out: Path, payload: dict, profile: str) -> None:
    text = json.dumps(payload, indent=2, sort_keys=False, default=_json_default) + "\n"
    replace_file(out, text.encode("utf-8"), prefix=f".{profile}-")


def _pointing(payload: dict, profile: str, folder: str) -> dict:
    """The payload with its figure paths moved from `<profile>/` to `folder/`."""
    figs = payload.get("figures")
    if not isinstance(figs, dict):
        return payload
    moved = {k: f"{folder}/{v[len(profile) + 1:]}" if isinstance(v, str)
             and v.startswith(f"{profile}/") else v for k, v in figs.items()}
    return {**payload, "figures": moved}


def _pointed_to(out: Path) -> set[str]:
    """The folders the stored result's figure paths point into."""
    try:
        data = jsonread.loads(out.read_bytes())
    except (OSError, ValueError):
        return set()
    figs = data.get("figures") if isinstance(data, dict) else None
    return {str(v).split("/", 1)[0] for v in figs.values()} if isinstance(figs, dict) else set()


def _tidy(folder: Path, profile: str, keep: set[str]) -> None:
    """Remove what an interrupted write of this result left, except what the JSON points to."""
    for path in folder.iterdir():
        left = path.name.startswith((f".{profile}-", f"{profile}.new-"))
        if left and path.name not in keep and path.name != LOCK:
            _remove(path)


def _discard(figs: Path, profile: str) -> None:
    """Take an old figures folder away in one rename, then delete it."""
    if not os.path.lexists(figs):
        return
    gone = fresh_name(figs.parent, f".{profile}-old-")
    os.rename(figs, gone)
    _remove(gone)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            path.unlink()
        except OSError:
            pass


def _holds(figs: Path, figures: dict[str, bytes]) -> bool:
    """Whether the folder holds exactly these figures, byte for byte."""
    if figs.is_symlink() or not figs.is_dir():
        return False
    try:
        return ({p.name for p in figs.iterdir()} == set(figures)
                and all((figs / n).read_bytes() == data for n, data in figures.items()))
    except OSError:
        return False


def _link(src: Path, dest: Path) -> None:
    try:
        os.link(src, dest)
    except OSError:  # a file system without hard links
        write_new(dest, src.read_bytes())


def keep_elsewhere(name: str, profile: str, payload: dict, figures: dict[str, bytes]) -> Path:
    """Save a result that could not be written to results/ in a new temporary folder; its JSON."""
    base = Path(tempfile.mkdtemp(prefix=f"litrec-{name}-{profile}-"))
    (base / profile).mkdir()
    for fname, data in figures.items():
        write_new(base / profile / fname, data)
    out = base / f"{profile}.json"
    _write_json(out, payload, profile)
    return out


def write_error_log(results_dir: Path, name: str, profile: str, text: str) -> Path:
    """Keep a failed run's traceback at `<profile>.error.log`, or in a temporary file when the
    results folder cannot be written; the path it went to."""
    log = result_path(results_dir, name, profile).with_suffix(".error.log")
    try:
        replace_file(log, text.encode("utf-8"))
        return log
    except OSError:
        fd, tmp = tempfile.mkstemp(prefix=f"litrec-{name}-{profile}-", suffix=".error.log")
        with open(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        return Path(tmp)


def _json_default(obj: Any):
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if hasattr(obj, "isoformat"):
        return obj.isoformat()
    return str(obj)


# ---------------------------------------------------------------- locking


@contextmanager
def locked(results_dir: Path, name: str) -> Iterator[Path]:
    """Check that `results/<name>/` can be written and hold its lock; yields the folder.

    ResultsUnwritable when it cannot be written (before anything is computed),
    ResultsLocked when another run holds it.
    """
    folder = Path(results_dir) / name
    lock = folder / LOCK
    created = not os.path.lexists(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = fresh_name(folder, ".litrec-probe-")
        write_new(probe, b"")
        probe.unlink()
        fd = _lock(lock, name)
    except OSError as exc:
        raise ResultsUnwritable(f"cannot write results to '{folder}': {_why(exc, folder)}; make "
                                "it a writable folder (or choose another with --results) and "
                                "run again; nothing was computed") from None
    try:
        yield folder
    finally:
        try:
            os.unlink(lock)  # still held: a run waiting on this file sees it went, and retries
            if created:
                folder.rmdir()  # only when nothing was written in it
        except OSError:
            pass
        os.close(fd)


def _lock(lock: Path, name: str) -> int:
    """Open and lock the lock file (the file that is there now, not one just removed:
    `litrec.util.lockfile`); ResultsLocked at once when another run holds it."""
    fd = acquire(lock)
    if fd is None:
        raise ResultsLocked(f"another litrec run is running '{name}' (it holds {lock}); "
                            "wait for it to finish, then run again")
    return fd


def _why(exc: OSError, folder: Path) -> str:
    """Why a folder cannot be written, in words."""
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        for p in [folder, *folder.parents]:
            if os.path.lexists(p) and not p.is_dir():
                return f"'{p}' is a file, not a folder"
    return exc.strerror or str(exc)
