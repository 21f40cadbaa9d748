"""The git commit a result was computed from, for its provenance.

`commit_of(root)` asks git for the commit checked out in the project and
whether the analysis code (the files under `analysis/`, untracked ones included)
differs from it:
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

    `dirty`: whether the files under `paths` differ from the commit: a tracked file changed,
    or a file git does not track yet and does not ignore (a new analysis module not yet
    added is code the commit does not hold); Python's own `__pycache__` folders and `.pyc`
    files aside, which importing the code writes (the ledger of judgements,
    `litrec.results.ledger`, asks of `records` and `analysis`).
    """
    head = _git(root, "rev-parse", "--verify", "HEAD")
    if head is None or len(head.strip()) < 40:
        return None
    changed = _git(root, "status", "--porcelain", "-z", "--untracked-files=all", "--", *paths)
    return {"commit": head.strip(), "dirty": any(map(_differs, (changed or "").split("\0")))}


def _differs(entry: str) -> bool:
    """Whether one entry of `git status --porcelain -z` says the work tree differs from the
    commit: any but an untracked file Python wrote (`?? x/__pycache__/m.cpython-312.pyc`)."""
    if not entry.startswith("?? "):
        return bool(entry)  # a change of a tracked file (or a renamed file's old path)
    path = entry[3:]
    return not (path.endswith((".pyc", ".pyo")) or "__pycache__" in path.split("/"))


def held_by_git(root: Path, rel: str) -> tuple[str, str] | None:
    """Where git holds `rel` (a path under `root`) that the work tree lacks: (where, the
    command that restores it), from the index, else from the last commit of HEAD's history
    that held it; None where git holds no version of it (or cannot say)."""
    if _git(root, "ls-files", "--", rel):
        return "git tracks it", f"git checkout -- {rel}"
    last = (_git(root, "rev-list", "-1", "HEAD", "--", rel) or "").strip()
    if not last:
        return None
    for commit in (last, f"{last}^"):  # the last commit that touched it, or the one before a deletion
        if _git(root, "cat-file", "-e", f"{commit}:./{rel}") is not None:
            short = commit[:12] + ("^" if commit.endswith("^") else "")
            return f"commit {short} holds it", f"git checkout {short} -- {rel}"
    return f"commit {last[:12]} touched it", f"git log -- {rel} (to find the commit that holds it)"


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
