"""Tamper-evident results: a result carries a hash of its own content.

`seal` adds `figure_hashes` (SHA-256 of each figure file), `line_endings` (what
the sealed files' line ends are: `lf`, as litrec writes them) and `content_hash`
(SHA-256 of the result's canonical JSON, figure hashes included, without the
content hash itself). `broken_seal` recomputes both: a result edited by hand,
a figure swapped, or a file damaged in any way that still parses no longer
matches, and its state is `modified`.

A checkout that converts line ends (git's `core.autocrlf=true` without the
project's `.gitattributes`) changes the bytes of an intact result: its JSON
(whose canonical form, hence its content hash, is the same) and its figures
(whose hashes are over bytes). A seal that says `lf` (or says nothing: sealed
before the field, by a litrec that wrote LF only) tells them apart from an edit: a
figure whose bytes match its hash with each CRLF read as LF is intact, and
`converted_line_endings` says so, with how to restore the bytes.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from litrec.util.canonical import canonical_json


def canonical(data: dict, by_name: bool = True) -> bytes:
    """The result's canonical JSON; `by_name`: figures by file name, not by the folder holding
    them (a write in progress points to a new folder). Results sealed before this was so
    hashed the full paths: `broken_seal` accepts either."""
    body = {k: v for k, v in data.items() if k != "content_hash"}
    if by_name and isinstance(body.get("figures"), dict):
        body["figures"] = {k: str(v).rsplit("/", 1)[-1] for k, v in body["figures"].items()}
    return canonical_json(body).encode("utf-8")


LF = "lf"  # the line ends of what litrec writes: "\n" only


def line_endings(figures: dict[str, bytes]) -> str:
    """The sealed files' line ends: `lf` where no figure holds a CRLF (the JSON litrec writes
    never does), else `mixed` (as the analysis drew them: checked byte for byte only)."""
    return "mixed" if any(b"\r\n" in blob for blob in figures.values()) else LF


def seal(payload: dict, figures: dict[str, bytes], default: Any = str) -> dict:
    """The payload as it will read back from JSON, with its figure hashes, the line ends of its
    files (`line_endings`) and its content hash."""
    data = json.loads(json.dumps(payload, default=default))
    data["figure_hashes"] = {name: hashlib.sha256(blob).hexdigest()
                             for name, blob in sorted(figures.items())}
    data["line_endings"] = line_endings(figures)
    data["content_hash"] = hashlib.sha256(canonical(data)).hexdigest()
    return data


def broken_seal(result: dict, folder: Path) -> str | None:
    """Why `result` no longer matches its seal (None when it does); `folder`: results/<analysis>.

    Figures are found where the result points (its folder, or the new folder a
    write in progress points to), by the file names the hashes were taken of.
    """
    stored = result.get("content_hash")
    if not isinstance(stored, str):
        return "it carries no content hash"
    if (stored != hashlib.sha256(canonical(result)).hexdigest()  # the older form only if need be
            and stored != hashlib.sha256(canonical(result, by_name=False)).hexdigest()):
        return "its content does not match its content hash (edited or damaged since it was written)"
    hashes = result.get("figure_hashes")
    if not isinstance(hashes, dict):
        return "its figure hashes are missing"
    where = {str(rel).rsplit("/", 1)[-1]: str(rel) for rel in (result.get("figures") or {}).values()}
    for name, digest in sorted(hashes.items()):
        if str(name) not in where:
            return f"its figure {name} is not listed in it"
        rel = Path(where[str(name)])
        if rel.is_absolute() or ".." in rel.parts:
            return f"its figure {name} is listed outside its folder ({where[str(name)]})"
        path, step = Path(folder) / rel, Path(folder)
        linked = False
        for part in rel.parts:  # every component: a linked folder is read through too
            step = step / part
            linked = linked or step.is_symlink()
        if linked:
            return (f"its figure {name} is reached through a link ({where[str(name)]}); "
                    "litrec reads no figure through one")
        try:
            blob = path.read_bytes() if path.is_file() else None
        except OSError:
            blob = None
        if blob is None:
            return f"its figure {name} is missing"
        if hashlib.sha256(blob).hexdigest() != digest and not _converted(result, blob, digest):
            return f"its figure {name} does not match the hash stored with the result"
    return None


def _converted(result: dict, blob: bytes, digest: str) -> bool:
    """Whether `blob` is a file of `result` sealed with LF line ends (`line_endings`; none
    stated: LF) whose every LF a checkout made a CRLF: with each CRLF read as LF, its hash is `digest`."""
    return (result.get("line_endings", LF) == LF and b"\r\n" in blob
            and hashlib.sha256(blob.replace(b"\r\n", b"\n")).hexdigest() == digest)


def converted_line_endings(result: dict, folder: Path, path: Path) -> str | None:
    """The files of the intact result `result` (its file `path`, its figures in `folder`) that a
    checkout converted to CRLF line ends, in words, with how to restore them; None when none is
    (or the seal says they were not written LF). Its seal still holds (`broken_seal`), but a
    signature, which is over the result file's bytes, does not."""
    if result.get("line_endings", LF) != LF:
        return None
    try:
        converted = [path.name] if b"\r\n" in path.read_bytes() else []
    except OSError:
        converted = []
    hashes = result.get("figure_hashes")
    where = {str(rel).rsplit("/", 1)[-1]: str(rel) for rel in (result.get("figures") or {}).values()}
    for name, digest in sorted(hashes.items()) if isinstance(hashes, dict) else ():
        figure = Path(folder) / where.get(str(name), str(name))
        try:
            blob = figure.read_bytes() if figure.is_file() and not figure.is_symlink() else b""
        except OSError:
            blob = b""
        if _converted(result, blob, str(digest)):
            converted.append(where.get(str(name), str(name)))
    if not converted:
        return None
    return (f"line endings converted (CRLF) in {', '.join(converted)}: the result is intact (its seal "
            "matches with each CRLF read as LF, as litrec wrote it); restore the bytes, which a "
            "signature covers: `git config core.autocrlf false`, or `results/** -text` in .gitattributes, "
            "then check the files out again (delete them, `git checkout -- results/`)")
