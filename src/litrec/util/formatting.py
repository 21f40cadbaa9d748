"""Values for people: the one formatter of stored numbers, for the terminal and the site.

Floats show 4 significant digits everywhere. The site writes a missing value
as a dash and keeps up to six list items; the terminal, where columns are
narrow, writes `none` and keeps up to four.

Text too long for its place is cut by `shorten`, the one rule of where a cut
falls and how it is marked: whitespace made single spaces, the text cut at a
character (not at a word: a long id or URL would otherwise go whole), a space left
at the cut dropped, and one `…` added, the whole at most `limit` characters.
`excerpt` quotes a value found in a file the same way, with its length.
"""

from __future__ import annotations

from typing import Any


def fmt(v: Any, terminal: bool = False) -> str:
    """A stored value for display (not escaped); `terminal` for the narrower console form."""
    if isinstance(v, bool) or v is None:
        return ("none" if terminal else "—") if v is None else str(v).lower()
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, list):
        limit, head, unit = (4, 3, "") if terminal else (6, 4, " values")
        if len(v) > limit:
            return "[" + ", ".join(fmt(x, terminal) for x in v[:head]) + f", … ({len(v)}{unit})]"
        return "[" + ", ".join(fmt(x, terminal) for x in v) + "]"
    if isinstance(v, dict) and not terminal:
        return "{" + ", ".join(f"{k}: {fmt(x)}" for k, x in v.items()) + "}"
    return str(v)


ELLIPSIS = "…"


def shorten(text: Any, limit: int) -> str:
    """`text` on one line, at most `limit` characters: runs of whitespace (newlines too) become
    one space; a longer text is cut at a character, a space left at the cut is dropped, and it
    ends in `…`. Text that fits comes back with only its whitespace made single."""
    if limit < 1:
        raise ValueError(f"shorten: limit must be at least 1 character, got {limit}")
    one_line = " ".join(str(text).split())
    if len(one_line) <= limit:
        return one_line
    return one_line[: limit - 1].rstrip() + ELLIPSIS


def excerpt(value: Any, limit: int = 80) -> str:
    """A value found in a file, quoted: unchanged when at most `limit` characters; a longer one
    `shorten`ed to `limit`, with its whole length (`… (5002 characters)`)."""
    text = str(value)
    if len(text) <= limit:
        return text
    return f"{shorten(text, limit)} ({len(text)} characters)"
