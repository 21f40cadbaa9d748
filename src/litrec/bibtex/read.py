"""BibTeX in: the data of a literature record for each entry of a `.bib` file.

Each entry's id comes from its arXiv number (`ARXIV-2212.07677`), or else its
DOI (`DOI-10.1145_3442188.3445922`), or else its citation key
(`REF-bishop2006pattern`); an id given for the entry's key wins over all three.
LaTeX in text fields is decoded; a URL's or DOI's escapes are read (`paper\\_files`
is `paper_files`, `urls.py`). The title's own braces are kept in `bibtex_title`
and the citation key in `bibtex_key` where export would not give them by itself
(`protect.py`, `write.cite_key`). The fields no record field holds are named
(`Converted.dropped`). An entry that cannot become a valid record is a
`Failure` with its line and the reason.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import shlex
import unicodedata
from dataclasses import dataclass, field
from typing import get_args

import bibtexparser
import bibtexparser.middlewares as bm
from bibtexparser import model as bmodel
from bibtexparser.library import Library
from bibtexparser.middlewares.names import (
    InvalidNameError,
    parse_single_name_into_parts,
    split_multiple_persons_names,
)
from bibtexparser.model import Entry, Field
from pydantic import ValidationError

from litrec.bibtex.citation import brace_specials, quiet
from litrec.bibtex.identifiers import ARXIV_DOI, ARXIV_NUMBER
from litrec.bibtex.identifiers import arxiv_number as _arxiv_number
from litrec.bibtex.identifiers import doi_of as _doi
from litrec.bibtex.protect import automatic, from_marked, mark_protection, plain, tidy
from litrec.bibtex.urls import read_verbatim
from litrec.bibtex.values import MONTHS, literal_braces, resolve, string_macros, unbalanced
from litrec.records import model as m
from litrec.records.kinds import ID_RE
from litrec.records.newrecord import today
from litrec.util.diagnostics import format_field
from litrec.util.errors import Unconvertible
from litrec.util.formatting import excerpt
from litrec.util.mend import explain_error
from litrec.util.safetext import strip_unsafe

ENTRY_TYPES = frozenset(get_args(m.ENTRY_TYPE))  # the entry types a record keeps
_VENUES = ("journal", "booktitle", "school", "institution", "howpublished")  # the first is `venue`
_EXTRA = ("editor", "series", "address", "organization")  # kept when readable, else dropped
_TEXT = ("title", "author", *_VENUES, "publisher", "volume", "number", "pages", "abstract",
         "keywords", *_EXTRA)
# Every field an entry is read from; a value litrec cannot read fails the entry only in these.
_USED = (*(t for t in _TEXT if t not in _EXTRA), "year", "month", "url", "doi", "eprint",
         "archiveprefix", "eprinttype", "arxiv", "arxivid", "note")
# BibTeX fields kept under a record field of the same meaning (the venue and the ids aside)
_KEPT = {"title": "title", "author": "authors", "editor": "editors", "series": "series",
         "address": "address", "organization": "organization", "year": "year", "month": "month",
         "volume": "volume",
         "number": "number", "pages": "pages", "publisher": "publisher", "abstract": "abstract",
         "keywords": "keywords", "doi": "doi", "url": "url"}


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


def convert_entry(entry: Entry, filed: dt.date | None = None, macros: dict | None = None,
                  rid: str | None = None) -> tuple[dict, list[str]]:
    """(the data of a literature record, the fields it drops) for one BibTeX entry; raise
    Unconvertible if it cannot be.

    With `macros` (the file's @string definitions) the entry's values are as written
    (`{...}`, `"..."`, macros joined by `#`); without, they are already plain text.
    `rid` is the record id to give it; without, the id comes from the entry.
    """
    raw = _values(entry, macros)
    for name in ("url", "doi"):  # links, not text: `paper\_files` is `paper_files`
        if name in raw:
            raw[name] = read_verbatim(raw[name])
    text = _decode({k: mark_protection(v) if k == "title" else v
                    for k, v in raw.items() if k in _TEXT})
    found_id, arxiv, doi = _identify(raw, entry.key, given=rid is not None)
    data: dict = {"id": rid or found_id, "kind": "literature"}
    marked = tidy(text.get("title", ""))
    if not plain(marked):
        written = raw.get("title", "").strip()
        raise Unconvertible(f"title '{written}' has no text once its LaTeX is read; write the title"
                            if written else "no title; add title = {The Title of the Paper}")
    data["title"] = plain(marked)
    if from_marked(marked) != automatic(data["title"]):
        data["bibtex_title"] = from_marked(marked)  # braces export would not write by itself
    if text.get("author"):
        data["authors"] = text["author"]
    if raw.get("year"):
        year = raw["year"].strip()
        if not re.fullmatch(r"\d{4}", year):
            raise Unconvertible(f"year '{excerpt(year)}' is not a four-digit year; fix it or remove it")
        data["year"] = int(year)
    if raw.get("month", "").strip():
        data["month"] = _month(raw["month"])
    venue_from = next((k for k in _VENUES if text.get(k)), None)
    keywords = list(dict.fromkeys(w.strip() for w in re.split(r"[,;]", text.get("keywords", ""))))
    for name, value in (("venue", venue_from and text[venue_from]), ("volume", text.get("volume")),
                        ("number", text.get("number")), ("pages", text.get("pages")),
                        ("publisher", text.get("publisher")), ("arxiv", arxiv), ("doi", doi),
                        ("url", raw.get("url", "").strip() or None),
                        ("abstract", text.get("abstract")), ("keywords", [w for w in keywords if w]),
                        ("editors", text.get("editor")), ("series", text.get("series")),
                        ("address", text.get("address")),
                        ("organization", text.get("organization"))):
        if value:
            data[name] = value
    entry_type = {"conference": "inproceedings"}.get(entry.entry_type.lower(), entry.entry_type.lower())
    if entry_type in ENTRY_TYPES and entry_type != _implied_type(data.get("venue")):
        data["entry_type"] = entry_type  # kept only where the venue does not say it
    key_dropped = _keep_key(data, entry.key)
    data["filed"] = {"date": filed or today()}
    check_record(data)
    return data, key_dropped + _dropped(entry, raw, data, venue_from)


def _keep_key(data: dict, key: str) -> list[str]:
    """Put the entry's citation key in `bibtex_key` unless it is the key `export bibtex` would
    generate; ['key'] when it has a character `\\cite` cannot hold (so it is not kept)."""
    from litrec.bibtex.write import cite_key

    if not m.BIBTEX_KEY_RE.match(key or ""):
        return ["key"] if key else []
    check_record(data)
    if key != cite_key(m.Literature.model_validate(data)):
        data["bibtex_key"] = key
    return []


def _implied_type(venue: str | None) -> str:
    """The entry type `export bibtex` gives a record with this venue and no entry_type."""
    from types import SimpleNamespace

    from litrec.bibtex.write import entry_type

    return entry_type(SimpleNamespace(venue=venue, entry_type=None))


def _month(text: str) -> int:
    """1 to 12 from `6`, `06`, `jun`, `June` or `Sept.`; raise Unconvertible for anything else."""
    word = text.strip().rstrip(".").lower()
    if word.isdigit() and 1 <= int(word) <= 12:
        return int(word)
    for number, name in enumerate(MONTHS.values(), 1):
        if len(word) >= 3 and name.startswith(word):
            return number
    raise Unconvertible(f"month '{excerpt(text.strip())}' is not a month (jan to dec, or 1 to 12); "
                        "fix it or remove it")


def _dropped(entry: Entry, raw: dict[str, str], data: dict, venue_from: str | None) -> list[str]:
    """The entry's fields (with a value) that no field of the record holds."""
    number = data.get("arxiv", "").split("v")[0]
    out = []
    for name in dict.fromkeys(f.key.lower() for f in entry.fields):
        value = raw.get(name)
        if value is not None and not value.strip():
            continue  # empty: nothing is lost
        if name == venue_from or _KEPT.get(name) in data:
            continue
        if number and value and (name in ("archiveprefix", "eprinttype") or number in value):
            continue  # the arXiv number came from it
        out.append(name)
    return out


def _values(entry: Entry, macros: dict | None) -> dict[str, str]:
    """Each field's text (lower-case names), without control characters or terminal sequences,
    its literal braces as `\\{` and `\\}` (`values.literal_braces`). Unconvertible where any
    field, used or not, does not balance as BibTeX counts braces (`values.unbalanced`)."""
    out = {}
    for f in entry.fields:
        key = f.key.lower()
        if not isinstance(f.value, str) or key in out:
            continue
        problem = macros is not None and unbalanced(f.value)
        if problem:
            at = f" (line {f.start_line + 1})" if isinstance(f.start_line, int) else ""
            raise Unconvertible(f"{key}{at}: {problem}")
        try:
            value = f.value if macros is None else resolve(f.value, macros)
        except Unconvertible as exc:
            if key in _USED:
                raise Unconvertible(f"{key}: {exc}") from None
            continue
        out[key] = literal_braces(strip_unsafe(value))
    return out


def _decode(values: dict[str, str]) -> dict:
    """LaTeX to Unicode for text fields; authors split into 'First von Last' names first, so
    that a braced group (`{Barnes and Noble}`) stays one name."""
    people = {role: _people(values[role]) for role in ("author", "editor") if role in values}
    fields = {k: v for k, v in values.items() if k not in people}
    for role, names in people.items():
        fields.update({f"{role} {i}": name for i, name in enumerate(names)})
    if not fields:
        return {}
    lib = Library([Entry("misc", "k", [Field(k, v) for k, v in fields.items()])])
    if any(_LATEX.search(v) for v in fields.values()):
        with quiet():
            lib = _decoder().transform(lib)
    block = lib.blocks[0]
    if not isinstance(block, Entry):
        raise Unconvertible(f"cannot decode its LaTeX: {excerpt(getattr(block, 'error', block), 120)}")
    text = {f.key: " ".join(str(f.value).split()) for f in block.fields}
    decoded = {role: [text.pop(f"{role} {i}") for i in range(len(names))] for role, names in people.items()}
    return {**text, **{role: [n for n in got if n] for role, got in decoded.items() if got}}


def _people(text: str) -> list[str]:
    """The names of an author field as 'First von Last Jr'; braces keep a group one name."""
    try:
        return [parse_single_name_into_parts(n).merge_first_name_first
                for n in split_multiple_persons_names(brace_specials(text)) if n.strip()]
    except (InvalidNameError, ValueError) as exc:
        raise Unconvertible(f"author: cannot split '{text.strip()}' into names: "
                            f"{getattr(exc, 'reason', exc)}") from None


_LATEX = re.compile(r"[\\{}$~^%&]|--|``|''")  # what decoding would change; else skip it


@functools.cache
def _decoder():
    """LaTeX to Unicode (slow to build)."""
    return bm.LatexDecodingMiddleware(keep_math_mode=False)


def _identify(raw: dict[str, str], key: str, given: bool = False
              ) -> tuple[str, str | None, str | None]:
    """(record id, arXiv number, DOI): the arXiv number wins, then the DOI, then the citation key.
    With an id `given` for the entry, a DOI that no id can hold is no reason to refuse it."""
    doi = _doi(raw)
    arxiv = _arxiv_number(raw, doi)
    if doi and (ARXIV_DOI.match(doi) or arxiv and not re.fullmatch(r"10\.\d{4,9}/\S+", doi)):
        doi = None  # arXiv's own DOI (the number says it), or a broken one beside an arXiv number
    number = ARXIV_NUMBER.fullmatch(arxiv) if arxiv else None  # always, as arxiv_number found it
    if number:
        return f"ARXIV-{number.group(1)}", arxiv, doi
    if doi is None:
        return _key_id(key, given), None, None
    if not re.fullmatch(r"10\.\d{4,9}/\S+", doi):
        raise Unconvertible(f"DOI '{excerpt(doi)}' is not of the form 10.NNNN/suffix")
    rid = "DOI-" + doi.replace("/", "_")
    if not ID_RE["literature"].match(rid) and not given:
        bad = sorted(set(re.sub(r"[-._;()A-Za-z0-9/]", "", doi)))
        raise Unconvertible(f"DOI '{excerpt(doi)}' has characters a record id cannot hold "
                            f"({' '.join(bad)}); give the entry an id: --id {_shown_key(key)}=REF-...")
    return rid, None, doi


def key_id(key: str) -> str | None:
    """`REF-bishop2006pattern`: the id a citation key gives (lower-case ASCII letters and digits,
    other runs as '-'), or None when it has no letter or digit."""
    slug = re.sub(r"[^a-z0-9]+", "-", unicodedata.normalize("NFKD", key).encode("ascii", "ignore")
                  .decode().lower()).strip("-")
    return f"REF-{slug}" if slug else None


def _key_id(key: str, given: bool) -> str:
    rid = key_id(key or "")
    if rid is None and not given:
        raise Unconvertible(f"no arXiv number or DOI, and the key '{excerpt(key or '')}' has no "
                            f"letter or digit to make an id from; pass --id {_shown_key(key)}=REF-name, "
                            "or add eprint = {YYMM.NNNNN} or doi = {10.NNNN/...}")
    return rid or ""


def _shown_key(key: str | None) -> str:
    return shlex.quote(key or "KEY")


def check_record(data: dict) -> None:
    """Raise Unconvertible unless `data` is a valid literature record."""
    try:
        m.Literature.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        raise Unconvertible(f"the record would be invalid: {format_field(tuple(err['loc']))}: "
                            f"{explain_error(err, m.Literature)}") from None
    if not ID_RE["literature"].match(data["id"]):
        raise Unconvertible(f"'{excerpt(data['id'])}' is not a literature id")
