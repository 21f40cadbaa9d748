"""The one guarded JSON reader: every JSON file litrec reads (results, kept seeds, the ledger,
the site's index) goes through `loads`.

Python's `json` raises `RecursionError` (not a `ValueError`) on nesting deeper than
the interpreter's recursion limit, a few hundred thousand `[` being enough, and
reads text of any size. `loads` turns the first into `JsonUnreadable`, a
`ValueError`, so every reader's "not valid JSON" path covers it, and refuses text
over `MAX_BYTES` before parsing it. A caller says what the file is in its own
message; nothing here prints.
"""

from __future__ import annotations

import json
from typing import Any

MAX_BYTES = 1 << 30  # a result of 1 GiB is no result litrec wrote


class JsonUnreadable(ValueError):
    """Text that is JSON-shaped but cannot be read: nested too deep, or too large."""


def loads(text: str | bytes) -> Any:
    """`json.loads(text)`, with deep nesting and oversize text as `JsonUnreadable` (a ValueError)."""
    if len(text) > MAX_BYTES:
        raise JsonUnreadable(f"{len(text):,} bytes, over the {MAX_BYTES:,} litrec reads")
    try:
        return json.loads(text)
    except RecursionError:
        raise JsonUnreadable("nested deeper than can be read") from None
