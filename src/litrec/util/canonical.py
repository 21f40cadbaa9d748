"""Canonical JSON and its SHA-256: the one way litrec hashes structured data.

Every hash litrec stores of a structure (a result's `content_hash`, the hash of
the expectations a result was judged against, a point's key in a kept partial,
the fingerprints of a review baseline, a result's inputs key) is the SHA-256
of its canonical JSON: keys sorted, UTF-8. Hashes already written stay valid
only if the bytes are made as they were when they were written, so the few
forms that differ are options here, each named by who uses it, never a second
serializer:

- `ascii`: non-ASCII characters escaped (`\\u00e9`), as JSON's default;
- `compact`: no spaces after `,` and `:`;
- `default`: how a value JSON cannot hold is written (`str`), else TypeError.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any


def canonical_json(value: Any, *, ascii: bool = False, compact: bool = True,
                   default: Callable[[Any], Any] | None = None) -> str:
    """`value` as canonical JSON text: sorted keys; see the module docstring for the options."""
    return json.dumps(value, sort_keys=True, ensure_ascii=ascii, default=default,
                      separators=(",", ":") if compact else (", ", ": "))


def canonical_digest(value: Any, *, ascii: bool = False, compact: bool = True,
                     default: Callable[[Any], Any] | None = None) -> str:
    """The SHA-256 (hex) of `value`'s canonical JSON in UTF-8."""
    text = canonical_json(value, ascii=ascii, compact=compact, default=default)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
