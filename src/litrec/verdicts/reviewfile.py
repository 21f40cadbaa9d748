"""The review file kept whole: never made anew where git holds it, written by one command at a time.

`reviews.yaml` (`litrec.verdicts.suspect`) is the project's review state, committed
with the records. Where the work tree lacks it while git holds a version (the
index, or a commit of HEAD's history: `litrec.util.git.held_by_git`), it was deleted,
not never made: a new baseline would mark every link reviewed as it stands now
and every suspect link would vanish, so validate and review refuse, naming the git
command that restores it (`lost_reviews`). A project outside git, or whose first
baseline was never committed, has no such witness: its baseline is recorded anew.

Every read-modify-write of the file holds the project's review lock
(`locked_reviews`), so two `litrec review` at once both land.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class LostReviews(Exception):
    """The review file is missing where git holds it; the message says where and the fix."""


def lost_reviews(path: Path) -> str | None:
    """Why a missing review file must not be made anew: git holds it (the index, or a commit of
    HEAD's history), so the project's reviews were recorded and committed, and a new baseline
    would mark every link reviewed as it stands now, hiding the suspect ones. The message names
    the fix (restore it from git). None when the file is there, or git holds no version of it
    (a project outside git, or one whose first baseline was never committed)."""
    if path.exists() or path.is_symlink():
        return None
    from litrec.util.git import held_by_git

    held = held_by_git(path.parent, path.name)
    if held is None:
        return None
    where, command = held
    return (f"missing, while {where}: the project's reviews were recorded, and a new baseline "
            f"would clear every suspect link; restore it: {command}")


LOCK = ".litrec-reviews-lock"
LOCK_WAIT_S = 60.0


@contextmanager
def locked_reviews(path: Path) -> Iterator[None]:
    """Hold the project's review lock (`.litrec-reviews-lock` beside the review file: the
    mechanism of the results' lock, `litrec.util.lockfile`), waiting up to a minute for
    another `litrec review` or baseline to finish; InputError when it does not."""
    from litrec.util.diagnostics import PathDisplay
    from litrec.util.errors import InputError
    from litrec.util.lockfile import acquire, release

    lock = Path(path).with_name(LOCK)
    fd = acquire(lock, LOCK_WAIT_S)
    if fd is None:
        raise InputError(f"another litrec command has been writing {PathDisplay()(path)} for "
                         f"{LOCK_WAIT_S:.0f} s (it holds {lock}); run again when it has finished. "
                         "Nothing was written")
    try:
        yield
    finally:
        release(lock, fd)
