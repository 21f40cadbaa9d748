"""The two sides `litrec diff` compares, and where each side's results are read from.

A side is a commit (`rev`; None for the working tree) and a profile (`Side`); `sides` turns
the command's revisions and profiles into the two, and `read_result` reads one analysis's
result on a side: the file in the working tree, or `git show REV:results/<analysis>/<profile>.json`
of the repository that holds the results folder (`check_rev` first makes sure REV is a commit).
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from litrec.results.store import result_path
from litrec.util import jsonread
from litrec.util.errors import UsageError

WORKING = "working tree"


@dataclass(frozen=True)
class Side:
    """Where one side's results come from: a commit (None: the working tree) and a profile."""

    rev: str | None
    profile: str

    @property
    def label(self) -> str:
        """`HEAD~1 (paper)`, `working tree (quick)`."""
        return f"{self.rev or WORKING} ({self.profile})"


def sides(revs: list[str], profiles: list[str] | None, first_scale: str) -> tuple[Side, Side]:
    """The two sides (old, new) that `litrec diff`'s revisions and profiles name: none, HEAD
    against the working tree; one, it against the working tree; two, the one against the
    other; two profiles, the one against the other in one tree (the working tree, or REV).
    Without a profile, both are at `first_scale` (the project's first: the committed results')."""
    profiles = profiles or [first_scale]
    if len(revs) > 2 or len(profiles) > 2:
        raise UsageError("litrec diff compares two sides: at most two revisions and two profiles")
    if len(profiles) == 2:
        if len(revs) > 1:
            raise UsageError("give one revision (or none) to compare two profiles")
        rev = revs[0] if revs else None
        return Side(rev, profiles[0]), Side(rev, profiles[1])
    if len(revs) == 2:
        return Side(revs[0], profiles[0]), Side(revs[1], profiles[0])
    return Side(revs[0] if revs else "HEAD", profiles[0]), Side(None, profiles[0])


def _git(root: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=60)
    except FileNotFoundError:
        raise UsageError("litrec diff between commits needs git, which is not installed") from None


def _toplevel(path: Path) -> Path:
    done = _git(path, "rev-parse", "--show-toplevel")
    if done.returncode != 0:
        raise UsageError(f"{path} is not inside a git repository; `litrec diff REV` reads results "
                         "from commits (compare two profiles with --profile A --profile B)")
    return Path(done.stdout.decode().strip())


def check_rev(results_dir: Path, rev: str) -> None:
    """UsageError unless `rev` names a commit of the repository that holds `results_dir`."""
    root = _toplevel(_existing(results_dir))
    if rev.startswith("-") or _git(root, "rev-parse", "--verify", "--quiet",
                                   f"{rev}^{{commit}}").returncode != 0:
        raise UsageError(f"'{rev}' is not a commit of {root}; give a commit, a branch or a tag "
                         "(HEAD~1, main, v0.1.0)")


def _existing(path: Path) -> Path:
    path = Path(path).resolve()
    while not path.exists():
        path = path.parent
    return path if path.is_dir() else path.parent


def read_result(results_dir: Path, name: str, side: Side) -> dict | None:
    """The result of analysis `name` on one side, or None where there is none (or it is unreadable)."""
    path = result_path(Path(results_dir).resolve(), name, side.profile)
    if side.rev is None:
        try:
            return jsonread.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
    root = _toplevel(_existing(results_dir))
    try:
        rel = path.relative_to(root.resolve())
    except ValueError:
        return None
    done = _git(root, "show", f"{side.rev}:{rel.as_posix()}")
    if done.returncode != 0:
        return None
    try:
        return jsonread.loads(done.stdout.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
