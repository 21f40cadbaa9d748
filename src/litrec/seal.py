"""Tamper-evident results: a result carries a hash of its own content.

`seal` adds `figure_hashes` (SHA-256 of each figure file) and `content_hash`
(SHA-256 of the result's canonical JSON, figure hashes included, without the
content hash itself). `broken_seal` recomputes both: a result edited by hand,
a figure swapped, or a file damaged in any way that still parses no longer
matches, and its state is `modified`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any


def _canonical(data: dict) -> bytes:
    body = {k: v for k, v in data.items() if k != "content_hash"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=True).encode("utf-8")


def seal(payload: dict, figures: dict[str, bytes], default: Any = str) -> dict:
    """The payload as it will read back from JSON, with its figure hashes and content hash."""
    data = json.loads(json.dumps(payload, default=default))
    data["figure_hashes"] = {name: hashlib.sha256(blob).hexdigest()
                             for name, blob in sorted(figures.items())}
    data["content_hash"] = hashlib.sha256(_canonical(data)).hexdigest()
    return data


def broken_seal(result: dict, figure_dir: Path) -> str | None:
    """Why `result` no longer matches its seal (None when it does)."""
    stored = result.get("content_hash")
    if not isinstance(stored, str):
        return "it carries no content hash"
    if hashlib.sha256(_canonical(result)).hexdigest() != stored:
        return "its content does not match its content hash (edited or damaged since it was written)"
    hashes = result.get("figure_hashes")
    if not isinstance(hashes, dict):
        return "its figure hashes are missing"
    for name, digest in sorted(hashes.items()):
        path = Path(figure_dir) / str(name)
        try:
            blob = path.read_bytes() if path.is_file() and not path.is_symlink() else None
        except OSError:
            blob = None
        if blob is None:
            return f"its figure {name} is missing"
        if hashlib.sha256(blob).hexdigest() != digest:
            return f"its figure {name} does not match the hash stored with the result"
    return None
