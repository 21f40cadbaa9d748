"""Record files of a temporary project, and what `litrec validate` says of them."""

from __future__ import annotations

from pathlib import Path


def write_record(root: Path, rel: str, text: str | bytes) -> Path:
    """`text` (bytes as they are: a test of encodings) as `records/REL` of the project at `root`."""
    path = root / "records" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def error_lines(out: str) -> list[str]:
    """`litrec validate`'s lines less its notes (`: info: `): the errors and warnings."""
    return [ln for ln in out.splitlines() if ln and ": info: " not in ln]


def invalid(cli, *args: str) -> list[str]:
    """`litrec validate ARGS`'s error lines (`error_lines`), asserted to exit 1: the records are
    invalid. `cli` is the in-process command line (tests/conftest.py)."""
    code, out, _ = cli("validate", *args)
    assert code == 1, out
    return error_lines(out)
