"""The two sides `litrec diff` compares, and where each side's results are read from.

A side is a commit (`rev`; None for the working tree) and a profile (`Side`); `sides` turns
the command's revisions and profiles into the two, and `read_result` reads one analysis's
result on a side: the file in the working tree, or `git show REV:results/<analysis>/<profile>.json`
of the repository that holds the results folder (`check_rev` first makes sure REV is a commit).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from litrec.results.store import result_path
from litrec.util import git, jsonread
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


def _unavailable(exc: git.GitUnavailable) -> UsageError:
    return UsageError(f"litrec diff between commits needs git ({exc})")


def _toplevel(path: Path) -> Path:
    try:
        top = git.toplevel(path)
    except git.GitUnavailable as exc:
        raise _unavailable(exc) from None
    if top is None:
        raise UsageError(f"{path} is not inside a git repository; `litrec diff REV` reads results "
                         "from commits (compare two profiles with --profile A --profile B)")
    return top


def check_rev(results_dir: Path, rev: str) -> None:
    """UsageError unless `rev` names a commit of the repository that holds `results_dir`."""
    root = _toplevel(_existing(results_dir))
    if git.commit(root, rev) is None:
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
    try:
        found = git.file_at(root, side.rev, rel.as_posix())
    except git.GitUnavailable as exc:
        raise _unavailable(exc) from None
    if found is None:
        return None
    try:
        return jsonread.loads(found.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
