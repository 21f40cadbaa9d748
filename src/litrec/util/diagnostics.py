"""Diagnostics: one problem found in the input, located and explained.

Every check of litrec reports problems as `Diagnostic` objects so that a run
can collect all of them and print them together as `path:line:col: message`.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from typing import Literal

from litrec.util.formatting import excerpt
from litrec.util.safetext import safe_text

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A problem (or a note) about one place in one file."""

    path: str
    line: int
    col: int
    field: str
    message: str
    code: str
    severity: Severity = "error"
    record: str | None = None

    def format(self) -> str:
        """`path:line:col: [severity: ]field: message`, control characters written as `\\uXXXX`."""
        field = f"{self.field}: " if self.field else ""
        tag = "" if self.severity == "error" else f"{self.severity}: "
        return safe_text(f"{self.path}:{self.line}:{self.col}: {tag}{field}{self.message}")

    def to_json(self) -> dict:
        """Every field, as plain data."""
        return asdict(self)


def format_field(loc: tuple) -> str:
    """Render a location tuple as `links[0].target` (a long key quoted as an excerpt)."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            part = excerpt(part, 60)
            out += f".{part}" if out else part
    return out


class PathDisplay:
    """Paths as shown in messages: relative to the working folder (one `relpath` per folder)."""

    def __init__(self) -> None:
        self._cache: dict[str, str] = {}

    def __call__(self, path) -> str:
        """The path as shown: relative to the working folder when inside it."""
        text = str(path)
        cache = self._cache
        shown = cache.get(text)
        if shown is None:
            folder, _, name = text.rpartition(os.sep)
            base = cache.get(folder + os.sep) if folder else None
            if base is None:  # one relpath per folder, not per file
                try:
                    base = os.path.relpath(folder or ".")
                except ValueError:  # pragma: no cover - other drive on Windows
                    base = folder
                cache[folder + os.sep] = base
            shown = name if base == "." else os.path.join(base, name)
            cache[text] = shown
        return shown
