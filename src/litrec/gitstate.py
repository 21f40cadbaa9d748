"""The git commit a project is at, and whether its records or code differ from it.

Results and the ledger of judgements (`litrec.ledger`) record it, so a reader
can tell which committed records and analysis code a number came from. Outside
a git repository, or without git, both are None.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

TRACKED = ("records", "analysis")  # what a verdict rests on; results/ is written by the run


def git_state(root: Path, paths: tuple[str, ...] = TRACKED) -> dict:
    """{"commit": the HEAD commit or None, "dirty": whether `paths` under `root` differ from it}."""
    if shutil.which("git") is None:
        return {"commit": None, "dirty": None}
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", "-q", "HEAD"],
                              capture_output=True, text=True, timeout=30)
        if head.returncode != 0:
            return {"commit": None, "dirty": None}
        present = [p for p in paths if (Path(root) / p).exists()]
        changes = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", *present],
                                 capture_output=True, text=True, timeout=30) if present else None
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}
    dirty = None if changes is None or changes.returncode != 0 else bool(changes.stdout.strip())
    return {"commit": head.stdout.strip() or None, "dirty": False if changes is None else dirty}
