"""Text safe in a TeX file: the one escaper every string `litrec export tex` writes passes through.

A string from the records (a metric's name, an expectation, a claim's title, a reason) reaches
the macros file inside a macro's value or in a `%` comment beside it. `escape` makes it safe in
both, whatever it holds:

- TeX's specials are written as text (`\\` -> `\\textbackslash{}`, `{` -> `\\{`, `%` -> `\\%`,
  `^` -> `\\^{}`, ...), so a brace never opens or closes a group and `^^` never reads as a
  character code; litrec's maths symbols become TeX's (`≈` -> `\\ensuremath{\\approx}`);
- no line ends and no control character: a line end would end a `%` comment and spill what
  follows into the document, and a blank line or a control character (TeX reads most as
  invalid) stops the manuscript. Terminal sequences and control characters go as
  `litrec.util.safetext.strip_unsafe` drops them (CR, LF, tab, form feed, U+0085, U+2028 and U+2029
  become a space; NUL, ESC and the rest are dropped), so each string is one line.
"""

from __future__ import annotations

import re

from litrec.records.operators import OPERATORS
from litrec.util.safetext import strip_unsafe

_TEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "#": r"\#", "$": r"\$",
                "%": r"\%", "&": r"\&", "_": r"\_", "^": r"\^{}", "~": r"\~{}"}
_SYMBOLS = {"§": r"\S{}", "×": r"\ensuremath{\times}", "±": r"\ensuremath{\pm}",
            "≤": r"\ensuremath{\le}", "≥": r"\ensuremath{\ge}", "−": "-",
            # each operator's own symbol (`litrec.records.operators`; one or two characters)
            **{o.name: o.tex for o in OPERATORS if o.tex is not None}}
_LINE_ENDS = re.compile(r"[\t\n]")  # what strip_unsafe keeps of the characters that separate


def one_line(text: str) -> str:
    """`text` without control characters or terminal sequences, on one line (each character
    that separates, a line end included, a space)."""
    return _LINE_ENDS.sub(" ", strip_unsafe(str(text)))


def escape(text: str) -> str:
    """Text safe in a TeX document, in a macro's value or a comment alike: one line, no control
    character, TeX's specials as text, litrec's maths symbols as TeX's."""
    text = one_line(text)
    out, i = [], 0
    while i < len(text):
        two = text[i:i + 2]
        if two in _SYMBOLS:
            out.append(_SYMBOLS[two])
            i += 2
            continue
        c = text[i]
        out.append(_SYMBOLS.get(c) or _TEX_SPECIAL.get(c) or c)
        i += 1
    return "".join(out)


def comment(text: str) -> str:
    """A `%` comment line of `text`, escaped: it ends where its line does, never earlier."""
    return f"% {escape(text)}\n"
