"""BibTeX field values as written: `{braced}`, `"quoted"`, numbers, `@string` macros and `#`.

bibtexparser hands over a value as written (`foo # { and more}`); `resolve`
turns it into its text, with the file's `@string` macros and BibTeX's month
names, or raises Unconvertible naming what cannot be read. A braced or quoted part must
balance as BibTeX counts braces, every `{` and `}` whether or not a backslash precedes it
(`litrec.records.braces.bibtex_unbalanced`): `{A \\} B}` ends at `\\}` for BibTeX, which reads what
follows as more of the entry or as another entry, so it is refused (`unbalanced`).
"""

from __future__ import annotations

import re

from litrec.records.braces import bibtex_unbalanced, scan
from litrec.util.errors import Unconvertible

MONTHS = {m[:3]: m for m in ("january", "february", "march", "april", "may", "june", "july",
                             "august", "september", "october", "november", "december")}
_MACRO = re.compile(r"[A-Za-z_][^\s\"#%'(),={}]*")


def _pieces(value: str) -> list[str]:
    """The parts of a value joined by `#` outside braces and quotes, a backslash escaping what
    follows it, as bibtexparser reads them (`unbalanced` then counts as BibTeX does); a `}`
    that closes nothing counts below the outermost level."""
    parts, start, quoted, below = [], 0, False, 0
    for i, piece, depth in scan(value, "any"):
        below += depth < 0
        if piece == '"' and depth == below:
            quoted = not quoted
        elif piece == "#" and depth == below and not quoted:
            parts.append(value[start:i])
            start = i + 1
    parts.append(value[start:])
    return [p.strip() for p in parts]


# how `export bibtex` writes a brace of the text itself: balanced, as BibTeX counts braces
_LITERAL_BRACE = re.compile(r"\\textbrace(left|right)(?![A-Za-z])\s*(?:\{\})?")


def literal_braces(text: str) -> str:
    """`text` with each `\\textbraceleft{}` and `\\textbraceright{}` (a brace of the text
    itself, as `litrec export bibtex` writes it) as `\\{` and `\\}`, which LaTeX decoding reads."""
    return _LITERAL_BRACE.sub(lambda found: "\\{" if found.group(1) == "left" else "\\}", text)


def unbalanced(value: str) -> str | None:
    """Why BibTeX would read `value` (a field's value as written) otherwise than litrec does:
    a braced or quoted part whose braces do not balance when every brace counts, backslash
    or not; None when every part balances."""
    for part in _pieces(value):
        if len(part) >= 2 and (part[0], part[-1]) in (("{", "}"), ('"', '"')):
            found = bibtex_unbalanced(part[1:-1])
            if found is None:
                continue
            what = (f"the '}}' at character {found.at} of its text closes the field for BibTeX"
                    if found.brace == "}" else
                    f"the '{{' at character {found.at} of its text is never closed for BibTeX")
            return (f"{what}, which counts every brace, a backslash before it or not (so BibTeX "
                    "would read the rest as more of the entry, or as another entry); write a "
                    "brace of the text itself as \\textbraceleft{} or \\textbraceright{}, or "
                    "give it its partner")
    return None


def resolve(value: str, macros: dict) -> str:
    """The text of a value as written; `macros` maps lower-case @string names to their text
    (or to the Unconvertible that reading them raised). Unconvertible where a part does not
    balance as BibTeX counts braces (`unbalanced`)."""
    problem = unbalanced(value)
    if problem:
        raise Unconvertible(problem)
    out = []
    for part in _pieces(value):
        if len(part) >= 2 and (part[0], part[-1]) in (("{", "}"), ('"', '"')):
            out.append(part[1:-1])
        elif part.isdigit():
            out.append(part)
        elif _MACRO.fullmatch(part):
            name = part.lower()
            if isinstance(macros.get(name), Unconvertible):
                raise Unconvertible(f"the @string '{part}' it uses cannot be read: {macros[name]}")
            if name in macros:
                out.append(macros[name])
            elif name in MONTHS:
                out.append(MONTHS[name].capitalize())
            else:
                raise Unconvertible(f"'{part}' is not a @string macro of this file; "
                                    f"brace the text ({{{part}}}) or define @string{{{part} = ...}}")
        else:
            raise Unconvertible(f"cannot read the value '{part}'; write it as {{...}}")
    return "".join(out)


def string_macros(strings) -> dict:
    """The @string definitions (bibtexparser String blocks), each resolved with those before it."""
    macros: dict = {}
    for block in sorted(strings, key=lambda b: b.start_line):
        try:
            macros[block.key.lower()] = resolve(str(block.value), macros)
        except Unconvertible as exc:
            macros[block.key.lower()] = exc  # an entry that uses it says so
    return macros
