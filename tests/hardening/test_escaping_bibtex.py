"""Hardening: BibTeX braces balanced by construction on export and refused on import where
BibTeX would count them otherwise than litrec reads them.

BibTeX counts every `{` and `}` of a field, a backslash before it or not: a title
`{Harmless \\} @misc{lovelace2023paper, title={Fabricated}} ...}` ends at `\\}` for BibTeX, which
then reads a fabricated entry under the project's real key. Before, such a title survived
`litrec import bibtex` and `litrec export bibtex` (`\\}` was how export wrote a brace of the
text). Now import refuses it, located and saying what to write, and export writes a brace of
the text as `\\textbraceleft{}` / `\\textbraceright{}`, so every value balances. One brace parser
(`litrec.records.braces.brace_parts`) reads a record's protected title and counts as BibTeX does."""

from __future__ import annotations

import shutil
import subprocess

import bibtexparser
import pytest

from litrec.bibtex.read import read_bibtex
from litrec.bibtex.write import bibtex_library
from litrec.records import model as m
from litrec.records.braces import Unbalanced, bibtex_unbalanced, brace_parts, unprotected
from litrec.util.errors import Unconvertible
from tests.support.files import write

HOSTILE_TITLES = [
    "Harmless \\} @misc{lovelace2023paper, title={Fabricated}} tail",
    "Open \\{ only",
    "Close } then @misc{evil, title = {Fake}, author = {Nobody}}",
    "}}}} @misc{evil2, title={X}",
    "{{{{ never closed",
    "Set {0,1} and \\textbf{x} and \\\\",
]
EVIL_BIB = """@misc{evil2024,
  title = {Harmless \\} @misc{lovelace2023paper, title={Fabricated}, author={Nobody}} \\{ tail},
  author = {Eve Mallory},
  eprint = {2401.00001}
}
"""
NO_BIBTEX = "bibtex not installed (apt-get install texlive-binaries): the braces are counted, BibTeX not run"


def _record(rid: str, title: str, **kw) -> m.Literature:
    return m.Literature(id=rid, kind="literature", title=title, authors=["Ada Lovelace"],
                        year=2023, **kw)


def _fields(text: str) -> list[tuple[str, str, str]]:
    """(key, field, value) of every field of every entry, values as written."""
    lib = bibtexparser.parse_string(text, parse_stack=[])
    assert not lib.failed_blocks
    return [(e.key, f.key, f.value) for e in lib.entries for f in e.fields]


# ------------------------------------------------------------------ the one parser, two readings


def test_one_parser_reads_a_protected_title_and_counts_as_bibtex_does():
    assert brace_parts("Learn {In-Context} by {GD}") == [
        ("Learn ", False), ("In-Context", True), (" by ", False), ("GD", True)]
    assert brace_parts("a \\} b") == [("a } b", False)]  # the protected form: an escape
    assert unprotected("{Set} \\{x\\}") == "Set {x}"
    found = bibtex_unbalanced("a \\} b")  # BibTeX: the brace counts, backslash or not
    assert isinstance(found, Unbalanced) and found.brace == "}" and found.at == 4
    found = bibtex_unbalanced("x {a \\{ b}")
    assert found is not None and found.brace == "{" and found.at == 3
    assert bibtex_unbalanced("\\{x\\} and {GD} \\textbraceright{}") is None
    with pytest.raises(Unbalanced, match="the '}' at character 5 closes no brace"):
        unprotected("Deep} nets")


# ------------------------------------------------------------------ export: balanced by construction


def test_export_balances_every_value_as_bibtex_counts_and_reads_back_the_same():
    records = [_record(f"ARXIV-2401.0000{i}", t, abstract=t, venue=t, keywords=[t.replace(",", "")])
               for i, t in enumerate(HOSTILE_TITLES)]
    records.append(_record("ARXIV-2401.00009", "The real paper", bibtex_key="lovelace2023paper"))
    text = bibtex_library(records)
    fields = _fields(text)
    titles = [k for k, name, _ in fields if name == "title"]
    assert len(titles) == len(set(titles)) == len(records)  # one entry per record, none fabricated
    assert titles[-1] == "lovelace2023paper"
    for key, name, value in fields:
        assert bibtex_unbalanced(value[1:-1]) is None, (key, name, value)
    back = read_bibtex(text)
    assert not back.failed, back.failed
    assert [c.data["title"] for c in back.converted] == [r.title for r in records]
    assert [c.data.get("abstract") for c in back.converted] == [r.abstract for r in records]


def test_export_refuses_a_value_that_would_not_balance(monkeypatch):
    """The last guard: were a value ever built unbalanced, it is refused, never written."""
    monkeypatch.setattr("litrec.bibtex.write.write_verbatim", lambda url: url)
    rec = _record("ARXIV-2401.00001", "T", url="https://a.org/x}y")
    with pytest.raises(Unconvertible, match=r"ARXIV-2401.00001: url: the '}' at character 16 "
                                            "closes no brace, counting braces as BibTeX does"):
        bibtex_library([rec])


def test_bibtex_itself_reads_exactly_the_exported_entries(tmp_path):
    records = [_record("ARXIV-2401.00001", "The real paper", bibtex_key="lovelace2023paper")]
    records += [_record(f"ARXIV-2401.0000{i + 2}", t, bibtex_key=f"hostile{i}")
                for i, t in enumerate(HOSTILE_TITLES)]
    if shutil.which("bibtex") is None:
        pytest.skip(NO_BIBTEX)
    (tmp_path / "refs.bib").write_text(bibtex_library(records), encoding="utf-8")
    keys = [r.bibtex_key for r in records]
    (tmp_path / "paper.aux").write_text(
        "\\relax\n" + "".join(f"\\citation{{{k}}}\n" for k in keys)
        + "\\bibstyle{plain}\n\\bibdata{refs}\n", encoding="utf-8")
    done = subprocess.run(["bibtex", "paper"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout
    assert "error" not in done.stdout.lower() and "Repeated entry" not in done.stdout, done.stdout
    bbl = (tmp_path / "paper.bbl").read_text(encoding="utf-8")
    assert sorted(ln[9:-1] for ln in bbl.splitlines() if ln.startswith("\\bibitem{")) == sorted(keys)
    assert "Fabricated" not in bbl.split("\\bibitem{lovelace2023paper}")[1].split("\\bibitem")[0]


# ------------------------------------------------------------------ import: refused, located


def test_import_refuses_a_field_bibtex_would_read_as_another_entry(mini, litrec):
    write(mini, "evil.bib", EVIL_BIB)
    res = litrec("import", "bibtex", "evil.bib", cwd=mini)
    assert res.code == 1 and "Traceback" not in res.text
    assert res.err.startswith(
        "evil.bib:1: evil2024: title (line 2): the '}' at character 11 of its text closes the field "
        "for BibTeX, which counts every brace, a backslash before it or not"), res.err
    assert "\\textbraceright{}" in res.err
    assert not (mini / "records/literature/ARXIV-2401.00001.yaml").exists()


@pytest.mark.parametrize("value, says", [
    ("{Open \\{ only}", "the '{' at character 7 of its text is never closed for BibTeX"),
    ('"quoted \\} end"', "the '}' at character 9 of its text closes the field for BibTeX"),
    ("{fine} # { and \\} not}", "the '}' at character 7 of its text closes the field"),
])
def test_every_part_of_a_value_is_counted(value, says):
    got = read_bibtex(f"@misc{{k, title = {{T}}, note = {value}, eprint = {{2401.00001}}}}\n")
    assert not got.converted and says in got.failed[0].message, got.failed


def test_a_balanced_escaped_brace_still_imports():
    got = read_bibtex("@misc{k, title = {Sets \\{0,1\\} and {GD}}, eprint = {2401.00001}}\n")
    assert not got.failed and got.converted[0].data["title"] == "Sets {0,1} and GD"
