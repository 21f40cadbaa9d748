"""The text of a .bib file from its bytes: the encoding told by a byte-order mark, UTF-8,
or Windows-1252 when that alone reads the bytes cleanly (and the caller says so).

Nothing is ever decoded by a guess that could turn `’` into mojibake silently: a
file that is neither is refused with the line of the first byte that cannot be read.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from litrec.util.errors import EncodingProblem, InputError

MAX_BYTES = 32 * 2**20  # ~8,000 entries a minute: a larger file is not a bibliography to import at once

# Longest first: UTF-32-LE's mark begins with UTF-16-LE's.
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"), (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
         (codecs.BOM_UTF8, "utf-8", "UTF-8"), (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
         (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"))
_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")
_SAVE = "save it as UTF-8"


@dataclass
class Source:
    """A file's text and the encoding it was read in; `note` says when that was not UTF-8."""

    text: str
    encoding: str
    note: str | None = None


def read_named(name: str) -> tuple[Source, str]:
    """(text and encoding, shown name) of the .bib file named on the command line, or of
    standard input for '-'. The file may lie anywhere, but must be a regular file (a FIFO
    would block); `UsageError` when it is not one, `InputError` when it cannot be read."""
    import io
    import sys
    from pathlib import Path

    from litrec.util.confine import Refused, read_regular
    from litrec.util.errors import UsageError

    if name == "-":
        raw = getattr(sys.stdin, "buffer", None)
        return (read_source(raw, "<stdin>") if raw else Source(sys.stdin.read(), "UTF-8"), "<stdin>")
    path = Path(name)
    if not path.exists():
        raise UsageError(f"BibTeX file '{name}' does not exist")
    if path.is_dir():
        raise UsageError(f"BibTeX file '{name}' is not a file")
    try:
        raw = read_regular(path)
    except Refused as r:
        raise UsageError(f"BibTeX file '{name}' {r.message}") from None
    except OSError as exc:
        raise InputError(f"cannot read BibTeX file '{name}': {exc.strerror or exc}") from None
    return read_source(io.BytesIO(raw), name), name


def read_source(stream, name: str) -> Source:
    """The text of a binary stream (a .bib file, standard input); refuse one over MAX_BYTES."""
    raw = stream.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise InputError(f"{name} is larger than {MAX_BYTES // 2**20} MB; litrec imports .bib files "
                         "up to that size: split it")
    return decode_source(raw, name)


def _line(raw: bytes, at: int, unit: int = 1) -> int:
    """The line of byte `at` (for UTF-16/32, counted in code units of `unit` bytes)."""
    newline = "\n".encode({1: "ascii", 2: "utf-16-le", 4: "utf-32-le"}[unit])
    return raw[:at - at % unit].count(newline) + 1


def decode_source(raw: bytes, name: str) -> Source:
    """The text of the bytes of file `name`; raise EncodingProblem when its encoding is not certain."""
    for bom, codec, label in _BOMS:
        if raw.startswith(bom):
            body = raw[len(bom):]
            try:
                return Source(body.decode(codec), label,
                              None if label == "UTF-8" else f"read as {label} (its byte-order mark says so)")
            except UnicodeDecodeError as exc:
                unit = 1 if label == "UTF-8" else int(label[4:]) // 8
                line = _line(body, exc.start, unit)
                raise EncodingProblem(f"{name}:{line}: the byte-order mark says {label}, but the "
                                      f"bytes there are not {label}; {_SAVE}") from None
    if b"\0" in raw:
        guess = _no_bom_guess(raw)
        at = raw.index(b"\0")
        what = (f"it looks like {guess} without a byte-order mark; {_SAVE}" if guess
                else "it holds NUL bytes, so it is not a text file; is it the .bib file?")
        raise EncodingProblem(f"{name}:{_line(raw, at)}: not a BibTeX text file: {what}")
    try:
        return Source(raw.decode("utf-8"), "UTF-8")
    except UnicodeDecodeError as exc:
        first_bad = exc.start
    line = _line(raw, first_bad)
    byte = f"byte 0x{raw[first_bad]:02x}"
    if _UTF8_SEQUENCE.search(raw):
        raise EncodingProblem(f"{name}:{line}: mixes UTF-8 with another encoding ({byte} is not "
                              f"UTF-8 though other characters are); fix that line and {_SAVE}")
    try:
        text = raw.decode("cp1252")
    except UnicodeDecodeError as exc:
        raise EncodingProblem(f"{name}:{line}: neither UTF-8 nor Windows-1252 ({byte}; "
                              f"Windows-1252 has no byte 0x{raw[exc.start]:02x}, at line "
                              f"{_line(raw, exc.start)}); {_SAVE}") from None
    return Source(text, "Windows-1252", f"is not UTF-8 ({byte} at line {line}); read it as "
                  f"Windows-1252 (cp1252); if an accent or quote looks wrong, {_SAVE}")


def _no_bom_guess(raw: bytes) -> str | None:
    """'UTF-16' or 'UTF-32' when the NUL bytes fall where ASCII text in that encoding puts them."""
    for width in (4, 2):
        if len(raw) % width:
            continue
        units = [raw[i:i + width] for i in range(0, min(len(raw), 4000), width)]
        zeros = b"\0" * (width - 1)
        if sum(u[1:] == zeros or u[:-1] == zeros for u in units) >= 0.9 * len(units):
            return f"UTF-{width * 8}"
    return None
