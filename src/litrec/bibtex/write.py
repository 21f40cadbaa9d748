"""BibTeX out: an entry per literature record.

`bibtex_entry(record)` is the entry for one record (the site's copy button
uses it); `litrec export bibtex` writes one per literature record. Text fields
are LaTeX-encoded (`João` -> `Jo\\~ao`, `&` -> `\\&`, a brace of the text itself `}` ->
`\\textbraceright{}`, so every value balances as BibTeX counts braces, a backslash before
one or not; an entry whose value would not is refused); a title keeps the braces
of `bibtex_title`, else words with capitals past their first letter are braced so
bibliography styles keep them (`protect.py`); URLs and DOIs are written as they
are (`urls.py`). The key is the record's `bibtex_key`, else one that reads
`vonoswald2023transformers`.

`year` is the record's year: the year of the version its venue names (ICML
2023), with the arXiv number beside it as `eprint` and `archivePrefix = {arXiv}`;
a record without a year gets its arXiv number's (`2212.07677`: 2022).
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata

import bibtexparser
from bibtexparser.library import Library
from bibtexparser.model import Block, Entry, Field

from litrec.bibtex.citation import brace_specials, quiet
from litrec.bibtex.protect import automatic, pieces
from litrec.bibtex.urls import write_verbatim
from litrec.records.braces import bibtex_unbalanced
from litrec.util.errors import Unconvertible
from litrec.util.safetext import strip_unsafe

_CONFERENCE = re.compile(
    r"\b(conference|proceedings|workshop|symposium|icml|iclr|neurips|nips|aaai|ijcai|acl|emnlp"
    r"|naacl|cvpr|iccv|eccv|colt|aistats|uai|kdd|sigir|www)\b", re.I)
_PARTICLES = {"von", "van", "der", "den", "de", "da", "del", "della", "di", "du", "le", "la", "ter"}
_FORMAT = bibtexparser.BibtexFormat()
_FORMAT.indent = "  "
_FORMAT.value_column = "auto"
_FORMAT.block_separator = "\n"


def cite_key(record) -> str:
    """`vonoswald2022transformers`: first author's last name, year, first long title word.

    Without authors the title word and year (`attention2017`), and without those the id.
    """
    last = ""
    if record.authors:
        words = record.authors[0].split()
        tail = words[-1:]
        for w in reversed(words[:-1]):
            if w.lower() not in _PARTICLES:
                break
            tail.insert(0, w)
        last = "".join(tail)
    title_word = next((w for w in re.findall(r"[A-Za-z0-9]+", _ascii(record.title or ""))
                       if len(w) > 3), "")
    year = str(entry_year(record) or "")
    parts = [last, year, title_word] if last else [title_word, year]
    key = re.sub(r"[^a-z0-9]", "", _ascii("".join(parts)).lower())
    return key if key[:1].isalpha() else re.sub(r"[^A-Za-z0-9]", "", record.id).lower()


def _ascii(s: str) -> str:
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()


def entry_year(record) -> int | None:
    """The year of the entry: the record's, or else the year of its arXiv number (yymm)."""
    if record.year:
        return record.year
    return 2000 + int(record.arxiv[:2]) if record.arxiv else None


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def entry_type(record) -> str:
    """The type it was imported as; else `inproceedings` for a conference venue, `article` for
    another venue, `misc` for a preprint."""
    if getattr(record, "entry_type", None):
        return record.entry_type
    venue = record.venue or ""
    if not venue or re.search(r"\barxiv\b", venue, re.I):
        return "misc"
    return "inproceedings" if _CONFERENCE.search(venue) else "article"


# the field of each entry type that holds the record's venue
VENUE_FIELD = {"inproceedings": "booktitle", "incollection": "booktitle", "inbook": "booktitle",
               "article": "journal", "phdthesis": "school", "mastersthesis": "school",
               "techreport": "institution"}


def _entry(record, key: str | None = None) -> Entry:
    kind = entry_type(record)
    fields: list[Field] = []

    def add(name: str, value: str | None, enclosing: str | None = None) -> None:
        value = value and strip_unsafe(value)  # no terminal sequence or control character in a .bib
        problem = value and bibtex_unbalanced(value)
        if problem:  # never, by construction: refused rather than written for BibTeX to misread
            raise Unconvertible(f"{record.id}: {name}: {problem}, counting braces as BibTeX does; "
                                "the entry is not written")
        if value:
            fields.append(Field(name, value, enclosing=enclosing))

    add("title", record.title and title_latex(record))
    add("author", " and ".join(_name(a) for a in record.authors))
    year = entry_year(record)
    add("year", str(year) if year else None)
    add("month", record.month and _MONTHS[record.month - 1], "no-enclosing")  # month = jun
    add("editor", " and ".join(_name(a) for a in getattr(record, "editors", None) or ()))
    add(VENUE_FIELD.get(kind, "howpublished"), record.venue and _latex(record.venue))
    for name in ("series", "publisher", "address", "organization", "volume", "number", "pages"):
        add(name, getattr(record, name, None) and _latex(getattr(record, name)))
    for name in ("doi", "url"):  # as they are: biblatex and \url read these fields verbatim
        add(name, getattr(record, name) and write_verbatim(getattr(record, name)))
    if record.arxiv:
        add("eprint", record.arxiv)
        add("archivePrefix", "arXiv")
    add("keywords", ", ".join(_latex(k) for k in record.keywords))
    add("abstract", record.abstract and _latex(record.abstract))
    return Entry(kind, key or getattr(record, "bibtex_key", None) or cite_key(record), fields)


def _name(author: str) -> str:
    """An author for BibTeX's ' and '-separated list: special characters braced (`Jo{\\~a}o`),
    and a name BibTeX would split (holding ' and ' or a comma: `{Barnes and Noble}`) braced whole."""
    text = brace_specials(_latex(author))
    return f"{{{text}}}" if re.search(r"\sand\s|,", author, re.I) else text


def title_latex(record) -> str:
    """The title as LaTeX with its case protection: `bibtex_title`'s braces where the record has
    one, else each word with a capital past its first letter braced (`{BERT}`)."""
    protected = getattr(record, "bibtex_title", None) or automatic(record.title)
    return "".join(_braced(_latex(text, keep_spaces=True)) if braced
                   else _latex(text, keep_spaces=True) for text, braced in pieces(protected))


def _braced(latex: str) -> str:
    """A protected part: `{GD}`; doubled where it starts with a command (`{{\\"Uber}}`), since
    BibTeX reads `{\\"U...}` as a special character whose letters it still changes."""
    return f"{{{{{latex}}}}}" if latex.startswith("\\") else f"{{{latex}}}"


def _latex(text: str, keep_spaces: bool = False) -> str:
    """Plain text as LaTeX: ASCII specials escaped, other characters as LaTeX where they have one;
    runs of whitespace become one space, and with `keep_spaces` the ends keep theirs."""
    words = []
    # literal '' `` -- would read back as a quote or a dash: break each pair with {}
    text = re.sub(r"(?<=-)(?=-)|(?<=')(?=')|(?<=`)(?=`)", "\0", text)
    text = text.replace("–", "--").replace("—", "---")  # LaTeX's en and em dashes
    for word in text.split():
        out = "".join(_SPECIALS.get(c, c) for c in word)
        if not out.isascii():
            out = _unicode_encoder().unicode_to_latex(out)
        words.append(out.replace("\0", "{}"))
    if not keep_spaces:
        return " ".join(words)
    return (" " if text[:1].isspace() else "") + " ".join(words) + (
        " " if text[-1:].isspace() and words else "")


# A brace of the text is a command, never `\{`: BibTeX counts every brace, a backslash before it
# or not, so a lone `\}` would end the field (and what follows would read as another entry).
_SPECIALS = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
             "{": r"\textbraceleft{}", "}": r"\textbraceright{}", "~": r"\textasciitilde{}",
             "^": r"\textasciicircum{}"}


@functools.cache
def _unicode_encoder():
    from pylatexenc.latexencode import (
        UnicodeToLatexEncoder,  # bibtexparser's own dependency
    )

    return UnicodeToLatexEncoder(non_ascii_only=True, unknown_char_policy="keep",
                                 unknown_char_warning=False)


def bibtex_entry(record, key: str | None = None) -> str:
    """The BibTeX entry of one literature record, as a string (no trailing newline)."""
    return _write([_entry(record, key)]).rstrip("\n")


def library_keys(records) -> list[str]:
    """The key of each record's entry: its `bibtex_key` as it is, else the generated key, with
    a, b, ... in record order where generated keys collide with each other or with a kept key."""
    kept = {getattr(r, "bibtex_key", None) for r in records} - {None}
    generated = [None if getattr(r, "bibtex_key", None) else cite_key(r) for r in records]
    keys: list[str] = []
    seen: dict[str, int] = {}
    for rec, key in zip(records, generated):
        if key is None:
            keys.append(rec.bibtex_key)
            continue
        if generated.count(key) > 1 or key in kept:
            n = seen.get(key, 0)
            while f"{key}{_letters(n)}" in kept:
                n += 1
            seen[key] = n + 1
            key = f"{key}{_letters(n)}"
        keys.append(key)
    return keys


def _letters(n: int) -> str:
    """a, b, ..., z, aa, ab, ...: the n-th suffix (0-based)."""
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(ord("a") + r) + out
    return out


def shared_keys(records) -> list[str]:
    """A message per `bibtex_key` that two or more of the records keep."""
    holders: dict[str, list[str]] = {}
    for r in records:
        if getattr(r, "bibtex_key", None):
            holders.setdefault(r.bibtex_key, []).append(r.id)
    return [f"{' and '.join(ids)} keep the same bibtex_key '{key}'; change it in all but one"
            for key, ids in holders.items() if len(ids) > 1]


def bibtex_library(records) -> str:
    """Entries for several records, each under its key from `library_keys`."""
    return _write([_entry(rec, key) for rec, key in zip(records, library_keys(records))])


def _write(entries: list[Entry]) -> str:
    blocks: list[Block] = [*entries]  # Library takes any blocks
    with quiet():
        return bibtexparser.write_string(Library(blocks), bibtex_format=_FORMAT)


def select_literature(proj, ids: list[str]) -> tuple[list, list[str]]:
    """The literature records named (all, when none are), and a message per id that is not one."""

    if not ids:
        return [r for _, r in sorted(proj.records.items()) if r.kind == "literature"], []
    chosen, problems = [], []
    invalid = {d.record for d in proj.errors if d.record}
    for rid in dict.fromkeys(ids):
        rec = proj.records.get(rid)
        if rec is None:
            if rid in invalid:
                problems.append(f"{rid} is invalid; see `litrec validate`")
                continue
            close = difflib.get_close_matches(rid, list(proj.records), n=1)
            problems.append(f"no record '{rid}'" + (f"; did you mean '{close[0]}'?" if close else ""))
        elif rec.kind != "literature":
            problems.append(f"{rid} is a {rec.kind} record; BibTeX is for literature records")
        else:
            chosen.append(rec)
    return chosen, problems


def export_bibtex(records_dir, analysis_dir, ids: list[str]) -> tuple[str, int, list[str]]:
    """`litrec export bibtex` below the command: (the entries' text, how many, a message per id
    that names no literature record). The records are loaded whether or not every one is
    valid: a valid literature record can be exported from a collection with errors."""
    from litrec.records.load import load_project
    from litrec.util.confine import need_dir

    need_dir(records_dir, "records")
    chosen, problems = select_literature(load_project(records_dir, analysis_dir), ids)
    problems += shared_keys(chosen)
    return ("" if problems else BIBTEX_HEADER + bibtex_library(chosen)), len(chosen), problems


# The export's first line: BibTeX reads no text outside an entry, and `--out` replaces only a file
# that begins so (one litrec wrote)
BIBTEX_HEADER = ("% Written by `litrec export bibtex` from the literature records: edit the records, "
          "then export again.\n\n")
