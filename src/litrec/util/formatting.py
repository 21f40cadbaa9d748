"""Values for people: the one formatter of stored numbers, for the terminal and the site.

Floats show 4 significant digits everywhere. The site writes a missing value
as a dash and keeps up to six list items; the terminal, where columns are
narrow, writes `none` and keeps up to four.
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


def excerpt(value: Any, limit: int = 80) -> str:
    """A value found in a file, quoted at most `limit` characters long (cut with '…' and its length)."""
    text = str(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"
