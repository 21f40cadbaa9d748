"""BibTeX both ways, beyond the ids of arXiv and DOI: ids from citation keys and `--id`, the
fields a record keeps and those it drops, and the year of a paper published after its preprint."""

from __future__ import annotations

import datetime as dt
import json

import bibtexparser
import pytest

from litrec.bibtex.identifiers import key_id
from litrec.bibtex.read import read_bibtex
from litrec.bibtex.write import bibtex_entry
from litrec.records import model as m
from litrec.util.yamlsafe import load_bytes

from .conftest import run_cli

TODAY = dt.date(2026, 1, 2)
LIT = "records/literature"


def _read(text: str, **ids):
    return read_bibtex(text, TODAY, ids or None)


def _only(text: str) -> dict:
    read = _read(text)
    assert not read.failed, read.failed
    (conv,) = read.converted
    return conv.data


def _record(project, rid: str) -> dict:
    return load_bytes((project / LIT / f"{rid}.yaml").read_bytes()).data


# ------------------------------------------------------------------ ids


@pytest.mark.parametrize("key,rid", [
    ("bishop2006pattern", "REF-bishop2006pattern"),
    ("Smith:2020:Deep", "REF-smith-2020-deep"),
    ("Müller_2020", "REF-muller-2020"),
    ("--", None),
])
def test_ids_from_citation_keys(key, rid):
    assert key_id(key) == rid


def test_a_key_without_letters_or_digits_is_refused_with_the_id_option():
    read = _read("\n@book{--, title = {T}}\n")
    assert not read.converted
    (fail,) = read.failed
    assert fail.line == 2 and "has no letter or digit to make an id from; pass --id" in fail.message


def test_arxiv_and_doi_win_over_the_key():
    assert _only("@misc{smith2020, title={T}, eprint={2001.00001}}")["id"] == "ARXIV-2001.00001"
    assert _only("@misc{smith2020, title={T}, doi={10.1000/x}}")["id"] == "DOI-10.1000_x"


def test_an_id_given_for_a_key_wins():
    read = _read("@misc{a, title={T}, eprint={2001.00001}}\n@misc{b, title={U}}\n", a="REF-mine")
    assert [c.data["id"] for c in read.converted] == ["REF-mine", "REF-b"]
    assert read.converted[0].data["arxiv"] == "2001.00001"


BIB = """@book{bishop2006pattern,
  title     = {Pattern Recognition and Machine Learning},
  author    = {Bishop, Christopher M.},
  publisher = {Springer},
  year      = {2006},
  isbn      = {978-0-387-31073-2},
}

@article{wiley1998,
  title = {A paper whose DOI no id can hold},
  doi   = {10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O},
}
"""


def test_import_without_arxiv_or_doi(project):
    (project / "refs.bib").write_text(BIB)
    code, out, err = run_cli("litrec import bibtex refs.bib", project)
    assert code == 1
    assert out.splitlines() == [
        f"created {LIT}/REF-bishop2006pattern.yaml from refs.bib:1 (bishop2006pattern)",
        "  dropped (no record field holds them): isbn"]
    assert "refs.bib:9: wiley1998: DOI '10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O' " \
           "has characters a record id cannot hold (: < >); give the entry an id: --id wiley1998=REF-..." \
           in err
    assert _record(project, "REF-bishop2006pattern")["publisher"] == "Springer"
    code, out, err = run_cli("litrec import bibtex refs.bib --id wiley1998=REF-wiley-1998", project)
    assert code == 1 and f"created {LIT}/REF-wiley-1998.yaml from refs.bib:9 (wiley1998)" in out
    assert _record(project, "REF-wiley-1998")["doi"].startswith("10.1002/(SICI)")
    assert "REF-bishop2006pattern already exists" in err  # imported by the first run
    assert run_cli("litrec validate --quiet", project)[0] == 0


def test_another_paper_with_the_same_key_is_told_to_take_its_own_id(project):
    (project / "a.bib").write_text("@misc{smith2020, title={Deep nets}}\n")
    (project / "b.bib").write_text("@misc{smith2020, title={Shallow nets}}\n")
    assert run_cli("litrec import bibtex a.bib", project)[0] == 0
    code, _, err = run_cli("litrec import bibtex b.bib", project)
    assert code == 1 and "if it is another paper, give this one its own id: --id smith2020=REF-..." in err
    code, out, _ = run_cli("litrec import bibtex b.bib --id smith2020=REF-smith2020-shallow", project)
    assert code == 0 and _record(project, "REF-smith2020-shallow")["title"] == "Shallow nets"
    assert _record(project, "REF-smith2020")["title"] == "Deep nets"


@pytest.mark.parametrize("option,message", [
    ("--id nokey=REF-x", "--id nokey=...: no entry has the key 'nokey' (keys: bishop2006pattern, wiley1998)"),
    ("--id bishop2006pattern=bishop", "'bishop' is not a literature id; give ARXIV-2212.07677"),
    ("--id bishop2006pattern", "write KEY=ID"),
    ("--id bishop2006pattern=REF-a --id bishop2006pattern=REF-b",
     "--id gives the key 'bishop2006pattern' two ids (REF-a, REF-b); give one"),
])
def test_id_option_errors_write_nothing(project, option, message):
    (project / "refs.bib").write_text(BIB)
    before = sorted(p.name for p in (project / LIT).iterdir())
    code, out, err = run_cli(f"litrec import bibtex refs.bib {option}", project)
    assert code == 2 and out == "" and message in err, err
    assert sorted(p.name for p in (project / LIT).iterdir()) == before


# ------------------------------------------------------------------ fields


@pytest.mark.parametrize("written,month", [
    ("jun", 6), ("{June}", 6), ("{6}", 6), ("{06}", 6), ("{Sept.}", 9), ("dec", 12)])
def test_month(written, month):
    assert _only(f"@misc{{k, title={{T}}, month = {written}}}")["month"] == month


def test_number_abstract_and_keywords_are_kept():
    data = _only("@article{k, title={T}, journal={J}, volume={3}, number={2},\n"
                 "abstract={We show that {\\'e}l{\\`e}ves\n   learn.},\n"
                 "keywords={in-context learning; transformers, in-context learning}}")
    assert data["number"] == "2" and data["abstract"] == "We show that élèves learn."
    assert data["keywords"] == ["in-context learning", "transformers"]


def test_dropped_fields_are_named_in_entry_order():
    read = _read("@inproceedings{k, title={T}, journal={J}, booktitle={B}, eprint={2001.00001},\n"
                 "archivePrefix={arXiv}, doi={not a doi}, note={}, series=undefinedmacro,\n"
                 "editor={E. Ditor}, url={https://arxiv.org/abs/2001.00001}}")
    (conv,) = read.converted
    assert conv.data["venue"] == "J" and "doi" not in conv.data
    assert conv.dropped == ["booktitle", "doi", "series"]  # series: an undefined macro; editor is kept


def test_fields_that_say_the_arxiv_number_are_not_dropped():
    read = _read("@article{k, title={T}, journal={CoRR}, volume={abs/2005.14165},\n"
                 "eprinttype={arXiv}, eprint={2005.14165}, note={arXiv:2005.14165}}")
    assert read.converted[0].dropped == []


# ------------------------------------------------------------------ year

# A fixture record: published at ICML 2023, posted to arXiv in December 2022.
ICML = """# yaml-language-server: $schema=../../schema/literature.schema.json
id: ARXIV-2212.07677
kind: literature
title: Transformers learn in-context by gradient descent
authors: [Johannes von Oswald, Max Vladymyrov]
year: 2023
month: 7
venue: ICML 2023
volume: "202"
number: "1"
pages: 35151–35174
arxiv: "2212.07677"
keywords: [in-context learning, meta-learning]
abstract: At present, the mechanisms of in-context learning in Transformers are not well understood.
"""


def _icml() -> m.Literature:
    return m.Literature.model_validate(load_bytes(ICML.encode()).data)


def test_export_gives_the_venues_year_and_the_arxiv_number_as_eprint():
    (entry,) = bibtexparser.parse_string(bibtex_entry(_icml())).entries
    fields = {f.key: f.value for f in entry.fields}
    assert entry.key == "vonoswald2023transformers" and entry.entry_type == "inproceedings"
    assert fields["year"] == "2023" and fields["booktitle"] == "ICML 2023"
    assert fields["eprint"] == "2212.07677" and fields["archivePrefix"] == "arXiv"
    assert "month         = jul," in bibtex_entry(_icml())  # the macro, unbraced
    assert fields["number"] == "1" and fields["keywords"] == "in-context learning, meta-learning"


def test_a_preprint_without_a_year_takes_its_arxiv_numbers():
    rec = m.Literature(id="ARXIV-2212.07677", kind="literature", title="T", arxiv="2212.07677v2")
    assert "year          = {2022}" in bibtex_entry(rec)
    assert "year" not in bibtex_entry(m.Literature(id="REF-t", kind="literature", title="T"))


def test_export_then_import_keeps_every_citation_field(project):
    path = project / LIT / "ARXIV-2212.07677.yaml"
    path.write_text(ICML + "filed: {date: 2026-01-02}\n")
    before = path.read_text()
    code, _, _ = run_cli("litrec export bibtex ARXIV-2212.07677 --out out.bib", project)
    assert code == 0
    code, out, _ = run_cli("litrec import bibtex out.bib --force --format json", project)
    assert code == 0
    (done,) = json.loads(out)["records"]
    assert done["action"] == "unchanged" and done["dropped"] == [], done
    assert path.read_text() == before


def test_a_key_id_is_a_literature_id_everywhere():
    from litrec.records.kinds import kind_of_id
    from litrec.site.safe_markdown import ID_CANDIDATE

    assert kind_of_id("REF-bishop2006pattern") == "literature"
    assert kind_of_id("REF-Bishop") is None and kind_of_id("REF-") is None
    found = ID_CANDIDATE.search("as REF-smith-2020-deep#P1 shows")
    assert found and found.group(1) == "REF-smith-2020-deep#P1"
