"""Case protection in titles: the braces that tell a bibliography style to keep a title's
words as written (`Transformers learn {In-Context} by {GD}`, DBLP's `{A} Case Study`).

A record's `title` is the title as a reader sees it. Its protected form is the
same text with braces around the protected parts (`\\{`, `\\}` and `\\\\` for a
brace or backslash of the title itself). `export bibtex` protects each word with
a capital past its first letter (`{BERT}`, `{In-Context?}`): `automatic(title)`.
An imported entry keeps its own braces too: `from_marked` joins them with the
automatic ones, and the record keeps the result in `bibtex_title` only where it
differs from `automatic(title)`, so a record written by hand needs no such field.

The braces of an entry survive LaTeX decoding as two private-use characters
(`mark_protection` puts them in, `from_marked` reads them out).
"""

from __future__ import annotations

import re

from litrec.records.braces import brace_parts, scan

OPEN, CLOSE = "\ue000", "\ue001"  # a protecting brace pair, through LaTeX decoding
# what takes the group after it as an argument: a control word (`\emph{`) or an accent (`\"{`)
_CONTROL_BEFORE = re.compile(r"\\(?:[A-Za-z]+|[`'^\"~=.])\s*$")


def mark_protection(raw: str) -> str:
    """`raw` (a title as the entry writes it) with each protecting brace pair as OPEN ... CLOSE.

    A pair protects when it opens outside math and outside any other pair, is no command's
    argument (`\\emph{...}`, `\\"{o}`) and does not start with a command (`{\\"o}`, which BibTeX
    reads as a special character). Braces are read as LaTeX reads them (`litrec.records.braces`,
    a backslash escaping what follows it). An unbalanced text is returned as it is."""
    pairs, math, depth, start = [], False, 0, 0
    for i, piece, depth in scan(raw, "any"):
        if piece == "$" and depth == 0:
            math = not math
        elif piece == "{" and depth == 1:
            start = i
        elif piece == "}" and depth == 0:
            inner = raw[start + 1:i]
            if not math and not _CONTROL_BEFORE.search(raw[:start]) and not inner.startswith("\\"):
                pairs.append((start, i))
    if depth > 0:
        return raw
    out = list(raw)
    for start, end in pairs:
        out[start], out[end] = OPEN, CLOSE
    return "".join(out)


def tidy(marked: str) -> str:
    """A decoded title with markers, its empty pairs gone and the spaces just inside a pair
    moved outside it (`{ GD }` is `{GD}`), whitespace collapsed."""
    marked = re.sub(f"{OPEN}(\\s+)", lambda f: f.group(1) + OPEN, marked)
    marked = re.sub(f"(\\s+){CLOSE}", lambda f: CLOSE + f.group(1), marked)
    while OPEN + CLOSE in marked:
        marked = marked.replace(OPEN + CLOSE, "")
    return " ".join(marked.split())


def plain(marked: str) -> str:
    """The title a reader sees: the markers gone."""
    return marked.replace(OPEN, "").replace(CLOSE, "")


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}")


def _needs_protection(word: str) -> bool:
    return any(c.isupper() for c in word[1:])


def automatic(title: str) -> str:
    """The protected form `export bibtex` gives a title with no braces of its own: each word with
    a capital past its first letter braced (`{BERT}`, `{In-Context?}`), no other."""
    return " ".join(f"{{{_escape(w)}}}" if _needs_protection(w) else _escape(w)
                    for w in title.split())


def from_marked(marked: str) -> str:
    """The protected form of a decoded, tidied title with markers: the entry's own braces kept,
    and each word outside them braced as `automatic` braces it."""
    words, inside = [], False
    for word in marked.split():
        touched = inside or OPEN in word or CLOSE in word
        for ch in word:
            inside = {OPEN: True, CLOSE: False}.get(ch, inside)
        text = _escape(word).replace(OPEN, "{").replace(CLOSE, "}")
        words.append(f"{{{text}}}" if not touched and _needs_protection(word) else text)
    return " ".join(words)


def pieces(protected: str) -> list[tuple[str, bool]]:
    """The parts of a protected form as (text, protected), escapes read, braces gone; a part
    holds at most one level (an inner pair is part of its outer one). The records' own parser
    (`litrec.records.braces.brace_parts`), so a title reads the same when validated and exported."""
    return brace_parts(protected)
