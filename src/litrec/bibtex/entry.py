"""One BibTeX entry as the data of a literature record.

Each entry's id comes from its arXiv number (`ARXIV-2212.07677`), or else its
DOI (`DOI-10.1145_3442188.3445922`), or else its citation key
(`REF-bishop2006pattern`); an id given for the entry's key wins over all three
(`identifiers.entry_id`). LaTeX in text fields is decoded; a URL's or DOI's
escapes are read (`paper\\_files` is `paper_files`, `urls.py`). The title's own
braces are kept in `bibtex_title` and the citation key in `bibtex_key` where
export would not give them by itself (`protect.py`, `write.cite_key`). The
fields no record field holds are named (the `dropped` list). An entry that
cannot become a valid record raises `Unconvertible` with the reason.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import get_args

import bibtexparser.middlewares as bm
from bibtexparser.library import Library
from bibtexparser.middlewares.names import (
    InvalidNameError,
    parse_single_name_into_parts,
    split_multiple_persons_names,
)
from bibtexparser.model import Entry, Field
from pydantic import ValidationError

from litrec.bibtex.citation import brace_specials, quiet
from litrec.bibtex.identifiers import entry_id
from litrec.bibtex.protect import automatic, from_marked, mark_protection, plain, tidy
from litrec.bibtex.urls import read_verbatim
from litrec.bibtex.values import MONTHS, literal_braces, resolve, unbalanced
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
    found_id, arxiv, doi = entry_id(raw, entry.key, given=rid is not None)
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
