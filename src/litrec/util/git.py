"""Every call of git litrec makes: one runner, and the questions its callers share.

`run(root, *args)` runs `git -C root --no-pager ARGS` with standard input closed (or fed
`stdin`) and a timeout; it raises `GitUnavailable` where git is not installed, cannot start
or does not answer in time, and returns the finished process otherwise (its exit status is
the caller's to read). `output` is what most callers want: what git printed, or None
where it failed in any way, so that litrec works (less informed) outside a repository.

The questions: the commit checked out (`head_of`), every branch tip (`refs_of`), the commit
and whether some paths differ from it (`commit_of`, a result's provenance), where git holds a
file the work tree lacks (`held_by_git`), a configuration value (`config`), the repository's
top folder (`toplevel`), the commit a revision names (`commit`), files at commits (`blobs`,
in one process; `file_at`) and the log (`log`).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

TIMEOUT_S = 20.0  # a question over the whole history (every commit, every branch)
QUICK_S = 5.0     # a question about the checkout (HEAD, its status): provenance never waits long


class GitUnavailable(Exception):
    """git is not installed, cannot be started, or did not answer in time (the message says which)."""


def run(root: Path, *args: str, stdin: bytes | None = None,
        timeout: float = TIMEOUT_S) -> subprocess.CompletedProcess[bytes]:
    """`git -C root --no-pager ARGS`, its output captured (bytes); `GitUnavailable` where git
    cannot be run or does not answer within `timeout` seconds."""
    try:
        return subprocess.run(["git", "-C", str(root), "--no-pager", *args], input=stdin,
                              stdin=None if stdin is not None else subprocess.DEVNULL,
                              capture_output=True, timeout=timeout)
    except FileNotFoundError:
        raise GitUnavailable("git is not installed") from None
    except subprocess.TimeoutExpired:
        raise GitUnavailable(f"git did not answer within {timeout:g} s") from None
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitUnavailable(f"git could not be run ({exc})") from None


def output(root: Path, *args: str, stdin: bytes | None = None,
           timeout: float = TIMEOUT_S) -> bytes | None:
    """What `git -C root ARGS` prints, or None where git fails, is missing or does not answer."""
    try:
        done = run(root, *args, stdin=stdin, timeout=timeout)
    except GitUnavailable:
        return None
    return done.stdout if done.returncode == 0 else None


def text(root: Path, *args: str, timeout: float = TIMEOUT_S) -> str | None:
    """`output` as text (UTF-8; a byte that is not kept as an escape, never an error)."""
    out = output(root, *args, timeout=timeout)
    return None if out is None else out.decode("utf-8", "surrogateescape")


# ---------------------------------------------------------------- the checkout


def head_of(root: Path) -> str | None:
    """The commit checked out at `root` (40 hex digits), or None where git cannot say."""
    head = (text(root, "rev-parse", "--verify", "HEAD", timeout=QUICK_S) or "").strip()
    return head if len(head) >= 40 else None


def refs_of(root: Path) -> str | None:
    """HEAD and every branch and remote tip, as one string: what the committed history of every
    branch says depends on (registration reads them all); None where git cannot say."""
    head = head_of(root)
    if head is None:
        return None
    tips = text(root, "for-each-ref", "--format=%(objectname) %(refname)", "refs/heads",
                "refs/remotes", timeout=QUICK_S)
    return head + "\n" + (tips or "")


def commit_of(root: Path, paths: tuple[str, ...] = ("analysis",)) -> dict | None:
    """{"commit", "dirty"} of the project at `root` (a result's provenance), or None where git
    cannot say (outside a repository, git missing or silent: the code hash alone then says
    whether a result is current).

    `dirty`: whether the files under `paths` differ from the commit: a tracked file changed,
    or a file git does not track yet and does not ignore (a new analysis module not yet
    added is code the commit does not hold); Python's own `__pycache__` folders and `.pyc`
    files aside, which importing the code writes (the ledger of judgements,
    `litrec.results.ledger`, asks of `records` and `analysis`).
    """
    head = head_of(root)
    if head is None:
        return None
    changed = text(root, "status", "--porcelain", "-z", "--untracked-files=all", "--", *paths,
                   timeout=QUICK_S)
    return {"commit": head, "dirty": any(map(_differs, (changed or "").split("\0")))}


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
    if text(root, "ls-files", "--", rel, timeout=QUICK_S):
        return "git tracks it", f"git checkout -- {rel}"
    last = (text(root, "rev-list", "-1", "HEAD", "--", rel, timeout=QUICK_S) or "").strip()
    if not last:
        return None
    for rev in (last, f"{last}^"):  # the last commit that touched it, or the one before a deletion
        if output(root, "cat-file", "-e", f"{rev}:./{rel}", timeout=QUICK_S) is not None:
            short = rev[:12] + ("^" if rev.endswith("^") else "")
            return f"commit {short} holds it", f"git checkout {short} -- {rel}"
    return f"commit {last[:12]} touched it", f"git log -- {rel} (to find the commit that holds it)"


def config(root: Path, key: str) -> str | None:
    """The value git's configuration gives `key` in the project at `root`; None when unset
    (or git cannot say)."""
    return (text(root, "config", "--get", key) or "").strip() or None


# ---------------------------------------------------------------- the history


def toplevel(path: Path) -> Path | None:
    """The top folder of the repository holding `path` (a folder); None outside one.
    `GitUnavailable` where git cannot be run: the caller says what needed it."""
    done = run(path, "rev-parse", "--show-toplevel")
    return Path(done.stdout.decode().strip()) if done.returncode == 0 else None


def commit(root: Path, rev: str) -> str | None:
    """The commit (40 hex digits) that revision `rev` names, or None where it names none (an
    option-like `-x` never reaches git as one)."""
    if rev.startswith("-"):
        return None
    return (text(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}") or "").strip() or None


def file_at(root: Path, rev: str, rel: str, timeout: float = 60.0) -> bytes | None:
    """The bytes of `rel` (relative to the repository's top) at commit `rev`; None where that
    commit has no such file. `GitUnavailable` where git cannot be run."""
    done = run(root, "show", f"{rev}:{rel}", timeout=timeout)
    return done.stdout if done.returncode == 0 else None


def blobs(root: Path, specs: list[str]) -> dict[str, bytes | None]:
    """The bytes of each `commit:path` (None where it does not exist), in one git process."""
    found: dict[str, bytes | None] = dict.fromkeys(specs)
    out = output(root, "cat-file", "--batch", stdin="".join(s + "\n" for s in specs).encode()) if specs else None
    if out is None:
        return found
    pos = 0
    for spec in specs:
        end = out.find(b"\n", pos)
        header = out[pos:end].split()
        pos = end + 1
        if len(header) == 3 and header[1] == b"blob":
            size = int(header[2])
            found[spec] = out[pos:pos + size]
            pos += size + 1
    return found


def log(root: Path, *options: str, paths: tuple[str, ...] = ()) -> bytes | None:
    """`git log OPTIONS -- PATHS`, or None where git fails (no repository, no commit yet)."""
    return output(root, "log", *options, "--", *paths)
