"""Braces read one way: litrec's one brace parser, for a title's case protection and for BibTeX.

Two readings of the same characters, one scanner (`brace_parts`):

- a record's `bibtex_title` (its *protected form*, `Transformers learn {In-Context}`), where
  `\\{`, `\\}` and `\\\\` are a brace or a backslash of the title itself
  (`backslash_escapes=True`, the default);
- BibTeX's own counting, where every `{` and `}` counts whether or not a backslash precedes
  it (`backslash_escapes=False`): the text `A \\} B` closes a field at `\\}` for BibTeX, so a
  `.bib` value must balance under this reading (`litrec.bibtex.values`), and every value
  `litrec export bibtex` writes does (`litrec.bibtex.write`).

A brace that closes nothing, or one never closed, raises `Unbalanced` with where it is.
"""

from __future__ import annotations


class Unbalanced(ValueError):
    """A brace closes no brace, or one is never closed: `brace` (`}` or `{`) at character `at`
    (counted from 1)."""

    def __init__(self, message: str, brace: str, at: int) -> None:
        super().__init__(message)
        self.brace, self.at = brace, at


def brace_parts(text: str, backslash_escapes: bool = True) -> list[tuple[str, bool]]:
    """`text`'s parts as (text, braced), braces gone; a part holds at most one level (an inner
    pair is part of its outer one). With `backslash_escapes`, `\\{`, `\\}` and `\\\\` are read
    as `{`, `}` and `\\`; without, backslashes are text and every brace counts (BibTeX).
    Raise `Unbalanced` where a brace closes nothing or is never closed."""
    out: list[tuple[str, bool]] = []
    part: list[str] = []
    opened: list[int] = []  # where each open brace is
    i = 0
    while i < len(text):
        ch = text[i]
        if backslash_escapes and ch == "\\" and text[i + 1:i + 2] in ("{", "}", "\\"):
            part.append(text[i + 1])
            i += 2
            continue
        if ch == "{":
            if not opened and part:
                out.append(("".join(part), False))
                part = []
            opened.append(i)
        elif ch == "}":
            if not opened:
                raise Unbalanced(f"the '}}' at character {i + 1} closes no brace", "}", i + 1)
            opened.pop()
            if not opened and part:
                out.append(("".join(part), True))
                part = []
        else:
            part.append(ch)
        i += 1
    if opened:
        raise Unbalanced("a '{' is never closed", "{", opened[0] + 1)
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
