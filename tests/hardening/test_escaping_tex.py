"""Hardening: `litrec export tex` writes every string from the records through one escaper
(`litrec.export.texescape.escape`), so no metric name, expectation, source, reason or note
can break the manuscript: no control character, no line end inside a macro's value or a
`%` comment (a line end there ended the comment and spilled the rest into the document, and
the manuscript stopped with "Missing \\begin{document}"), braces never unbalanced."""

from __future__ import annotations

import re
import shutil
import subprocess
from types import SimpleNamespace

import pytest

from litrec.export.tex import escape, tex_document
from litrec.export.texescape import comment, one_line
from litrec.verdicts.claims import ClaimStatus
from litrec.verdicts.judge import Outcome

# Every C0 control, DEL, a C1 control and the Unicode line and paragraph separators.
CONTROLS = [chr(c) for c in range(0x20)] + ["\x7f", "\x85", "\x9b", "\u2028", "\u2029"]
HOSTILE = ("loss\r\nend \\}{ unbalanced } } {{ \x1b[31mred\x1b[0m % not a comment\n\n"
           "\\end{document} ^^M ^^J # & _ ~ $x$ \\input{/etc/passwd}" + "".join(CONTROLS))
NO_PDFLATEX = "pdflatex not installed (apt-get install texlive-latex-base): the file's shape is checked, not compiled"


@pytest.mark.parametrize("ch", CONTROLS, ids=[f"U+{ord(c):04X}" for c in CONTROLS])
def test_no_control_character_or_line_end_survives_the_escaper(ch):
    assert escape(f"a{ch}") in ("a ", "a"), ch  # a space where it separates, else dropped
    assert not re.search(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", escape(f"a{ch}b{ch}{ch}c"))
    assert comment(f"a{ch}b").count("\n") == 1 and comment(f"a{ch}b").endswith("\n")


def test_the_escaper_keeps_text_and_balances_braces():
    assert one_line("a\r\nb\tc\x00d\x1b[31me") == "a  b cde"
    assert escape("}{ \\} {") == r"\}\{ \textbackslash{}\} \{"
    assert escape("x ^^M y") == r"x \^{}\^{}M y"  # never TeX's ^^ character code
    unescaped = re.sub(r"\\[{}]", "", escape(HOSTILE))
    assert unescaped.count("{") == unescaped.count("}")


def _hostile_statuses() -> tuple[SimpleNamespace, list[ClaimStatus]]:
    """A paper whose claim carries hostile text in every string the export writes."""
    proj = SimpleNamespace(records={"ARXIV-0000.00001": SimpleNamespace(
        id="ARXIV-0000.00001", kind="literature", authors=["Ada Lovelace"])})
    outcome = Outcome(expectation=HOSTILE + " ≈ 1", metric="total" + HOSTILE, measured=10.0,
                      expected=10.0, holds=False, decision="fails", interval=[9.0, 11.0], n=3,
                      source={"kind": "official", "file": "src/" + HOSTILE, "line": HOSTILE},
                      registration={"state": "post hoc"})
    status = ClaimStatus("ARXIV-0000.00001#F1", HOSTILE, "toy", "paper", "not reproduced",
                         outcomes=[outcome], through=HOSTILE, how=HOSTILE,
                         events=[{"short": HOSTILE, "text": HOSTILE}])
    return proj, [status]


def test_every_line_of_the_file_is_a_comment_or_one_definition():
    """Each line is a whole comment or one `\\newcommand` with its comment: no line end, no
    control character, no unbalanced brace anywhere in it."""
    proj, statuses = _hostile_statuses()
    text, _ = tex_document(proj, statuses, "paper")
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]", text)
    for line in text.splitlines():
        assert line.startswith(("%", "\\newcommand{\\litrec")), line
        if line.startswith("\\newcommand"):
            value = re.fullmatch(r"\\newcommand\{\\litrec[A-Za-z]+\}\{(.*)\}% .*", line)
            assert value, line
            braces = re.sub(r"\\[{}]", "", value.group(1))
            assert braces.count("{") == braces.count("}"), line
    assert "\\end{document}" not in text.replace("\\textbackslash{}end\\{document\\}", "")


def test_the_file_compiles_with_every_hostile_macro_used(tmp_path):
    """With pdflatex where it is installed: `\\input` the file, use every macro, compile."""
    proj, statuses = _hostile_statuses()
    text, _ = tex_document(proj, statuses, "paper")
    if shutil.which("pdflatex") is None:
        pytest.skip(NO_PDFLATEX)
    (tmp_path / "numbers.tex").write_text(text, encoding="utf-8")
    names = re.findall(r"^\\newcommand\{\\(\w+)\}", text, re.M)
    body = "\n".join(f"\\{name}{{}}\\par" for name in names)
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\n\\input{numbers.tex}\n\\begin{document}\n" + body
        + "\nLAST-LINE\n\\end{document}\n", encoding="utf-8")
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
                           "paper.tex"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "Missing \\begin{document}" not in done.stdout
    assert (tmp_path / "paper.pdf").stat().st_size > 1000
