"""Hardening: BibTeX in and out (encodings, names, missing titles, macros), and control
characters or terminal escape sequences in record text never printed raw by any command."""

from __future__ import annotations

import codecs
import json

import bibtexparser
import pytest

from litrec.bibtex.read import read_bibtex
from litrec.bibtex.source import decode_source
from litrec.util.errors import EncodingProblem
from litrec.util.safetext import safe_text, strip_unsafe
from litrec.util.yamlsafe import load_bytes
from tests.support.files import snapshot, write
from tests.support.mini import finding

ENTRY = "@misc{{k{n},\n  title = {{{title}}},\n  author = {{{author}}},\n  eprint = {{2401.0000{n}}}\n}}\n"
# What a hostile field can hold: colours, a screen clear, a carriage return, a backspace,
# a window-title OSC, a C1 control and a right-to-left override.
HOSTILE = "Evil\x1b[31m red\x1b[2J\r over\b\x1b]0;owned\x07 \x9b1m\u202eright"
RAW = ("\x1b", "\r", "\b", "\x07", "\x9b", "\u202e")

SOURCE = "source: {kind: paper, where: §1, quote: a test claim, threshold: paper}"


def lit_record(root, rid="ARXIV-0000.00002", title="A paper", authors="[Ada Lovelace]", extra=""):
    """A literature record file under `root`."""
    return write(root, f"records/literature/{rid}.yaml",
                 f"id: {rid}\nkind: literature\ntitle: {json.dumps(title)}\nauthors: {authors}\n{extra}")


def imported(root, rid):
    """The data of the record `rid` written by an import."""
    return load_bytes((root / f"records/literature/{rid}.yaml").read_bytes()).data


def assert_clean(res):
    """Nothing raw: no control character or override reached stdout or stderr; no traceback."""
    for ch in RAW:
        assert ch not in res.out and ch not in res.err, repr(ch)
    assert "Traceback" not in res.text


# ------------------------------------------------------------------ encodings


def test_cp1252_file_is_read_as_cp1252_and_says_so(mini, litrec):
    (mini / "win.bib").write_bytes(ENTRY.format(n=1, title="It’s a café – “quoted”",
                                                author="Zoë Ça").encode("cp1252"))
    res = litrec("import", "bibtex", "win.bib", cwd=mini)
    assert res.code == 0, res.text
    assert "win.bib is not UTF-8 (byte 0x92 at line 2); read it as Windows-1252" in res.err
    data = imported(mini, "ARXIV-2401.00001")
    assert data["title"] == "It’s a café – “quoted”" and data["authors"] == ["Zoë Ça"]
    assert_clean(res)


@pytest.mark.parametrize("codec,bom", [("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
                                       ("utf-32-le", codecs.BOM_UTF32_LE), ("utf-8", codecs.BOM_UTF8)])
def test_a_byte_order_mark_names_the_encoding(mini, litrec, codec, bom):
    text = ENTRY.format(n=1, title="It’s a café", author="Jo{\\~a}o Sacramento")
    (mini / "bom.bib").write_bytes(bom + text.encode(codec))
    res = litrec("import", "bibtex", "bom.bib", cwd=mini)
    assert res.code == 0, res.text
    assert imported(mini, "ARXIV-2401.00001")["title"] == "It’s a café"
    assert imported(mini, "ARXIV-2401.00001")["authors"] == ["João Sacramento"]
    assert_clean(res)


def test_utf16_without_a_byte_order_mark_is_refused_clearly(mini, litrec):
    (mini / "u16.bib").write_bytes(ENTRY.format(n=1, title="T", author="A B").encode("utf-16-le"))
    before = snapshot(mini)
    res = litrec("import", "bibtex", "u16.bib", cwd=mini)
    assert res.code == 1
    assert "u16.bib:1: not a BibTeX text file: it looks like UTF-16 without a byte-order mark; " \
           "save it as UTF-8" in res.err
    assert snapshot(mini) == before
    assert_clean(res)


@pytest.mark.parametrize("raw,line,says", [
    (b"@misc{k,\n title={Caf\xc3\xa9 and caf\xe9},\n eprint={2401.00001}}\n", 2,
     "mixes UTF-8 with another encoding"),
    (b"@misc{k,\n\n title={\x81},\n eprint={2401.00001}}\n", 3, "neither UTF-8 nor Windows-1252"),
    (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 3, "holds NUL bytes, so it is not a text file; is it the .bib"),
    (codecs.BOM_UTF16_LE + "@misc{k,\n title={x}}".encode("utf-16-le") + b"\x00\xdc", 2,
     "the byte-order mark says UTF-16, but the bytes there are not UTF-16"),
])
def test_bytes_of_no_certain_encoding_are_refused_with_their_line(mini, litrec, raw, line, says):
    (mini / "bad.bib").write_bytes(raw)
    before = snapshot(mini)
    res = litrec("import", "bibtex", "bad.bib", cwd=mini)
    assert res.code == 1 and f"bad.bib:{line}: " in res.err and says in res.err, res.err
    assert snapshot(mini) == before
    assert_clean(res)


def test_the_encoding_is_decided_below_the_command_line():
    assert decode_source("é’".encode("cp1252"), "f.bib").encoding == "Windows-1252"
    assert decode_source(codecs.BOM_UTF8 + "é".encode(), "f.bib").text == "é"
    assert decode_source("é".encode(), "f.bib").note is None
    with pytest.raises(EncodingProblem, match="f.bib:1: neither UTF-8 nor Windows-1252"):
        decode_source(b"\x8d", "f.bib")


def test_json_output_says_the_encoding_and_stays_json(mini, litrec):
    (mini / "win.bib").write_bytes(ENTRY.format(n=1, title="café", author="A B").encode("cp1252"))
    res = litrec("import", "bibtex", "win.bib", "--format", "json", cwd=mini)
    assert res.code == 0 and json.loads(res.out)["encoding"] == "Windows-1252"


# ------------------------------------------------------------------ control characters


def test_import_strips_terminal_sequences_and_never_prints_them(mini, litrec):
    (mini / "evil.bib").write_text(
        ENTRY.format(n=1, title=HOSTILE, author="Mal\x1b[1mlory Evil\u202e") +
        "@misc{bad\x1b[31mkey, eprint={2401.00002}}\n", encoding="utf-8")
    res = litrec("import", "bibtex", "evil.bib", cwd=mini)
    assert res.code == 1
    assert_clean(res)
    assert "evil.bib:6: bad\\u001b[31mkey: no title" in res.err  # the key is shown, escaped
    data = imported(mini, "ARXIV-2401.00001")
    assert data["title"] == "Evil red over right" and data["authors"] == ["Mallory Evil"]


def test_import_json_keeps_exact_strings_and_stays_valid(mini, litrec):
    (mini / "k.bib").write_text("@misc{a\u202eb\x85c, title={T}, year={soon}}\n", encoding="utf-8")
    res = litrec("import", "bibtex", "k.bib", "--format", "json", cwd=mini)
    assert res.code == 1
    assert json.loads(res.out)["failed"][0]["key"] == "a\u202eb\x85c"
    assert_clean(res)


def test_validate_never_prints_record_text_raw(mini, litrec):
    lit_record(mini, title=HOSTILE, authors=json.dumps([HOSTILE]),
               extra=f"year: {json.dumps(HOSTILE)}\ntags: [{json.dumps(HOSTILE)}]\n")
    write(mini, "records/notes/NOTE-2.yaml",
          "id: NOTE-2\nkind: note\ntitle: x\nlinks:\n"
          f"  - {{rel: uses, target: {json.dumps('ARXIV-0000.00001#' + HOSTILE)}}}\n")
    res = litrec("validate", cwd=mini)
    assert res.code == 1 and "records/literature/ARXIV-0000.00002.yaml:5:7: year: " in res.out
    assert_clean(res)
    res = litrec("validate", "--format", "json", cwd=mini)
    assert res.code == 1 and not json.loads(res.out)["valid"]
    assert_clean(res)


def test_a_hostile_file_name_is_printed_escaped(mini, litrec):
    write(mini, "records/notes/NOTE-\x1b[31m.yaml", "id: NOTE-3\nkind: note\n")
    res = litrec("validate", cwd=mini)
    assert res.code == 1 and "NOTE-\\u001b[31m.yaml" in res.out
    assert_clean(res)


@pytest.mark.slow
def test_status_run_graph_and_export_never_print_record_text_raw(mini, litrec):
    lit_record(mini, title=HOSTILE, authors=json.dumps([HOSTILE, "Barnes and Noble"]), extra="\nclaims:\n" + finding(
        f'{{metric: {json.dumps("total" + HOSTILE)}, op: ">=", value: 10, {SOURCE}}}',
        title=json.dumps(HOSTILE), statement=json.dumps(HOSTILE)))
    for args in (["status"], ["run", "--profile", "quick"], ["status", "--profile", "quick"],
                 ["graph"], ["graph", "--format", "mermaid"], ["export", "bibtex"]):
        res = litrec(*args, cwd=mini)
        assert_clean(res)
        assert res.code in (0, 1), (args, res.text)
    assert "\\u001b" in litrec("status", "--verbose", cwd=mini).out  # the expectation is shown, escaped
    out = litrec("export", "bibtex", "ARXIV-0000.00002", cwd=mini).out
    assert "{Barnes and Noble}" in out and "Evil red over right" in out
    assert not bibtexparser.parse_string(out).failed_blocks
    for args in (["status", "--format", "json"], ["graph", "--format", "json"],
                 ["export", "json"], ["run", "--profile", "quick", "--format", "json"]):
        res = litrec(*args, cwd=mini)
        json.loads(res.out)
        assert_clean(res)


def test_markup_in_record_text_is_shown_as_written(mini, litrec):
    lit_record(mini, extra="\nclaims:\n" + finding(f'{{metric: "[/red] [bold]x", op: ">=", value: 10, {SOURCE}}}',
                                                   title="t", statement="s"))
    res = litrec("status", "--verbose", cwd=mini)
    assert res.code == 0 and "[/red] [bold]x" in res.out, res.text
    assert_clean(res)


def test_new_never_prints_its_title_raw(mini, litrec):
    res = litrec("new", "work", "--title", "A\x1b[31m work\u202e", cwd=mini)
    assert_clean(res)


def test_safe_text_and_strip_unsafe():
    assert safe_text("a\x1b[31mb\tc\n\u202e") == "a\\u001b[31mb\tc\n\\u202e"
    assert strip_unsafe("a\x1b[31mb\x1b]0;t\x07c\rd\u202ee") == "abc de"
    assert json.loads(safe_text(json.dumps("\x85\u202e", ensure_ascii=False))) == "\x85\u202e"


# ------------------------------------------------------------------ names, titles, siblings


def test_a_braced_author_is_one_name_both_ways(mini, litrec):
    write(mini, "corp.bib",
          ENTRY.format(n=1, title="T", author="{Barnes and Noble} and {Google, Inc.} and Doe, Jane"))
    res = litrec("import", "bibtex", "corp.bib", cwd=mini)
    assert res.code == 0, res.text
    assert imported(mini, "ARXIV-2401.00001")["authors"] == ["Barnes and Noble", "Google, Inc.", "Jane Doe"]
    res = litrec("export", "bibtex", "ARXIV-2401.00001", cwd=mini)
    assert "= {{Barnes and Noble} and {Google, Inc.} and Jane Doe}," in res.out
    back = read_bibtex(res.out).converted[0].data["authors"]
    assert back == ["Barnes and Noble", "Google, Inc.", "Jane Doe"]


def test_an_entry_without_a_title_is_refused_with_its_line(mini, litrec):
    write(mini, "t.bib", "% refs\n\n@misc{notitle,\n  eprint = {2401.00001}\n}\n"
                         "@misc{latexonly, title = {\\relax}, eprint = {2401.00002}}\n")
    before = snapshot(mini / "records")
    res = litrec("import", "bibtex", "t.bib", cwd=mini)
    assert res.code == 1
    assert "t.bib:3: notitle: no title; add title = {" in res.err
    assert "t.bib:6: latexonly: title '\\relax' has no text once its LaTeX is read" in res.err
    assert snapshot(mini / "records") == before
    assert_clean(res)


SIBLINGS = r"""@preamble{"\newcommand{\noop}[1]{}"}
@comment{This is not an entry, eprint = {2401.09999}}
@string{icml = "Proceedings of ICML"}
@string{ full = icml # { 2023} }
@inproceedings{macro, title = "Macro" # { venue}, booktitle = full, month = jan, year = {2023}, eprint = {2401.00001}}
@misc{, title = {No key}, eprint = {2401.00002}, year = 2023}
@misc{twice, title = {Twice one}, eprint = {2401.00003}}
@misc{twice, title = {Twice two}, eprint = {2401.00004}}
@misc{lettered, title = {Lettered}, year = {2023a}, eprint = {2401.00005}}
@misc{undefined, title = nosuchmacro, eprint = {2401.00006}}
@misc{unused, title = {Unused}, note = {fine}, series = nosuchmacro, eprint = {2401.00007}}
"""


def test_bibtex_siblings_import_or_fail_located(mini, litrec):
    write(mini, "s.bib", SIBLINGS)
    res = litrec("import", "bibtex", "s.bib", cwd=mini)
    assert res.code == 1
    assert_clean(res)
    macro = imported(mini, "ARXIV-2401.00001")
    assert macro["title"] == "Macro venue" and macro["venue"] == "Proceedings of ICML 2023"
    assert macro["year"] == 2023
    assert imported(mini, "ARXIV-2401.00002")["year"] == 2023
    assert [imported(mini, f"ARXIV-2401.0000{n}")["title"] for n in (3, 4, 7)] == [
        "Twice one", "Twice two", "Unused"]
    assert "s.bib:9: lettered: year '2023a' is not a four-digit year" in res.err
    assert "s.bib:10: undefined: title: 'nosuchmacro' is not a @string macro of this file" in res.err
    assert "dropped (no record field holds them): note, series" in res.out  # the line of `unused`
    assert not (mini / "records/literature/ARXIV-2401.09999.yaml").exists()


@pytest.mark.parametrize("text", ["title: not bibtex\nauthors: [x]\n", "", "   \n% only a comment\n"])
def test_text_that_is_not_bibtex_says_so(mini, litrec, text):
    (mini / "x.bib").write_text(text, encoding="utf-8")
    res = litrec("import", "bibtex", "x.bib", cwd=mini)
    assert res.code == 1 and "no BibTeX entries in x.bib" in res.err
    assert_clean(res)


def test_a_huge_file_is_refused_before_it_is_read(mini, litrec, monkeypatch):
    import io

    from litrec.bibtex import source

    monkeypatch.setattr(source, "MAX_BYTES", 10)
    with pytest.raises(Exception, match="big.bib is larger than"):
        source.read_source(io.BytesIO(b"@misc{k, title={T}}"), "big.bib")


def test_a_folder_is_not_a_bibtex_file(mini, litrec):
    res = litrec("import", "bibtex", "records", cwd=mini)
    assert res.code == 2 and "BibTeX file 'records' is not a file" in res.err


BRACES_AND_LINKS = r"""@inproceedings{DBLP:conf/x/Good23,
  title = {Good {GD} and {A} Title},
  url = {http://a.org/paper\_files/x\%20y.html},
  eprint = {2401.00001}
}
@inproceedings{DBLP:conf/x/Broken23,
  title = {Broken {GD title},
  url = {http://a.org/paper\_files/},
  eprint = {2401.00002}
}
@misc{lee~2020, title = {Tilde key}, eprint = {2401.00003}}
"""


def test_keys_braces_and_escaped_links_import_or_fail_located(mini, litrec):
    write(mini, "k.bib", BRACES_AND_LINKS)
    res = litrec("import", "bibtex", "k.bib", cwd=mini)
    assert res.code == 1
    assert_clean(res)
    assert res.err.startswith("k.bib:6: DBLP:conf/x/Broken23: cannot parse the entry: ")
    good = imported(mini, "ARXIV-2401.00001")
    assert good["url"] == "http://a.org/paper_files/x%20y.html"
    assert good["bibtex_key"] == "DBLP:conf/x/Good23"
    assert good["bibtex_title"] == "Good {GD} and {A} Title"
    assert "created records/literature/ARXIV-2401.00003.yaml from k.bib:11 (lee~2020)\n" \
           "  dropped (no record field holds them): key\n" in res.out
    assert "bibtex_key" not in imported(mini, "ARXIV-2401.00003")
    out = litrec("export", "bibtex", "ARXIV-2401.00001", "ARXIV-2401.00003", cwd=mini)
    assert out.code == 0, out.err
    keys = [e.key for e in bibtexparser.parse_string(out.out).entries]
    assert keys == ["DBLP:conf/x/Good23", "tilde2024"]  # a key not kept: the generated one
    assert "url           = {http://a.org/paper_files/x%20y.html}" in out.out
    assert "title         = {Good {GD} and {A} Title}" in out.out


def test_a_bibtex_title_that_is_not_the_title_is_a_located_error(mini, litrec):
    lit_record(mini, title="Deep nets", extra="bibtex_title: '{Wide} nets'\n")
    res = litrec("validate", cwd=mini)
    assert res.code == 1
    assert_clean(res)
    assert ("records/literature/ARXIV-0000.00002.yaml:5:15: bibtex_title: without its braces it "
            "reads 'Wide nets', not the title 'Deep nets'") in res.text
