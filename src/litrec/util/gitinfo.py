"""The git commit a result was computed from, for its provenance.

`commit_of(root)` asks git for the commit checked out in the project and
whether the analysis code (tracked files under `analysis/`) differs from it:
`{"commit": "<40 hex>", "dirty": false}`. Outside a git repository, or where
git is not installed or does not answer in a few seconds, it returns None and
the result simply has no commit: the code hash stays what decides whether a
result is current.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

TIMEOUT_S = 5.0


def _git(root: Path, *args: str) -> str | None:
    try:
        run = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                             timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    return run.stdout if run.returncode == 0 else None


def commit_of(root: Path, paths: tuple[str, ...] = ("analysis",)) -> dict | None:
    """{"commit", "dirty"} of the project at `root`, or None where git cannot say.

    `dirty`: whether tracked files under `paths` differ from the commit (the ledger of
    judgements, `litrec.results.ledger`, asks of `records` and `analysis`).
    """
    head = _git(root, "rev-parse", "--verify", "HEAD")
    if head is None or len(head.strip()) < 40:
        return None
    changed = _git(root, "status", "--porcelain", "--untracked-files=no", "--", *paths)
    return {"commit": head.strip(), "dirty": bool(changed and changed.strip())}


def head_of(root: Path) -> str | None:
    """The commit checked out at `root` (40 hex digits), or None where git cannot say."""
    head = _git(root, "rev-parse", "--verify", "HEAD")
    return head.strip() if head and len(head.strip()) >= 40 else None


def refs_of(root: Path) -> str | None:
    """HEAD and every branch and remote tip, as one string: what the committed history of every
    branch says depends on (registration reads them all); None where git cannot say."""
    head = head_of(root)
    if head is None:
        return None
    tips = _git(root, "for-each-ref", "--format=%(objectname) %(refname)", "refs/heads", "refs/remotes")
    return head + "\n" + (tips or "")
