"""URLs and DOIs in BibTeX: read without LaTeX's escapes, written as they are.

Some exporters escape a URL as if it were text (DBLP writes `paper\\_files`,
older files `\\%20`, `\\~{}user` or `$\\sim$user`); biblatex and `\\url` (which
natbib's styles write) read the field verbatim, so the escape would stay in the
link. `read_verbatim` gives the URL itself; `write_verbatim` gives the field's
text for a .bib file: the URL as it is, with only `{` and `}` percent-encoded
(a raw brace would unbalance the entry, and no URL holds one raw).
"""

from __future__ import annotations

import re

_LATEX = re.compile(r"""
    \$\\sim\$                                            # $\sim$: an old way to write ~
  | \\(?P<word>textasciitilde|textunderscore|textbackslash|textasciicircum)(?![A-Za-z])\s*(?:\{\})?
  | \\(?P<accent>[~^])(?:\{\})?                          # \~{} and \^{}: the characters themselves
  | \\(?P<char>[_%&\#$\{\}])                             # \_ \% \& \# \$ \{ \}
  | (?P<brace>[{}])                                      # a group's brace: {https://...}
""", re.X)
_WORDS = {"textasciitilde": "~", "textunderscore": "_", "textbackslash": "\\",
          "textasciicircum": "^"}
_URL_COMMAND = re.compile(r"\\url\s*\{(.*)\}", re.S)


def _plain(found: re.Match) -> str:
    if found.group("word"):
        return _WORDS[found.group("word")]
    if found.group("brace"):
        return ""
    return found.group("accent") or found.group("char") or "~"


def read_verbatim(text: str) -> str:
    """The URL or DOI a field's text gives: LaTeX's escapes read (`\\_` is `_`, `\\%` is `%`,
    `\\~{}` is `~`), grouping braces and a `\\url{...}` around it dropped, the ends stripped."""
    text = text.strip()
    wrapped = _URL_COMMAND.fullmatch(text)
    if wrapped:
        text = wrapped.group(1).strip()
    return _LATEX.sub(_plain, text)


def write_verbatim(url: str) -> str:
    """The text of a `url` or `doi` field: the URL as it is, `{` and `}` percent-encoded."""
    return url.replace("{", "%7B").replace("}", "%7D")
