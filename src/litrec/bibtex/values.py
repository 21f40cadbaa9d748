"""BibTeX field values as written: `{braced}`, `"quoted"`, numbers, `@string` macros and `#`.

bibtexparser hands over a value as written (`foo # { and more}`); `resolve`
turns it into its text, with the file's `@string` macros and BibTeX's month
names, or raises Unconvertible naming what cannot be read.
"""

from __future__ import annotations

import re

from litrec.util import Unconvertible

MONTHS = {m[:3]: m for m in ("january", "february", "march", "april", "may", "june", "july",
                             "august", "september", "october", "november", "december")}
_MACRO = re.compile(r"[A-Za-z_][^\s\"#%'(),={}]*")


def _pieces(value: str) -> list[str]:
    """The parts of a value joined by `#` outside braces and quotes (`\\{`, `\\}` and `\\"` are
    characters, as bibtexparser reads them and `litrec export bibtex` writes them)."""
    parts, start, depth, quoted, escaped = [], 0, 0, False, False
    for i, ch in enumerate(value):
        if escaped or ch == "\\":
            escaped = not escaped and ch == "\\"
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0:
            quoted = not quoted
        elif ch == "#" and depth == 0 and not quoted:
            parts.append(value[start:i])
            start = i + 1
    parts.append(value[start:])
    return [p.strip() for p in parts]


def resolve(value: str, macros: dict) -> str:
    """The text of a value as written; `macros` maps lower-case @string names to their text
    (or to the Unconvertible that reading them raised)."""
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
