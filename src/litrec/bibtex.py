"""BibTeX in and out: an entry per literature record, and literature records from a `.bib` file.

Out: `bibtex_entry(record)` is the entry for one record (the site's copy button
uses it); `litrec export bibtex` writes one per literature record. Text fields
are LaTeX-encoded (`João` -> `Jo\\~ao`, `&` -> `\\&`), capitals beyond a title's
first letter are braced so bibliography styles keep them, URLs and DOIs are
written as they are. Keys read `vonoswald2022transformers`.

In: `litrec import bibtex FILE` turns each entry into a record whose id comes
from its arXiv number (`ARXIV-2212.07677`) or else its DOI (`DOI-10.1145_3442188.3445922`).
Every entry that cannot become a valid record is reported with its line; an
existing record is left alone unless `--force`, which updates its citation
fields in place and keeps the rest of the file (claims, links, prose, comments).
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import logging
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import bibtexparser
import bibtexparser.middlewares as bm
import yaml
from bibtexparser import model as bmodel
from bibtexparser.library import Library
from bibtexparser.model import Entry, Field
from pydantic import ValidationError

from litrec import model as m
from litrec.diagnostics import format_field
from litrec.scaffold import (display, existing_ids, record_path, schema_comment, today, write_new,
                             write_replace)
from litrec.yamlsafe import YamlProblem, load_bytes

# Fields a literature record shares with BibTeX; `--force` updates exactly these.
CITATION_FIELDS = ("title", "authors", "year", "venue", "volume", "pages", "publisher",
                   "arxiv", "doi", "url")
_CONFERENCE = re.compile(
    r"\b(conference|proceedings|workshop|symposium|icml|iclr|neurips|nips|aaai|ijcai|acl|emnlp"
    r"|naacl|cvpr|iccv|eccv|colt|aistats|uai|kdd|sigir|www)\b", re.I)
_PARTICLES = {"von", "van", "der", "den", "de", "da", "del", "della", "di", "du", "le", "la", "ter"}
_FORMAT = bibtexparser.BibtexFormat()
_FORMAT.indent = "  "
_FORMAT.value_column = "auto"
_FORMAT.block_separator = "\n"


# ----------------------------------------------------------------------- export


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
    year = str(record.year or "")
    parts = [last, year, title_word] if last else [title_word, year]
    key = re.sub(r"[^a-z0-9]", "", _ascii("".join(parts)).lower())
    return key if key[:1].isalpha() else re.sub(r"[^A-Za-z0-9]", "", record.id).lower()


def _ascii(s: str) -> str:
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()


def entry_type(record) -> str:
    """`inproceedings` for a conference venue, `article` for another venue, else `misc`."""
    venue = record.venue or ""
    if not venue or re.search(r"\barxiv\b", venue, re.I):
        return "misc"
    return "inproceedings" if _CONFERENCE.search(venue) else "article"


def _entry(record, key: str | None = None) -> Entry:
    kind = entry_type(record)
    fields: list[Field] = []

    def add(name: str, value: str | None) -> None:
        if value:
            fields.append(Field(name, value))

    add("title", record.title and _latex(record.title, protect=True))
    add("author", " and ".join(_name(a) for a in record.authors))
    add("year", record.year and str(record.year))
    venue_field = {"inproceedings": "booktitle", "article": "journal"}.get(kind, "howpublished")
    add(venue_field, record.venue and _latex(record.venue))
    for name in ("publisher", "volume", "pages"):
        add(name, getattr(record, name) and _latex(getattr(record, name)))
    for name in ("doi", "url"):  # verbatim; braces would unbalance the entry
        add(name, getattr(record, name) and
            getattr(record, name).replace("{", "%7B").replace("}", "%7D"))
    if record.arxiv:
        add("eprint", record.arxiv)
        add("archiveprefix", "arXiv")
    return Entry(kind, key or cite_key(record), fields)


def _name(author: str) -> str:
    """An author for BibTeX's ' and '-separated list: a name holding ' and ' is braced whole."""
    text = _latex(author)
    return f"{{{text}}}" if re.search(r"\sand\s", author, re.I) else text


def _latex(text: str, protect: bool = False) -> str:
    """Plain text as LaTeX: ASCII specials escaped, other characters as LaTeX where they have one."""
    words = []
    text = text.replace("–", "--").replace("—", "---")  # LaTeX's en and em dashes
    for i, word in enumerate(text.split()):
        out = "".join(_SPECIALS.get(c, c) for c in word)
        if not out.isascii():
            out = _unicode_encoder().unicode_to_latex(out)
        if protect and any(c.isupper() for c in (word[1:] if i == 0 else word)):
            out = f"{{{out}}}"  # bibliography styles keep it as written: {BERT}, {Gaussian}
        words.append(out)
    return " ".join(words)


_SPECIALS = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
             "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


@functools.cache
def _unicode_encoder():
    from pylatexenc.latexencode import UnicodeToLatexEncoder  # bibtexparser's own dependency

    return UnicodeToLatexEncoder(non_ascii_only=True, unknown_char_policy="keep",
                                 unknown_char_warning=False)


def bibtex_entry(record, key: str | None = None) -> str:
    """The BibTeX entry of one literature record, as a string (no trailing newline)."""
    return _write([_entry(record, key)]).rstrip("\n")


def bibtex_library(records) -> str:
    """Entries for several records; a key two records share gets a, b, ... in record order."""
    keys = [cite_key(r) for r in records]
    seen: dict[str, int] = {}
    out = []
    for rec, key in zip(records, keys):
        if keys.count(key) > 1:
            seen[key] = seen.get(key, 0) + 1
            key = f"{key}{chr(ord('a') + seen[key] - 1)}"
        out.append(_entry(rec, key))
    return _write(out)


def _write(entries: list[Entry]) -> str:
    with _quiet():
        return bibtexparser.write_string(Library(entries), bibtex_format=_FORMAT)


class _quiet:
    """Silence bibtexparser's and pylatexenc's log lines; keep them for error messages."""

    def __enter__(self):
        self.records: list[logging.LogRecord] = []
        self.handler = logging.Handler()
        self.handler.emit = self.records.append  # type: ignore[method-assign]
        self.loggers = [logging.getLogger(n) for n in ("bibtexparser", "pylatexenc")]
        self.saved = [(lg.propagate, lg.level) for lg in self.loggers]
        for lg in self.loggers:
            lg.addHandler(self.handler)
            lg.propagate = False
            lg.setLevel(logging.INFO)
        return self

    def __exit__(self, *exc):
        for lg, (propagate, level) in zip(self.loggers, self.saved):
            lg.removeHandler(self.handler)
            lg.propagate, lg.level = propagate, level
        return False

    def messages(self) -> list[str]:
        return [r.getMessage() for r in self.records if r.levelno >= logging.WARNING]


# ----------------------------------------------------------------------- import

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
    line: int
    key: str | None
    message: str


@dataclass
class ReadResult:
    converted: list[Converted] = field(default_factory=list)
    failed: list[Failure] = field(default_factory=list)


class Unconvertible(Exception):
    pass


def read_bibtex(text: str, filed: dt.date | None = None) -> ReadResult:
    """Convert every entry of a .bib text; collect every entry that cannot be converted."""
    result = ReadResult()
    with _quiet() as log:
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
        return f"cannot read the entry: {block.error}"
    why = reasons.get(line) or str(getattr(block, "error", "") or "").strip()
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
            raise Unconvertible(f"year '{year}' is not a four-digit year; fix it or remove it")
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
    with _quiet():
        if any(_LATEX.search(v) for v in values.values()):
            lib = decoder.transform(lib)
        for mw in names:
            lib = mw.transform(lib)
    block = lib.blocks[0]
    if not isinstance(block, Entry):
        raise Unconvertible(f"cannot decode its LaTeX: {getattr(block, 'error', block)}")
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
        raise Unconvertible(f"DOI '{doi}' is not of the form 10.NNNN/suffix")
    rid = "DOI-" + doi.replace("/", "_")
    if not m.ID_RE["literature"].match(rid):
        bad = sorted(set(re.sub(r"[-._;()A-Za-z0-9/]", "", doi)))
        raise Unconvertible(f"DOI '{doi}' has characters a record id cannot hold "
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
    if not m.ID_RE["literature"].match(data["id"]):
        raise Unconvertible(f"'{data['id']}' is not a literature id")




# ----------------------------------------------------------------- records


def record_text(data: dict, path: Path, records_dir: Path) -> str:
    return schema_comment(path, "literature", records_dir) + _dump(data)


class _Dumper(yaml.SafeDumper):
    """Block lists indented under their key, as the hand-written records have them."""

    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)


def _dump(data: dict) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def updated_text(old: str, data: dict, path: Path, records_dir: Path) -> str:
    """`old` with its citation fields set from `data`; every other line kept as written."""
    loaded = load_bytes(old.encode("utf-8"))
    spans = {k.value: (k.start_mark.index, _line_end(old, _end(v))) for k, v in loaded.root.value}
    updates = {k: data[k] for k in CITATION_FIELDS if k in data and data[k] != loaded.data.get(k)}
    out, pos = [], 0
    for key in sorted((k for k in updates if k in spans), key=lambda k: spans[k][0]):
        start, end = spans[key]
        out += [old[pos:start], _dump({key: updates[key]})]
        pos = end
    text = "".join(out) + old[pos:]
    missing = {k: v for k, v in updates.items() if k not in spans}
    if missing:  # new fields go after `kind:` (or at the end)
        root = load_bytes(text.encode("utf-8")).root
        kind_end = [_line_end(text, _end(v)) for k, v in root.value if k.value == "kind"]
        at = kind_end[0] if kind_end else len(text)
        text = text[:at] + _dump(missing) + text[at:]
    if not text.startswith("# yaml-language-server:"):
        text = schema_comment(path, "literature", records_dir) + text
    return text


def _end(node) -> int:
    """Where a value's own text ends (a block collection's end mark lies past the comments after it)."""
    block = isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.value and not node.flow_style
    if not block:
        return node.end_mark.index
    last = node.value[-1]
    return _end(last[1] if isinstance(node, yaml.MappingNode) else last)


def _line_end(text: str, at: int) -> int:
    if at > 0 and text[at - 1] == "\n":
        return at
    nl = text.find("\n", at)
    return len(text) if nl < 0 else nl + 1


def _check_text(text: str) -> None:
    """Raise Unconvertible unless `text` is a valid literature record file."""
    try:
        data = load_bytes(text.encode("utf-8")).data
    except YamlProblem as p:
        raise Unconvertible(f"the updated file would not parse ({p.line}:{p.col}: {p.message})") from None
    if data.get("kind") != "literature":
        raise Unconvertible(f"the existing record is a {data.get('kind')!r} record, not literature")
    check_record(data)


# ---------------------------------------------------------------- commands


@dataclass
class Outcome:
    action: str  # created, updated (or "would create", "would update" in a dry run)
    id: str
    path: Path
    line: int
    key: str


def import_bibtex(text: str, records_dir: Path, force: bool = False, dry_run: bool = False,
                  filed: dt.date | None = None) -> tuple[list[Outcome], list[Failure]]:
    """Write a literature record per convertible entry; return what was done and what failed."""
    read = read_bibtex(text, filed)
    failed = list(read.failed)
    done: list[Outcome] = []
    ids = existing_ids(records_dir)
    for conv in read.converted:
        rid = conv.data["id"]
        path = ids.get(rid) or record_path(records_dir, "literature", rid)
        try:
            if rid in ids and not force:
                raise Unconvertible(f"{rid} already exists ({display(path)}); pass --force to update "
                                    "its citation fields (the rest of the record is kept)")
            if rid in ids:
                old = path.read_text(encoding="utf-8")
                try:
                    new = updated_text(old, conv.data, path, records_dir)
                except YamlProblem as p:
                    raise Unconvertible(f"cannot update {display(path)}: it does not parse "
                                        f"({p.line}:{p.col}: {p.message}); fix it first") from None
                _check_text(new)
                action = "updated" if new != old else "unchanged"
                if not dry_run and new != old:
                    write_replace(path, new)
            else:
                new = record_text(conv.data, path, records_dir)
                _check_text(new)
                action = "created"
                if not dry_run:
                    write_new(path, new)
        except (Unconvertible, OSError) as exc:
            msg = str(exc) if isinstance(exc, Unconvertible) else f"cannot write {display(path)}: {exc}"
            failed.append(Failure(conv.line, conv.key, msg))
            continue
        if dry_run and action != "unchanged":
            action = f"would {action[:-1]}"
        done.append(Outcome(action, rid, path, conv.line, conv.key))
    failed.sort(key=lambda f: f.line)
    return done, failed


def _read_source(name: str) -> tuple[str, str]:
    """(text, shown name) of a .bib file, or of stdin for '-'."""
    from litrec.cli import UsageError

    if name == "-":
        return sys.stdin.read(), "<stdin>"
    path = Path(name)
    if not path.is_file():
        raise UsageError(f"BibTeX file '{name}' does not exist")
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8-sig"), name
    except UnicodeDecodeError:
        print(f"litrec import: {name} is not UTF-8; read it as Latin-1", file=sys.stderr)
        return raw.decode("latin-1"), name


def cmd_import(args) -> int:
    from litrec.cli import UsageError

    if not args.records.is_dir():
        raise UsageError(f"records folder '{args.records}' does not exist")
    text, shown = _read_source(str(args.file))
    done, failed = import_bibtex(text, args.records, args.force, args.dry_run)
    if args.format == "json":
        print(json.dumps({
            "file": shown,
            "records": [{"action": o.action, "id": o.id, "path": display(o.path), "line": o.line,
                         "key": o.key} for o in done],
            "failed": [{"line": f.line, "key": f.key, "message": f.message} for f in failed],
        }, indent=2, ensure_ascii=False))
    else:
        for o in done:
            print(f"{o.action} {display(o.path)} from {shown}:{o.line} ({o.key})")
        for f in failed:
            key = f"{f.key}: " if f.key else ""
            print(f"{shown}:{f.line}: {key}{f.message}", file=sys.stderr)
        total = len(done) + len(failed)
        if total == 0:
            print(f"litrec import: no BibTeX entries in {shown}", file=sys.stderr)
        else:
            counts: dict[str, int] = {}
            for o in done:
                counts[o.action] = counts.get(o.action, 0) + 1
            parts = [", ".join(f"{n} {a}" for a, n in counts.items())] if counts else []
            parts += [f"{len(failed)} not imported"] if failed else []
            print(f"{total} entries: {'; '.join(parts)}", file=sys.stderr)
    return 1 if failed or not (done or failed) else 0


def cmd_export(args) -> int:
    from litrec.project import load_project

    from litrec.cli import UsageError

    if not args.records.is_dir():
        raise UsageError(f"records folder '{args.records}' does not exist")
    proj = load_project(args.records, args.analysis)
    chosen, problems = select_literature(proj, args.ids)
    for msg in problems:
        print(f"litrec export: {msg}", file=sys.stderr)
    if problems:
        return 1
    text = bibtex_library(chosen)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {len(chosen)} entries to {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def select_literature(proj, ids: list[str]) -> tuple[list, list[str]]:
    """The literature records named (all, when none are), and a message per id that is not one."""
    import difflib

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
