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
from bibtexparser.model import Entry, Field
from pydantic import ValidationError

from litrec import model as m
from litrec.bibtex.common import quiet
from litrec.diagnostics import format_field
from litrec.errors import Unconvertible
from litrec.formatting import excerpt
from litrec.kinds import ID_RE
from litrec.scaffold import today

ARXIV_NUMBER = re.compile(r"(?<![\d.])(\d{4}\.\d{4,5})(v\d+)?(?!\d)", re.ASCII)
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(\d{4}\.\d{4,5})(v\d+)?$", re.I)
_TEXT = ("title", "author", "journal", "booktitle", "school", "institution", "publisher",
         "howpublished", "volume", "pages")


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
        library = bibtexparser.parse_string(text)
    reasons = _abort_reasons(log.messages())
    first_line: dict[str, int] = {}
    blocks = sorted([*library.entries, *library.failed_blocks], key=lambda b: b.start_line)
    for block in blocks:
        line = block.start_line + 1
        if isinstance(block, bmodel.DuplicateBlockKeyBlock):
            # the same key twice: ids tell records apart; this copy skipped the parse stack
            block = bm.RemoveEnclosingMiddleware().transform(Library([block.ignore_error_block])).blocks[0]
        elif not isinstance(block, Entry):
            result.failed.append(Failure(line, _key_of(block), _parse_failure(block, line, reasons)))
            continue
        try:
            data = convert_entry(block, filed)
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


def convert_entry(entry: Entry, filed: dt.date | None = None) -> dict:
    """The data of a literature record for one BibTeX entry; raise Unconvertible if it cannot be."""
    raw = {f.key.lower(): f.value for f in entry.fields if isinstance(f.value, str)}
    text = _decode({k: v for k, v in raw.items() if k in _TEXT})
    rid, arxiv, doi = _identify(raw)
    data: dict = {"id": rid, "kind": "literature"}
    if text.get("title"):
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


def _decode(values: dict[str, str]) -> dict:
    """LaTeX to Unicode for text fields; authors split into 'First von Last' names."""
    if not values:
        return {}
    entry = Entry("misc", "k", [Field(k, v) for k, v in values.items()])
    lib = Library([entry])
    decoder, *names = _decoding_stack()
    with quiet():
        if any(_LATEX.search(v) for v in values.values()):
            lib = decoder.transform(lib)
        for mw in names:
            lib = mw.transform(lib)
    block = lib.blocks[0]
    if not isinstance(block, Entry):
        raise Unconvertible(f"cannot decode its LaTeX: {excerpt(getattr(block, 'error', block), 120)}")
    out = {}
    for f in block.fields:
        if isinstance(f.value, list):
            out[f.key] = [" ".join(a.split()) for a in f.value if a.strip()]
        else:
            out[f.key] = " ".join(str(f.value).split())
    return out


_LATEX = re.compile(r"[\\{}$~^%&]|--|``|''")  # what decoding would change; else skip it


@functools.cache
def _decoding_stack() -> tuple:
    """The decoder (slow to build), then the splitting of authors into 'First von Last' names."""
    return (bm.LatexDecodingMiddleware(keep_math_mode=False), bm.SeparateCoAuthors(),
            bm.SplitNameParts(), bm.MergeNameParts(style="first"))


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
