"""BibTeX in: the data of a literature record for each entry of a `.bib` file.

Each entry's id comes from its arXiv number (`ARXIV-2212.07677`) or else its
DOI (`DOI-10.1145_3442188.3445922`); LaTeX in text fields is decoded. An entry
that cannot become a valid record is a `Failure` with its line and the reason.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass, field

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

from litrec import model as m
from litrec.bibtex.common import brace_specials, quiet
from litrec.bibtex.values import resolve, string_macros
from litrec.diagnostics import format_field
from litrec.errors import Unconvertible
from litrec.formatting import excerpt
from litrec.kinds import ID_RE
from litrec.safetext import strip_unsafe
from litrec.scaffold import today

ARXIV_NUMBER = re.compile(r"(?<![\d.])(\d{4}\.\d{4,5})(v\d+)?(?!\d)", re.ASCII)
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(\d{4}\.\d{4,5})(v\d+)?$", re.I)
_TEXT = ("title", "author", "journal", "booktitle", "school", "institution", "publisher",
         "howpublished", "volume", "pages")
# Every field an entry is read from; a value litrec cannot read fails the entry only in these.
_USED = (*_TEXT, "year", "url", "doi", "eprint", "archiveprefix", "eprinttype", "arxiv", "arxivid",
         "note")


@dataclass
class Converted:
    """One entry turned into the data of a literature record."""

    line: int
    key: str
    data: dict


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


def read_bibtex(text: str, filed: dt.date | None = None) -> ReadResult:
    """Convert every entry of a .bib text; collect every entry that cannot be converted."""
    result = ReadResult()
    with quiet() as log:
        library = bibtexparser.parse_string(text, parse_stack=[])  # values as written: see values.py
    macros = string_macros(library.strings)
    reasons = _abort_reasons(log.messages())
    first_line: dict[str, int] = {}
    blocks = sorted([*library.entries, *library.failed_blocks], key=lambda b: b.start_line)
    for block in blocks:
        line = block.start_line + 1
        if isinstance(block, bmodel.DuplicateBlockKeyBlock):
            block = block.ignore_error_block  # the same key twice: ids tell records apart
        elif not isinstance(block, Entry):
            result.failed.append(Failure(line, _key_of(block), _parse_failure(block, line, reasons)))
            continue
        try:
            data = convert_entry(block, filed, macros)
        except Unconvertible as exc:
            result.failed.append(Failure(line, block.key, str(exc)))
            continue
        rid = data["id"]
        if rid in first_line:
            result.failed.append(Failure(line, block.key, f"gives {rid} again, like the entry at "
                                         f"line {first_line[rid]}; keep one of them"))
            continue
        first_line[rid] = line
        result.converted.append(Converted(line, block.key, data))
    return result


def _key_of(block) -> str | None:
    inner = getattr(block, "ignore_error_block", None)
    if getattr(inner, "key", None):
        return inner.key
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


def convert_entry(entry: Entry, filed: dt.date | None = None, macros: dict | None = None) -> dict:
    """The data of a literature record for one BibTeX entry; raise Unconvertible if it cannot be.

    With `macros` (the file's @string definitions) the entry's values are as written
    (`{...}`, `"..."`, macros joined by `#`); without, they are already plain text.
    """
    raw = _values(entry, macros)
    text = _decode({k: v for k, v in raw.items() if k in _TEXT})
    rid, arxiv, doi = _identify(raw)
    data: dict = {"id": rid, "kind": "literature"}
    if not text.get("title"):
        written = raw.get("title", "").strip()
        raise Unconvertible(f"title '{written}' has no text once its LaTeX is read; write the title"
                            if written else "no title; add title = {The Title of the Paper}")
    data["title"] = text["title"]
    if text.get("author"):
        data["authors"] = text["author"]
    if raw.get("year"):
        year = raw["year"].strip()
        if not re.fullmatch(r"\d{4}", year):
            raise Unconvertible(f"year '{excerpt(year)}' is not a four-digit year; fix it or remove it")
        data["year"] = int(year)
    venue = next((text[k] for k in ("journal", "booktitle", "school", "institution", "howpublished")
                  if text.get(k)), None)
    for name, value in (("venue", venue), ("volume", text.get("volume")),
                        ("pages", text.get("pages")), ("publisher", text.get("publisher")),
                        ("arxiv", arxiv), ("doi", doi), ("url", raw.get("url", "").strip() or None)):
        if value:
            data[name] = value
    data["filed"] = {"date": filed or today()}
    check_record(data)
    return data


def _values(entry: Entry, macros: dict | None) -> dict[str, str]:
    """Each field's text (lower-case names), without control characters or terminal sequences."""
    out = {}
    for f in entry.fields:
        key = f.key.lower()
        if not isinstance(f.value, str) or key in out:
            continue
        try:
            value = f.value if macros is None else resolve(f.value, macros)
        except Unconvertible as exc:
            if key in _USED:
                raise Unconvertible(f"{key}: {exc}") from None
            continue
        out[key] = strip_unsafe(value)
    return out


def _decode(values: dict[str, str]) -> dict:
    """LaTeX to Unicode for text fields; authors split into 'First von Last' names first, so
    that a braced group (`{Barnes and Noble}`) stays one name."""
    people = _people(values["author"]) if "author" in values else []
    fields = {k: v for k, v in values.items() if k != "author"}
    fields.update({f"author {i}": name for i, name in enumerate(people)})
    if not fields:
        return {}
    lib = Library([Entry("misc", "k", [Field(k, v) for k, v in fields.items()])])
    if any(_LATEX.search(v) for v in fields.values()):
        with quiet():
            lib = _decoder().transform(lib)
    block = lib.blocks[0]
    if not isinstance(block, Entry):
        raise Unconvertible(f"cannot decode its LaTeX: {excerpt(getattr(block, 'error', block), 120)}")
    out = {f.key: " ".join(str(f.value).split()) for f in block.fields}
    names = [out.pop(f"author {i}") for i in range(len(people))]
    if people:
        out["author"] = [n for n in names if n]
    return out


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


def _identify(raw: dict[str, str]) -> tuple[str, str | None, str | None]:
    """(record id, arXiv number, DOI): the arXiv number wins, then the DOI."""
    doi = _doi(raw)
    arxiv = _arxiv_number(raw, doi)
    if doi and (_ARXIV_DOI.match(doi) or arxiv and not re.fullmatch(r"10\.\d{4,9}/\S+", doi)):
        doi = None  # arXiv's own DOI (the number says it), or a broken one beside an arXiv number
    if arxiv:
        return f"ARXIV-{ARXIV_NUMBER.fullmatch(arxiv).group(1)}", arxiv, doi
    if doi is None:
        raise Unconvertible("no arXiv number or DOI to make an id from; add eprint = {YYMM.NNNNN} "
                            "or doi = {10.NNNN/...}")
    if not re.fullmatch(r"10\.\d{4,9}/\S+", doi):
        raise Unconvertible(f"DOI '{excerpt(doi)}' is not of the form 10.NNNN/suffix")
    rid = "DOI-" + doi.replace("/", "_")
    if not ID_RE["literature"].match(rid):
        bad = sorted(set(re.sub(r"[-._;()A-Za-z0-9/]", "", doi)))
        raise Unconvertible(f"DOI '{excerpt(doi)}' has characters a record id cannot hold "
                            f"({' '.join(bad)}); write the record by hand (litrec new literature ID)")
    return rid, None, doi


def _doi(raw: dict[str, str]) -> str | None:
    """The DOI field (any doi.org/doi: prefix dropped), or a doi.org URL."""
    for source, need_prefix in ((raw.get("doi", ""), False), (raw.get("url", ""), True)):
        text = source.strip()
        bare = _DOI_PREFIX.sub("", text)
        if bare and (not need_prefix or bare != text):
            return bare
    return None


def _arxiv_number(raw: dict[str, str], doi: str | None) -> str | None:
    prefix = (raw.get("archiveprefix") or raw.get("eprinttype") or "").strip().lower()
    candidates = []
    if raw.get("eprint") and prefix in ("", "arxiv"):
        candidates.append(raw["eprint"])
    candidates += [raw.get("arxiv", ""), raw.get("arxivid", "")]
    if doi and (found := _ARXIV_DOI.match(doi)):
        candidates.append(found.group(1) + (found.group(2) or ""))
    url = raw.get("url", "")
    if re.search(r"arxiv\.org/(abs|pdf)/", url, re.I):
        candidates.append(url.rsplit("/", 1)[-1].removesuffix(".pdf"))
    journal = raw.get("journal", "")
    for name in ("journal", "volume", "note", "howpublished"):  # DBLP: journal CoRR, volume abs/...
        value = raw.get(name, "")
        if re.search(r"arxiv|corr", journal if name == "volume" else value, re.I):
            candidates.append(value)
    for cand in candidates:
        found = ARXIV_NUMBER.search(cand.strip())
        if found:
            return found.group(1) + (found.group(2) or "")
    return None


def check_record(data: dict) -> None:
    """Raise Unconvertible unless `data` is a valid literature record."""
    try:
        m.Literature.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        raise Unconvertible(f"the record would be invalid: {format_field(tuple(err['loc']))}: "
                            f"{err['msg']}") from None
    if not ID_RE["literature"].match(data["id"]):
        raise Unconvertible(f"'{excerpt(data['id'])}' is not a literature id")
