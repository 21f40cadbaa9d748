"""Hardening: a `@string` macro defined twice in a .bib file.

bibtexparser keeps the first definition and hands the second over as a failed block
wrapping a String, not an Entry; reading it as an entry crashed `litrec import bibtex`
with a traceback (found by mypy). The second definition is now a located failure and
the entries are read with the first.
"""

from __future__ import annotations

from litrec.bibtex.read import read_bibtex
from tests.support.files import write

TWICE = """@string{jmlr = "JMLR"}
@misc{first, title = {First}, eprint = {2401.00011}}
@string{jmlr = "J. Mach. Learn. Res."}
@article{second, title = {Second}, journal = jmlr, eprint = {2401.00012}}
"""


def test_a_string_defined_twice_fails_at_its_line_and_the_entries_are_read():
    read = read_bibtex(TWICE)
    assert [(f.line, f.key, f.message) for f in read.failed] == [
        (3, None, "@string 'jmlr' is defined again (first at line 1), and only the first "
                  "definition is used; keep one of them or rename this one")]
    assert [c.key for c in read.converted] == ["first", "second"]
    assert read.converted[1].data["venue"] == "JMLR"
    assert read.keys == {"first", "second"}  # a macro's name is no citation key


def test_import_names_the_second_string_without_a_traceback(mini, litrec):
    write(mini, "twice.bib", TWICE)
    res = litrec("import", "bibtex", "twice.bib", cwd=mini)
    assert res.code == 1, res.text
    assert "Traceback" not in res.text
    assert "twice.bib:3: @string 'jmlr' is defined again (first at line 1)" in res.err
    assert (mini / "records/literature/ARXIV-2401.00012.yaml").exists()
    assert "2 created; 1 not imported" in res.err
