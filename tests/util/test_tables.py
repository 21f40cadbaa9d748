"""`litrec.util.tables`: a table as RFC 4180 CSV, as a Markdown pipe table and as a terminal
table cut to a width, every cell made safe."""

from __future__ import annotations

import csv
import io

from hypothesis import given
from hypothesis import strategies as st

from litrec.util.tables import csv_text, markdown_table, terminal_table

HEADER = ("claim", "verdict", "metrics")
HOSTILE = ["a, b", 'say "hi"', "two\nlines", "tab\there", "\x1b[31mred\x1b[0m", "rtl\u202eevil", "a|b"]


def test_csv_is_rfc_4180_and_every_cell_is_safe():
    text = csv_text(HEADER, [HOSTILE[:3], HOSTILE[3:6]])
    assert text.endswith("\r\n") and text.count("\r\n") == 3  # CRLF, a line per row
    assert '"a, b","say ""hi""",two lines\r\n' in text       # quoted where needed, quotes doubled
    assert "\x1b" not in text and "\u202e" not in text and "\t" not in text
    assert "\\u001b[31mred" in text and "rtl\\u202eevil" in text
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == list(HEADER) and rows[1] == ["a, b", 'say "hi"', "two lines"]


@given(st.lists(st.lists(st.text(max_size=12), min_size=3, max_size=3), max_size=5))
def test_csv_reads_back_as_written_where_the_text_is_plain(rows):
    plain = [[" ".join("".join(c for c in v if c.isprintable()).split()) for v in row] for row in rows]
    back = list(csv.reader(io.StringIO(csv_text(HEADER, plain), newline="")))
    assert back == [list(HEADER), *plain]


def test_markdown_escapes_pipes_and_keeps_one_line_per_row():
    text = markdown_table(HEADER, [HOSTILE[:3], HOSTILE[4:7]], right=(False, True))
    lines = text.splitlines()
    assert lines[:2] == ["| claim | verdict | metrics |", "| --- | ---: | --- |"]
    assert len(lines) == 4 and lines[3].endswith("| a\\|b |")
    assert lines[2] == '| a, b | say "hi" | two lines |'
    assert all(line.count(" | ") - line.count("\\| ") == 2 for line in lines)


def test_the_terminal_table_fits_its_width_and_cuts_the_widest_column_with_an_ellipsis():
    rows = [["ARXIV-2212.07677#F1", "not reproduced", "loss_trained 0.5; " * 8],
            ["NOTE-621#C1", "reproduced", "params_unchanged true"]]
    lines = terminal_table(HEADER, rows, 60)
    assert all(len(line) <= 60 for line in lines), lines
    assert lines[2].startswith("ARXIV-2212.07677#F1  not reproduced  loss_trained 0.5;")
    assert lines[2].endswith("…") and not lines[3].endswith("…")  # only what does not fit is cut
    assert lines[1].startswith("───") and len(lines) == 4
    wide = terminal_table(HEADER, rows[1:], 200)
    assert wide[2] == "NOTE-621#C1  reproduced  params_unchanged true"
