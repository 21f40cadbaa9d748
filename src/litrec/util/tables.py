"""A table of text cells in three forms: CSV for spreadsheets, a Markdown pipe table, and a
terminal table cut to a width.

Every cell passes through `safe_text` after its line ends and tabs become spaces, so no
control character reaches a spreadsheet, a page or a terminal. CSV follows RFC 4180: CRLF
line ends, a field quoted when it holds a comma, a quote or a line end, a quote doubled
inside it. Markdown escapes `|` (`\\|`) so a cell never splits its row. The terminal table
never wraps: where the columns are wider than the width, the widest is narrowed first and
each cell that no longer fits is cut with `…` (`shorten`'s rule).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from litrec.util.formatting import shorten
from litrec.util.safetext import safe_text

GAP = 2         # spaces between two columns of the terminal table
NARROWEST = 5   # a column is never narrowed below this (or its header's width, if less)


def cell(value: object) -> str:
    """A cell's text on one line, made safe: line ends and tabs become spaces, every other
    control character `\\uXXXX`."""
    text = "" if value is None else str(value)
    return safe_text(text.replace("\r\n", " ").replace("\r", " ").replace("\n", " ").replace("\t", " "))


def csv_text(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """The table as RFC 4180 CSV (a header line, CRLF line ends, minimal quoting)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow([cell(h) for h in header])
    writer.writerows([[cell(v) for v in row] for row in rows])
    return out.getvalue()


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]],
                   right: Sequence[bool] = ()) -> str:
    """The table as a Markdown pipe table (`right`: which columns are right-aligned)."""
    def line(cells: Sequence[object]) -> str:
        return "| " + " | ".join(cell(c).replace("|", "\\|") for c in cells) + " |"

    rule = ["---:" if i < len(right) and right[i] else "---" for i in range(len(header))]
    return "\n".join([line(header), "| " + " | ".join(rule) + " |", *map(line, rows)]) + "\n"


def column_widths(header: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> list[int]:
    """Each column's width so that the whole row fits `width`: the natural widths, the widest
    narrowed one character at a time while the row is too wide (never below `NARROWEST`)."""
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(header)]
    floor = [min(NARROWEST, len(h)) or 1 for h in header]
    while sum(widths) + GAP * (len(widths) - 1) > width:
        i = max(range(len(widths)), key=lambda k: (widths[k] - floor[k] > 0, widths[k]))
        if widths[i] <= floor[i]:
            break  # nothing left to narrow: the row stays wider than asked
        widths[i] -= 1
    return widths


def terminal_table(header: Sequence[str], rows: Sequence[Sequence[object]], width: int,
                   right: Sequence[bool] = ()) -> list[str]:
    """The table as lines of at most `width` characters (unless even the narrowest columns do
    not fit): a header, a rule, a line per row; a cell too wide for its column ends in `…`."""
    texts = [[cell(v) for v in row] for row in rows]
    widths = column_widths([cell(h) for h in header], texts, width)

    def line(cells: Sequence[str]) -> str:
        parts = []
        for i, (text, w) in enumerate(zip(cells, widths)):
            text = shorten(text, w) if len(text) > w else text
            parts.append(text.rjust(w) if i < len(right) and right[i] else text.ljust(w))
        return (" " * GAP).join(parts).rstrip()

    return [line([cell(h) for h in header]), line(["─" * w for w in widths]), *map(line, texts)]
