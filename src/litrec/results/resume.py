"""Runs that survive an interruption: finished points kept as sealed partial results, and
the training checkpoints of the point that was running.

A sweep (a profile's seeds, or any SWEEP) keeps each finished point as a
sealed file `results/<analysis>/<profile>.partial/<point>.json` (e.g.
`seed-3.json`): its metrics, noise, notes and figures, the key of its inputs
and a content hash. A rerun of the same analysis and profile takes every
point whose file is whole and whose key is unchanged from there and runs only
the others; once the result is written the folder goes (checkpoints too). These files may be
committed, so that another session (or machine) continues the run.

As it starts, a run says in the same folder what it computes from: `run.json`
holds the inputs its result will be stored with (`Inputs.header`), how many
points it has, and its sitting (when, host, commit), sealed. With it, `litrec
status` can tell a result whose rerun at the present inputs is under way (marked by such
a run, with the points it kept and the trainings it checkpointed: `under_way`) from one
nobody reran, and `status --check-current --under-way` lets the first pass while the
run goes on over several sessions.

While a point runs, its analysis may keep training checkpoints in
`results/<analysis>/<profile>.partial/checkpoints/<key>/` (the folder is
handed to it in the environment variable `LITREC_CHECKPOINT_DIR`; the
project's `analysis.lib.train.train` uses it): a rerun of the point continues each
training from its last checkpoint with the same numbers; once the point is
kept whole, its checkpoints go. They sit beside the finished points so that
they too can be committed: a run of hours goes on in the next session from
where the last one stopped (the key holds the instruction set, so only on a
machine of the same kind; elsewhere the point starts afresh and the
checkpoints of the other machine stay).

The key of a point hashes what its numbers depend on: the analysis's code
files and their hashes, the installed versions of the packages it imports,
the profile's configuration with the point's overrides, the Python version,
the machine's architecture and the key of every other input of the result
(declared data, numerics environment, instruction set: `litrec.analyses.inputs`;
the runner passes it in). `--force` recomputes from scratch: it neither reads
nor keeps partial results, and starts every training afresh.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import platform
import shutil
import sys
from pathlib import Path

from litrec.results.seal import canonical, seal
from litrec.util import jsonread
from litrec.util.atomic import replace_file
from litrec.util.canonical import canonical_digest

DIR_VARIABLE = "LITREC_CHECKPOINT_DIR"
SECONDS_VARIABLE = "LITREC_CHECKPOINT_SECONDS"  # read by the analysis: seconds between checkpoints
PARTIAL = ".partial"
CHECKPOINTS = "checkpoints"  # in the partial folder: one folder per point key
RUN = "run.json"  # in the partial folder: the inputs of the run that keeps points there (no point's name)
FORMAT = 1


def point_key(module: str, profile: str, config: dict, overrides: dict, seeds,
              code_files: dict | None, versions: dict | None) -> str:
    """The hash of a point's inputs (see the module docstring)."""
    data = {"format": FORMAT, "module": module, "profile": profile, "config": config,
            "overrides": overrides, "seeds": list(seeds) if seeds is not None else None,
            "code_files": code_files, "versions": versions,
            "python": list(sys.version_info[:3]), "machine": platform.machine()}
    return canonical_digest(data, ascii=True, default=str)  # as kept points were keyed


def checkpoint_dir(results_dir: str | Path, name: str, profile: str, key: str) -> str | None:
    """Where a point's trainings keep their checkpoints: `checkpoints/<key>/` in the run's
    partial folder (the rest made by the analysis when it first writes one), so that they can
    be committed beside the finished points and another session continues the run; None
    when a folder on the way is a symbolic link (nothing is written, or removed, through it)."""
    folder = partial_dir(Path(results_dir), name, profile) / CHECKPOINTS / key[:32]
    on_the_way = [Path(results_dir), Path(results_dir) / name, folder.parent.parent, folder.parent, folder]
    return None if any(p.is_symlink() for p in on_the_way) else str(folder)


class checkpoint_env:
    """While open, `LITREC_CHECKPOINT_DIR` names `folder` (nothing when None); then as before."""

    def __init__(self, folder: str | None):
        self.folder = folder

    def __enter__(self):
        self.saved = os.environ.get(DIR_VARIABLE)
        if self.folder is not None:
            os.environ[DIR_VARIABLE] = self.folder
        else:
            os.environ.pop(DIR_VARIABLE, None)
        return self

    def __exit__(self, *exc):
        if self.saved is None:
            os.environ.pop(DIR_VARIABLE, None)
        else:
            os.environ[DIR_VARIABLE] = self.saved
        return False


def partial_dir(results_dir: Path, name: str, profile: str) -> Path:
    """`results/<analysis>/<profile>.partial/`."""
    return Path(results_dir) / name / f"{profile}{PARTIAL}"


def point_file(overrides: dict) -> str:
    """The file name of a point: `seed-3.json`, `seed-0_N-20.json`."""
    parts = ["-".join("".join(c if c.isalnum() or c in ".+" else "_" for c in str(x))
                      for x in (k, v)) for k, v in overrides.items()]
    return ("_".join(parts) or "point") + ".json"


def sitting(root: Path) -> dict:
    """When, where and from which commit a point was computed: kept with it, and shown on the
    result it goes into (`points[i].kept`), so a seed from an earlier sitting is evidence
    whose origin anyone can see, not trust. The seal of a partial file is a hash anyone can
    recompute: it proves the file is whole, not who computed it."""
    import datetime as dt
    import socket

    from litrec.util.git import head_of

    return {"when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "host": socket.gethostname(), "commit": head_of(root)}


def keep(results_dir: Path, name: str, profile: str, overrides: dict, key: str, out: dict) -> None:
    """Keep one finished point's output, sealed, written whole."""
    folder = partial_dir(results_dir, name, profile)
    folder.mkdir(parents=True, exist_ok=True)
    body = {**out, "figures": {k: v.decode("utf-8") for k, v in (out.get("figures") or {}).items()}}
    data = seal({"format": FORMAT, "analysis": name, "profile": profile, "overrides": overrides,
                 "key": key, "output": body, "sitting": sitting(Path(results_dir).parent)},
                {}, default=str)
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    replace_file(folder / point_file(overrides), text.encode("utf-8"))


def kept(results_dir: Path, name: str, profile: str, overrides: dict, key: str) -> dict | None:
    """The kept output of a point (figures as bytes), or None: missing, damaged, edited, or
    computed from other inputs (then it is run again and the file replaced)."""
    path = partial_dir(results_dir, name, profile) / point_file(overrides)
    try:
        if path.is_symlink():
            return None
        data = jsonread.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict) or data.get("key") != key or data.get("overrides") != overrides:
        return None
    if data.get("content_hash") != hashlib.sha256(canonical(data)).hexdigest():
        return None
    out = data.get("output")
    if not isinstance(out, dict) or not isinstance(out.get("metrics"), dict):
        return None
    sitting = data.get("sitting")
    where = sitting if isinstance(sitting, dict) else {}
    return {**out, "figures": {k: str(v).encode("utf-8") for k, v in (out.get("figures") or {}).items()},
            "sitting": {k: str(where.get(k)) if where.get(k) is not None else None
                        for k in ("when", "host", "commit")}}


def sitting_place(where) -> str | None:
    """`commit 1a2b3c4d on host7, 2026-12-05T14:41:02+00:00`: the sitting that computed a kept
    point (`where`, as `sitting` recorded it); None when it was kept before sittings were recorded."""
    where = where if isinstance(where, dict) else {}
    if not where.get("when"):
        return None
    commit = f"commit {str(where['commit'])[:8]}" if where.get("commit") else "no git commit"
    return f"{commit} on {where.get('host')}, {where.get('when')}"


def point_words(overrides: dict) -> str:
    """`seed 3`, `seed 0, N 20`: a point of a sweep by its overrides."""
    return ", ".join(f"{k} {v}" for k, v in (overrides or {}).items()) or "the point"


def sitting_words(overrides: dict, where) -> str:
    """`seed 3 from an earlier sitting (commit 1a2b3c4d on host7, 2026-12-05T14:41:02+00:00)`."""
    point = point_words(overrides)
    place = sitting_place(where)
    if place is None:
        return f"{point} (kept before litrec recorded sittings: when and where unknown)"
    return f"{point} from an earlier sitting ({place})"


def kept_points(result: dict) -> list[tuple[dict, dict | None]]:
    """The points of a stored result that were kept from an earlier sitting, not computed by
    the run that wrote it: (their overrides, the sitting that computed them, None where the
    result does not say, as in results from before litrec recorded sittings)."""
    points = result.get("points") if isinstance(result, dict) else None
    if not isinstance(points, list):
        return []
    out = []
    for p in points:
        if isinstance(p, dict) and p.get("kept"):
            given, kept = p.get("overrides"), p["kept"]
            out.append((given if isinstance(given, dict) else {}, kept if isinstance(kept, dict) else None))
    return out


def point_unit(result: dict) -> str:
    """`seed` for a result whose points each vary the seed alone, else `point`."""
    points = result.get("points") if isinstance(result, dict) else None
    return "seed" if isinstance(points, list) and all(
        isinstance(p, dict) and list(p.get("overrides") or {}) == ["seed"] for p in points) else "point"


def kept_summary(result: dict) -> dict | None:
    """What a result built partly from kept points says of them (None when it holds none):
    `summary`, `2 of 3 seeds kept from an earlier sitting (commit 1a2b3c4d, host h7)`, and
    `points`, each kept point's overrides and sitting (`when`, `host`, `commit`; null where
    unrecorded). Shown by `litrec status --verbose`, the site and `export json`."""
    held = kept_points(result)
    if not held:
        return None
    points = result["points"]
    unit = point_unit(result)
    places = list(dict.fromkeys(
        (f"commit {str(w['commit'])[:8]}" if w.get("commit") else "no git commit") + f", host {w.get('host')}"
        if w and w.get("when") else "kept before litrec recorded sittings: when and where unknown"
        for _, w in held))
    known = "; ".join(places)
    many = "earlier sittings" if len(places) > 1 else "an earlier sitting"
    summary = f"{len(held)} of {len(points)} {unit}{'s' * (len(points) != 1)} kept from {many} ({known})"
    return {"summary": summary,
            "points": [{"overrides": o, **{k: (w or {}).get(k) for k in ("when", "host", "commit")}}
                       for o, w in held]}


def progress(results_dir: Path, name: str, profile: str) -> tuple[int, int]:
    """(finished points kept, points with training checkpoints) of an interrupted run, as the
    files say (whether a rerun can use them depends on their keys: the inputs of now)."""
    folder = partial_dir(Path(results_dir), name, profile)
    try:
        if folder.is_symlink() or not folder.is_dir():
            return 0, 0
        kept = sum(1 for f in folder.glob("*.json") if f.is_file() and not f.is_symlink() and f.name != RUN)
        held = folder / CHECKPOINTS
        training = 0 if held.is_symlink() or not held.is_dir() else sum(
            1 for d in held.iterdir() if d.is_dir() and not d.is_symlink() and any(d.glob("*.npz")))
    except OSError:
        return 0, 0
    return kept, training


def drop(results_dir: Path, name: str, profile: str) -> None:
    """Remove the partial results once the whole result is written."""
    shutil.rmtree(partial_dir(results_dir, name, profile), ignore_errors=True)


def mark(results_dir: Path, name: str, profile: str, header: dict, keys: list[str]) -> None:
    """Say in the partial folder which inputs the run starting now computes from (`header`:
    `litrec.analyses.Inputs.header`) and the keys of its points; sealed, written whole. Nothing
    is written through a symbolic link, and a folder that cannot be written is left as it is
    (the run goes on; only `status` cannot tell that it is under way)."""
    folder = partial_dir(Path(results_dir), name, profile)
    if any(p.is_symlink() for p in (Path(results_dir) / name, folder, folder / RUN)):
        return
    data = seal({"format": FORMAT, "analysis": name, "profile": profile, "keys": list(keys),
                 "header": header, "sitting": sitting(Path(results_dir).parent)}, {}, default=str)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        replace_file(folder / RUN, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode("utf-8"))
    except OSError:
        return


@dataclasses.dataclass(frozen=True)
class UnderWay:
    """A run of a result that started and left work in its partial folder: the inputs it
    computes from (a result's header, for `Inputs.matches`), its points, those kept whole
    and those whose trainings are checkpointed, and where it started."""

    header: dict
    points: int | None
    kept: int
    training: int
    sitting: dict

    def words(self) -> str:
        """`2 of 5 points done, 1 training checkpointed; started commit 1a2b3c4d on host7, 2026-...`."""
        total = f" of {self.points}" if isinstance(self.points, int) else ""
        done = [f"{self.kept}{total} point{'s' * ((self.points or self.kept) != 1)} done" if self.kept else "",
                f"{self.training} training{'s' * (self.training != 1)} checkpointed" if self.training else ""]
        waiting = f"none of its {self.points} point{'s' * (self.points != 1)} done yet" if self.points else ""
        said = ", ".join(d for d in done if d) or waiting or "nothing done yet"
        place = sitting_place(self.sitting)
        return said + (f"; started {place}" if place else "")


def under_way(results_dir: Path, name: str, profile: str) -> UnderWay | None:
    """The run that marked the partial folder of `name`'s `profile` as it started, with what it
    has done there (points kept, trainings checkpointed: those of other inputs left in the folder
    do not count), or None: no marker, or one that does not read or whose seal is broken. A run
    of several analyses marks each as it starts, so one whose points wait for a worker is under
    way too. Whether it is a rerun of the present inputs is the caller's to decide
    (`Inputs.matches` on its header)."""
    folder = partial_dir(Path(results_dir), name, profile)
    try:
        if folder.is_symlink() or (folder / RUN).is_symlink() or not (folder / RUN).is_file():
            return None
        data = jsonread.loads((folder / RUN).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict) or data.get("content_hash") != hashlib.sha256(canonical(data)).hexdigest():
        return None
    header, keys = data.get("header"), data.get("keys")
    if (not isinstance(header, dict) or not isinstance(keys, list) or data.get("analysis") != name
            or data.get("profile") != profile):
        return None
    kept, training = _its_work(folder, {str(k) for k in keys})
    where = data.get("sitting")
    return UnderWay(header, len(keys), kept, training, where if isinstance(where, dict) else {})


def _its_work(folder: Path, keys: set[str]) -> tuple[int, int]:
    """(points kept, trainings checkpointed) in the partial folder under one of `keys`."""
    kept = training = 0
    try:
        for f in folder.glob("*.json"):
            if f.name == RUN or f.is_symlink() or not f.is_file():
                continue
            try:
                data = jsonread.loads(f.read_text(encoding="utf-8"))
            except (OSError, ValueError, UnicodeDecodeError):
                continue
            kept += isinstance(data, dict) and data.get("key") in keys
        held = folder / CHECKPOINTS
        if held.is_dir() and not held.is_symlink():
            short = {k[:32] for k in keys}
            training = sum(1 for d in held.iterdir()
                           if d.name in short and d.is_dir() and not d.is_symlink() and any(d.glob("*.npz")))
    except OSError:
        return 0, 0
    return kept, training


def unmark(results_dir: Path, name: str, profile: str) -> None:
    """Take back the marker of a run that failed having done nothing there (no point kept, no
    training checkpointed under its keys), and the partial folder when that leaves it empty:
    a failure leaves no run under way behind. Only what `mark` wrote goes."""
    folder = partial_dir(Path(results_dir), name, profile)
    run = under_way(results_dir, name, profile)
    if run is None or run.kept or run.training:
        return
    try:
        (folder / RUN).unlink()
        held = folder / CHECKPOINTS  # made empty for the sandbox's binds (litrec.runs.sandbox)
        if held.is_dir() and not held.is_symlink() and not any(held.iterdir()):
            held.rmdir()
        if not any(folder.iterdir()):
            folder.rmdir()
    except OSError:
        return
