"""Conference papers survive BibTeX import and export: `@inproceedings` stays `@inproceedings`
with its `booktitle` (and editors, series, publisher, organization), as Zotero, Google Scholar,
DBLP and arXiv export them (tests/fixtures/bibtex/conference.bib); a title keeps the entry's
braces, and gains only those site/usage.md says (capitals past a word's first letter)."""

from __future__ import annotations

import datetime as dt

import bibtexparser
import pytest

from litrec.bibtex.citation import CITATION_FIELDS
from litrec.bibtex.read import read_bibtex
from litrec.bibtex.write import bibtex_entry, entry_type
from litrec.records import model as m
from tests.conftest import FIXTURES

BIB = (FIXTURES / "bibtex" / "conference.bib").read_text(encoding="utf-8")
TODAY = dt.date(2026, 1, 2)


def _records() -> dict[str, m.Literature]:
    read = read_bibtex(BIB, TODAY)
    assert not read.failed, read.failed
    return {c.key: m.Literature.model_validate(c.data) for c in read.converted}


def _fields(text: str) -> tuple[str, dict[str, str]]:
    (entry,) = bibtexparser.parse_string(text).entries
    return entry.entry_type, {f.key: " ".join(str(f.value).split()) for f in entry.fields}


def test_every_entry_is_read():
    assert set(_records()) == {"garg_what_2022", "von2023transformers",
                               "DBLP:conf/icml/OswaldNRSMZV23", "DBLP:conf/nips/VaswaniSPUJGKP17",
                               "garg2023transformerslearnincontextcase", "garg2022can"}


@pytest.mark.parametrize("key,kind,venue_field,venue", [
    ("garg_what_2022", "inproceedings", "booktitle", "Advances in Neural Information Processing Systems"),
    ("von2023transformers", "inproceedings", "booktitle", "International Conference on Machine Learning"),
    ("DBLP:conf/icml/OswaldNRSMZV23", "inproceedings", "booktitle",
     "International Conference on Machine Learning, ICML 2023, 23-29 July 2023, Honolulu, Hawaii, USA"),
    ("DBLP:conf/nips/VaswaniSPUJGKP17", "inproceedings", "booktitle",
     "Advances in Neural Information Processing Systems 30: Annual Conference on Neural Information "
     "Processing Systems 2017, December 4-9, 2017, Long Beach, CA, USA"),
    ("garg2022can", "article", "journal", "Advances in Neural Information Processing Systems"),
    ("garg2023transformerslearnincontextcase", "misc", None, None),
])
def test_the_entry_type_and_venue_survive_import_and_export(key, kind, venue_field, venue):
    rec = _records()[key]
    assert entry_type(rec) == kind and rec.venue == venue
    exported_kind, fields = _fields(bibtex_entry(rec))
    assert exported_kind == kind
    venues = {"booktitle", "journal", "howpublished"} & set(fields)
    assert venues == ({venue_field} if venue_field else set())
    if venue_field:
        back = read_bibtex(bibtex_entry(rec), TODAY).converted[0].data
        assert back["venue"] == venue and back.get("entry_type") == rec.entry_type


def test_the_type_is_kept_where_the_venue_does_not_say_it():
    recs = _records()
    assert recs["garg_what_2022"].entry_type == "inproceedings"  # "Advances in ...": no keyword
    assert recs["garg2022can"].entry_type is None                # article: what the venue implies
    assert recs["von2023transformers"].entry_type is None        # "Conference": implied


def test_dblp_keeps_editors_series_and_publisher():
    rec = _records()["DBLP:conf/icml/OswaldNRSMZV23"]
    assert rec.editors[0] == "Andreas Krause" and len(rec.editors) == 6
    assert rec.series == "Proceedings of Machine Learning Research" and rec.publisher == "PMLR"
    _, fields = _fields(bibtex_entry(rec))
    assert fields["editor"].startswith("Andreas Krause and Emma Brunskill and")
    assert fields["series"] == "Proceedings of Machine Learning Research"
    assert fields["volume"] == "202" and fields["pages"] == "35151--35174"
    assert _records()["von2023transformers"].organization == "PMLR"


def test_titles_keep_the_entrys_braces_and_gain_only_those_the_docs_say():
    zotero = _records()["garg_what_2022"]  # Zotero braced every capitalised word: kept
    assert zotero.title == "What Can Transformers Learn In-Context? A Case Study of Simple Function Classes"
    _, fields = _fields(bibtex_entry(zotero))
    assert fields["title"] == ("What {Can} {Transformers} {Learn} {In}-{Context}? {A} {Case} "
                               "{Study} of {Simple} {Function} {Classes}")
    arxiv = _records()["garg2023transformerslearnincontextcase"]  # no braces of its own
    assert arxiv.bibtex_title is None
    _, fields = _fields(bibtex_entry(arxiv))
    assert fields["title"] == ("What Can Transformers Learn {In-Context?} A Case Study of Simple "
                               "Function Classes")


@pytest.mark.parametrize("key", ["garg_what_2022", "von2023transformers",
                                 "DBLP:conf/icml/OswaldNRSMZV23", "DBLP:conf/nips/VaswaniSPUJGKP17",
                                 "garg2023transformerslearnincontextcase", "garg2022can"])
def test_export_then_import_gives_the_same_record(key):
    rec = _records()[key]
    again = read_bibtex(bibtex_entry(rec), TODAY)
    assert not again.failed, again.failed
    back = m.Literature.model_validate(again.converted[0].data)
    for name in CITATION_FIELDS:
        assert getattr(back, name) == getattr(rec, name), name
