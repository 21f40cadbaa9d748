"""Braces read one way: litrec's one brace scanner (`scan`), for a title's case protection,
for BibTeX's own counting and for LaTeX.

Three readings of the same characters, one scanner, which differ only in which
backslashes escape the character after them:

- a record's `bibtex_title` (its *protected form*, `Transformers learn {In-Context}`), where
  `\\{`, `\\}` and `\\\\` are a brace or a backslash of the title itself (`braces`: `brace_parts`,
  `unprotected`);
- BibTeX's own counting, where every `{` and `}` counts whether or not a backslash precedes
  it (`none`): the text `A \\} B` closes a field at `\\}` for BibTeX, so a `.bib` value must
  balance under this reading (`bibtex_unbalanced`, `litrec.bibtex.values`), and every value
  `litrec export bibtex` writes does (`litrec.bibtex.write`);
- LaTeX's, where a backslash takes whatever follows it (`\\"`, `\\$`; `any`): which braces of an
  imported title protect it (`litrec.bibtex.protect`), and where a value's `#` joins parts
  (`litrec.bibtex.values`).

A brace that closes nothing, or one never closed, raises `Unbalanced` with where it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal


class Unbalanced(ValueError):
    """A brace closes no brace, or one is never closed: `brace` (`}` or `{`) at character `at`
    (counted from 1)."""

    def __init__(self, message: str, brace: str, at: int) -> None:
        super().__init__(message)
        self.brace, self.at = brace, at


Escapes = Literal["none", "braces", "any"]


def scan(text: str, escapes: Escapes = "braces") -> Iterator[tuple[int, str, int]]:
    """`text` as (where, piece, depth), piece by piece: `{` opening a group, `}` closing one, or
    text: one character, or an escape as written (a backslash and the character after it).
    `depth`: how many groups are open after the piece; -1 for a `}` that closes none, which
    is otherwise passed over. Which backslashes escape: none (BibTeX's count), those before a
    brace or a backslash (`braces`, a protected title) or any (LaTeX)."""
    depth, i, n = 0, 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and (escapes == "any" or (escapes == "braces" and text[i + 1] in "{}\\")):
            yield i, text[i:i + 2], depth
            i += 2
            continue
        if ch == "{":
            depth += 1
            yield i, ch, depth
        elif ch == "}":
            if depth:
                depth -= 1
                yield i, ch, depth
            else:
                yield i, ch, -1
        else:
            yield i, ch, depth
        i += 1


def brace_parts(text: str, backslash_escapes: bool = True) -> list[tuple[str, bool]]:
    """`text`'s parts as (text, braced), braces gone; a part holds at most one level (an inner
    pair is part of its outer one). With `backslash_escapes`, `\\{`, `\\}` and `\\\\` are read
    as `{`, `}` and `\\`; without, backslashes are text and every brace counts (BibTeX).
    Raise `Unbalanced` where a brace closes nothing or is never closed."""
    out: list[tuple[str, bool]] = []
    part: list[str] = []
    depth, opened = 0, 0  # where the outermost open brace is
    for i, piece, depth in scan(text, "braces" if backslash_escapes else "none"):
        if piece == "{":
            if depth == 1:
                opened = i
                if part:
                    out.append(("".join(part), False))
                    part = []
        elif piece == "}":
            if depth < 0:
                raise Unbalanced(f"the '}}' at character {i + 1} closes no brace", "}", i + 1)
            if depth == 0 and part:
                out.append(("".join(part), True))
                part = []
        else:
            part.append(piece[-1])  # an escape read as its character
    if depth > 0:
        raise Unbalanced("a '{' is never closed", "{", opened + 1)
    if part:
        out.append(("".join(part), False))
    return out


def unprotected(protected: str) -> str:
    """The text of a title with BibTeX case protection (`{GD}`): its braces gone, `\\{`, `\\}`
    and `\\\\` read as `{`, `}` and `\\`; raise `Unbalanced` (a ValueError) if a brace is
    unmatched."""
    return "".join(text for text, _ in brace_parts(protected))


def bibtex_unbalanced(text: str) -> Unbalanced | None:
    """Why BibTeX, which counts every brace backslash or not, would read `text` (a field's
    value between its delimiters) as ending early or never ending; None when it balances."""
    try:
        brace_parts(text, backslash_escapes=False)
    except Unbalanced as exc:
        return exc
    return None
