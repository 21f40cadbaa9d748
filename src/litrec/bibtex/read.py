"""BibTeX in: the data of a literature record for each entry of a `.bib` file.

The file is parsed (bibtexparser, values as written: `values.py`), its `@string`
macros read, and each entry converted (`entry.py`: its id, decoded fields and
case protection). An entry that cannot become a valid record, a block the
parser gave up on and a second `@string` of a name are each a `Failure` with
its line and the reason; two entries that would give the same record id too.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

import bibtexparser
from bibtexparser import model as bmodel
from bibtexparser.model import Entry

from litrec.bibtex.citation import quiet
from litrec.bibtex.entry import convert_entry
from litrec.bibtex.values import string_macros
from litrec.util.errors import Unconvertible
from litrec.util.formatting import excerpt


@dataclass
class Converted:
    """One entry turned into the data of a literature record."""

    line: int
    key: str
    data: dict
    dropped: list[str] = field(default_factory=list)  # fields of the entry no record field holds


@dataclass
class Failure:
    """An entry that could not become a record: its line, key and why."""

    line: int
    key: str | None
    message: str


@dataclass
class ReadResult:
    """What a .bib file gave: the entries converted and those that failed."""

    converted: list[Converted] = field(default_factory=list)
    failed: list[Failure] = field(default_factory=list)
    keys: set[str] = field(default_factory=set)  # every citation key of the file


def read_bibtex(text: str, filed: dt.date | None = None, ids: dict[str, str] | None = None
                ) -> ReadResult:
    """Convert every entry of a .bib text; collect every entry that cannot be converted.

    `ids` maps citation keys to the record ids their entries get (`--id KEY=ID`).
    """
    ids = ids or {}
    result = ReadResult()
    with quiet() as log:
        library = bibtexparser.parse_string(text, parse_stack=[])  # values as written: see values.py
    macros = string_macros(library.strings)
    reasons = _abort_reasons(log.messages())
    first_line: dict[str, int] = {}
    blocks = sorted([*library.entries, *library.failed_blocks], key=_line)
    for block in blocks:
        line = _line(block)
        # the same key twice: the second entry is read all the same (ids tell records apart)
        entry = block.ignore_error_block if isinstance(block, bmodel.DuplicateBlockKeyBlock) else block
        if isinstance(block, bmodel.DuplicateBlockKeyBlock) and isinstance(entry, bmodel.String):
            result.failed.append(Failure(line, None, _string_again(entry.key, block.previous_block)))
            continue
        if not isinstance(entry, Entry):
            result.keys.add(_key_of(block) or "")
            result.failed.append(Failure(line, _key_of(block), _parse_failure(block, line, reasons)))
            continue
        result.keys.add(entry.key)
        try:
            data, dropped = convert_entry(entry, filed, macros, ids.get(entry.key))
        except Unconvertible as exc:
            result.failed.append(Failure(line, entry.key, str(exc)))
            continue
        rid = data["id"]
        if rid in first_line:
            result.failed.append(Failure(line, entry.key, f"gives {rid} again, like the entry at "
                                         f"line {first_line[rid]}; keep one of them"))
            continue
        first_line[rid] = line
        result.converted.append(Converted(line, entry.key, data, dropped))
    return result


def _line(block: bmodel.Block) -> int:
    """The block's first line, counted from 1 (the parser numbers every block it reads)."""
    return (block.start_line or 0) + 1


def _string_again(name: str, first: bmodel.Block) -> str:
    """Why a second `@string` of a name fails: only the first is used, so the text written
    last would be lost without a word."""
    return (f"@string '{name}' is defined again (first at line {_line(first)}), and only the first "
            "definition is used; keep one of them or rename this one")


def _key_of(block: bmodel.Block) -> str | None:
    inner = getattr(block, "ignore_error_block", None)
    key = getattr(inner, "key", None)
    if key:
        return key
    found = re.match(r"\s*@\w+\s*[{(]\s*([^,\s{}()]+)\s*,", getattr(block, "raw", "") or "")
    return found.group(1) if found else None


def _abort_reasons(messages: list[str]) -> dict[int, str]:
    """bibtexparser logs why it gave up on a block: 'Parsing of ... (line N) aborted ...'."""
    out = {}
    for msg in messages:
        found = re.search(r"\(line (\d+)\) aborted on line (\d+)[^:]*:\s*(.*)", msg, re.S)
        if found:
            out[int(found.group(1)) + 1] = " ".join(found.group(3).split())
    return out


def _parse_failure(block, line: int, reasons: dict[int, str]) -> str:
    if isinstance(block, bmodel.DuplicateFieldKeyBlock):
        names = ", ".join(sorted(block.duplicate_keys)) if hasattr(block, "duplicate_keys") else ""
        return f"a field is given twice{f' ({names})' if names else ''}; keep one"
    if isinstance(block, bmodel.MiddlewareErrorBlock):
        return f"cannot read the entry: {excerpt(block.error, 120)}"
    why = excerpt(reasons.get(line) or str(getattr(block, "error", "") or "").strip(), 120)
    return ("cannot parse the entry" + (f": {why}" if why else "")
            + " (an unclosed brace or quote, or a missing comma?)")
