"""A paper's quotes against its text: every `quote` of a paper source is the paper's own words.

A literature record may name the paper's text as a local file (`text:
texts/2212.07677.txt`, relative to the project root; a paper's text is usually
not the project's to publish, so git ignores it). Where the file is there,
`check_quotes` reports every quote of the record's paper sources that does not
occur in it, at the quote's line; where it is not (a fresh clone), it says once,
as a note, that the record's quotes were not checked. The file is read only
inside the project (`litrec.util.confine`): the path is relative without `..`
(`text_path_problem`, checked by the schema) and a link out of the project is
refused.

Quote and text are compared after `normalised`: a quote copied from a PDF's
text reads alike whatever the line breaks, the hyphens at line ends, the kind of
quotation marks and dashes, or the spaces a PDF puts around its symbols.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path, PureWindowsPath

from litrec.util.confine import Refused, project_root, read_file
from litrec.util.diagnostics import Diagnostic, Severity, format_field
from litrec.util.formatting import excerpt
from litrec.util.yamlsafe import LazyRoot, locate

MAX_TEXT_BYTES = 64 << 20  # a paper's text over 64 MiB is refused, not read

# typographic marks and look-alikes read as their plain form
_SAME = str.maketrans({
    **dict.fromkeys("‘’‚‛′`´", "'"), **dict.fromkeys("“”„‟″«»", '"'),
    **dict.fromkeys("‐‑‒–—―−﹣－", "-"), "∆": "Δ", "\u00ad": None,  # a soft hyphen is none
    "_": None,  # a subscript written e_j reads as the ej a PDF's text has
})
# a hyphen between two letters, across a line break or not: `ob-\njectives`, `self-attention`
_JOINED = re.compile(r"(?<=[^\W\d_])[-‐‑]\s*(?=[^\W\d_])")
_SPACE = re.compile(r"\s+")
# `text_path_problem` said to JSON-schema validators: relative, no drive, no `..` part
TEXT_PATH_PATTERN = r"^(?![\\/])(?![A-Za-z]:)(?!(.*[\\/])?\.\.([\\/]|$)).*\S"


def normalised(text: str) -> str:
    """`text` as quotes are compared: compatibility forms (ligatures, sub- and superscript
    digits) as plain characters, typographic quotation marks and dashes as ' " and -, a hyphen
    between two letters dropped (a word broken at a line end, or written with a hyphen, reads
    as the whole word), `_` dropped (e_j reads as ej), no whitespace at all, and no case (a
    quote may begin mid-sentence in lower case)."""
    text = _JOINED.sub("", unicodedata.normalize("NFKC", text))  # a hyphen, never a dash
    return _SPACE.sub("", text.translate(_SAME)).casefold()


def text_path_problem(path: str) -> str | None:
    """Why `path` cannot name a paper's text inside the project (None when it can): it must be
    relative to the project root and must not climb out of it with `..`."""
    if not path.strip():
        return "give the path of the paper's text, relative to the project root: texts/PAPER.txt"
    if path.startswith(("/", "\\")) or PureWindowsPath(path).drive:
        return ("an absolute path; write it relative to the project root (texts/PAPER.txt): "
                "litrec reads nothing outside the project")
    if ".." in re.split(r"[\\/]", path):
        return ("a path that climbs out of its folder with '..'; write it from the project root "
                "down (texts/PAPER.txt): litrec reads nothing outside the project")
    return None


def check_quotes(records_dir: Path, facts: dict, paths: dict, display) -> list[Diagnostic]:
    """Every problem with the quotes of the literature records that name a `text`: a quote not
    in the text (an error at the quote), a text that cannot be read (an error at `text`), a text
    not there (one note at `text`). `facts`: each valid record's `Facts`; `paths`: its file."""
    root = project_root(records_dir)
    out: list[Diagnostic] = []
    for rid in sorted(facts):
        rec = facts[rid]
        if rec.kind == "literature" and rec.text:
            out.extend(_record_quotes(root, rid, rec, display(paths[rid]), LazyRoot(str(paths[rid]))))
    return out


def _record_quotes(root: Path, rid: str, rec, shown: str, tree: LazyRoot) -> list[Diagnostic]:
    out: list[Diagnostic] = []

    def at(loc: tuple, message: str, code: str, severity: Severity = "error") -> None:
        line, col = locate(tree, loc)
        out.append(Diagnostic(shown, line, col, format_field(loc), message, code, severity, rid))

    where = rec.text
    try:
        raw = read_file(root / where, root, MAX_TEXT_BYTES)
    except FileNotFoundError:
        n = len(rec.quotes)
        at(("text",), f"{n} quote{'s' * (n != 1)} of {rid}'s paper sources not checked: there is "
           f"no {where} in this project (a fresh clone: a paper's text is usually kept out of "
           "git); put the paper's text there to check them", "quotes-unchecked", "info")
        return out
    except Refused as exc:
        at(("text",), f"{where} is not read: it {exc.message}", "text-refused")
        return out
    except OSError as exc:
        at(("text",), f"{where} cannot be read: {exc.strerror or exc}", "text-unreadable")
        return out
    try:
        text = normalised(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        at(("text",), f"{where} is not UTF-8 text (byte {exc.start + 1}); save the paper's text as "
           "UTF-8", "text-unreadable")
        return out
    for quote, loc in rec.quotes:
        if normalised(quote) not in text:
            at(loc, f"quote not found in {where}: {excerpt(repr(quote), 80)}; copy the paper's own "
               "words at the source's where: (line breaks, hyphens at line ends, spaces, "
               "typographic quotes and dashes do not matter), or correct the quote",
               "quote-not-found")
    return out


def quotes_of(rec) -> tuple:
    """`((quote, field location), ...)` of a literature record's paper sources (a quote still
    `TODO`, `litrec upgrade`'s placeholder, is a to-do, not a quote: never checked)."""
    out = []
    for i, claim in enumerate(getattr(rec, "claims", None) or ()):
        for j, e in enumerate(claim.check.expect if claim.check is not None else ()):
            if e.source is not None and e.source.kind == "paper" and e.source.quote \
                    and "quote" not in e.source.todo():
                out.append((e.source.quote, ("claims", i, "check", "expect", j, "source", "quote")))
    return tuple(out)
