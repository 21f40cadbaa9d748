"""Files of a temporary project: write one (folders made), snapshot a folder to show nothing changed."""

from __future__ import annotations

import textwrap
from pathlib import Path


def write(root: Path, rel: str, text: str) -> Path:
    """Write a file under `root` (folders made), dedented."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (relative path -> bytes), to show nothing changed; litrec's
    caches (`.litrec-cache/`, what it can always work out again) are not the project's files."""
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()
            and ".litrec-cache" not in p.relative_to(folder).parts}
