"""What reading and writing BibTeX share: the citation fields, names' LaTeX specials in braces,
and the parsers' logs kept quiet."""

from __future__ import annotations

import logging
import re

# Fields a literature record shares with BibTeX; `import bibtex --force` updates exactly these.
CITATION_FIELDS = ("title", "bibtex_title", "bibtex_key", "authors", "year", "month", "venue",
                   "entry_type", "editors", "series", "address", "organization", "volume",
                   "number", "pages", "publisher", "arxiv", "doi", "url", "abstract", "keywords")


class _Keep(logging.Handler):
    """A log handler that keeps every record it is handed, in order."""

    def __init__(self, records: list[logging.LogRecord]) -> None:
        super().__init__()
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class quiet:
    """Silence bibtexparser's and pylatexenc's log lines; keep them for error messages."""

    def __enter__(self) -> quiet:
        self.records: list[logging.LogRecord] = []
        self.handler = _Keep(self.records)
        self.loggers = [logging.getLogger(n) for n in ("bibtexparser", "pylatexenc")]
        self.saved = [(lg.propagate, lg.level) for lg in self.loggers]
        for lg in self.loggers:
            lg.addHandler(self.handler)
            lg.propagate = False
            lg.setLevel(logging.INFO)
        return self

    def __exit__(self, *exc: object) -> None:
        for lg, (propagate, level) in zip(self.loggers, self.saved):
            lg.removeHandler(self.handler)
            lg.propagate, lg.level = propagate, level

    def messages(self) -> list[str]:
        """The warnings and errors logged while silenced."""
        return [r.getMessage() for r in self.records if r.levelno >= logging.WARNING]


# A LaTeX special character in a name: an accent and its letter (\~a, \'{e}, \"\i), a control
# word with its argument or the spaces after it (\o, \v{c}, \textasciitilde{}), an escaped symbol.
_SPECIAL = re.compile(r"(?<!{)\\(?:[`'^\"~=.]\s*(?:\{[^{}]*\}|\\[A-Za-z]+|[A-Za-z])"
                      r"|[A-Za-z]+(?:\s*\{[^{}]*\}|\s*)|[&%$#_{}])")


def brace_specials(name: str) -> str:
    """Each LaTeX special character of a name in braces (`Jo{\\~a}o`), as BibTeX wants it:
    unbraced, the `~` of `\\~a` is a space between two names."""
    return _SPECIAL.sub(lambda found: "{" + found.group() + "}", name)
