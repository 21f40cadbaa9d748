"""BibTeX in and out: entries from records (bibtexparser), records from entries, and back."""

from __future__ import annotations

import datetime as dt
import json
import shutil

import bibtexparser
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from litrec.bibtex.citation import CITATION_FIELDS
from litrec.bibtex.read import read_bibtex
from litrec.bibtex.write import BIBTEX_HEADER, bibtex_entry, bibtex_library, cite_key
from litrec.records import model as m
from litrec.util.yamlsafe import load_bytes
from tests.conftest import FIXTURES

from .conftest import run_cli

SEED = m.Literature.model_validate(
    load_bytes((FIXTURES / "project" / "records" / "literature" / "ARXIV-2212.07677.yaml").read_bytes()).data)
REFS = FIXTURES / "refs.bib"
TODAY = dt.date(2026, 1, 2)


def lit(**kw) -> m.Literature:
    return m.Literature(**{"id": "ARXIV-2401.00001", "kind": "literature", **kw})


# ------------------------------------------------------------------ export


def test_entry_of_the_seed_record():
    assert bibtex_entry(SEED) == r"""@inproceedings{vonoswald2023transformers,
  title         = {Transformers learn in-context by gradient descent},
  author        = {Johannes von Oswald and Eyvind Niklasson and Ettore Randazzo and Jo{\~a}o Sacramento and Alexander Mordvintsev and Andrey Zhmoginov and Max Vladymyrov},
  year          = {2023},
  booktitle     = {ICML 2023},
  publisher     = {PMLR},
  volume        = {202},
  pages         = {35151--35174},
  eprint        = {2212.07677},
  archivePrefix = {arXiv}
}"""


def test_entry_parses_back_with_bibtexparser():
    lib = bibtexparser.parse_string(bibtex_entry(SEED))
    assert not lib.failed_blocks
    (entry,) = lib.entries
    assert entry.entry_type == "inproceedings" and entry.key == "vonoswald2023transformers"
    assert entry.fields_dict["eprint"].value == "2212.07677"


@pytest.mark.parametrize("venue,kind,field", [
    ("ICML 2023", "inproceedings", "booktitle"),
    ("Proceedings of the 2021 ACM Conference on Fairness", "inproceedings", "booktitle"),
    ("Journal of Machine Learning Research", "article", "journal"),
    ("arXiv preprint", "misc", "howpublished"),
    (None, "misc", None),
])
def test_entry_type_from_the_venue(venue, kind, field):
    text = bibtex_entry(lit(title="T", venue=venue))
    assert text.startswith(f"@{kind}{{")
    if field:
        assert f"  {field}" in text


def test_title_capitals_are_protected_and_specials_escaped():
    text = bibtex_entry(lit(title="BERT & GPT: 50% of Gaussian_process {x} costs $5 ~ ^"))
    # braces only for capitals past a word's first letter (site/usage.md): {BERT}, not {Gaussian}
    # a brace of the text as a command: BibTeX counts `\\{` as a brace, so a lone one would end the field
    assert ("title = {{BERT} \\& {GPT:} 50\\% of Gaussian\\_process \\textbraceleft{}x\\textbraceright{} "
            "costs \\$5 ") in " ".join(text.split())


def test_author_with_and_in_the_name_is_braced():
    text = bibtex_entry(lit(authors=["Research and Development Team", "Ada Lovelace"]))
    assert "author = {{Research and Development Team} and Ada Lovelace}" in " ".join(text.split())


def test_cite_keys():
    assert cite_key(SEED) == "vonoswald2023transformers"
    assert cite_key(lit(title="Attention is all you need", year=2017)) == "attention2017"
    assert cite_key(lit(title="A B", year=2017)) == "arxiv240100001"


def test_library_gives_colliding_keys_letters():
    a = lit(id="ARXIV-2401.00001", authors=["Ann Lee"], year=2020, title="Deep nets")
    b = lit(id="ARXIV-2401.00002", authors=["Ann Lee"], year=2020, title="Deep trees")
    keys = [e.key for e in bibtexparser.parse_string(bibtex_library([a, b])).entries]
    assert keys == ["lee2020deepa", "lee2020deepb"]


WORD = st.text(st.sampled_from(list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                    "éüøñçßåÅΣαβ&%$#_{}~\\:;'\",.!?()[]/")), min_size=1, max_size=10)
NAME = st.lists(st.text(st.sampled_from(list("abcdefghijklmnopqrstuvwxyzéüøñ")), min_size=1, max_size=8)
                .map(str.capitalize), min_size=2, max_size=3).map(" ".join)


@pytest.mark.slow  # fuzzing: 150 examples
@settings(max_examples=150, deadline=None)
@given(title=st.lists(WORD, min_size=1, max_size=6).map(" ".join),
       authors=st.lists(NAME, max_size=3), year=st.integers(1000, 2999),
       venue=st.one_of(st.none(), st.lists(WORD, min_size=1, max_size=4).map(" ".join)),
       pages=st.one_of(st.none(), st.from_regex(r"\A[1-9][0-9]{0,4}–[1-9][0-9]{0,4}\Z")),
       arxiv=st.from_regex(r"\A[0-9]{4}\.[0-9]{5}(v[1-9])?\Z"),
       doi=st.one_of(st.none(), st.from_regex(r"\A10\.[0-9]{4,6}/[a-z0-9._;()-]{1,12}\Z")),
       month=st.one_of(st.none(), st.integers(1, 12)),
       number=st.one_of(st.none(), st.from_regex(r"\A[1-9][0-9]{0,2}\Z")),
       keywords=st.lists(WORD.filter(lambda w: not set(w) & set(",;")), max_size=3, unique=True),
       abstract=st.one_of(st.none(), st.lists(WORD, min_size=1, max_size=8).map(" ".join)))
def test_round_trip(title, authors, year, venue, pages, arxiv, doi, month, number, keywords, abstract):
    """A record exported and imported again has the same citation fields."""
    rec = lit(id=f"ARXIV-{arxiv[:10]}", title=title, authors=authors, year=year, venue=venue,
              pages=pages, arxiv=arxiv, doi=doi, month=month, number=number, keywords=keywords,
              abstract=abstract)
    read = read_bibtex(bibtex_entry(rec), TODAY)
    assert not read.failed, read.failed
    got = m.Literature.model_validate(read.converted[0].data)
    for name in CITATION_FIELDS:
        assert getattr(got, name) == getattr(rec, name), name


# ------------------------------------------------------------------ import


def test_read_the_fixture():
    read = read_bibtex(REFS.read_text(), TODAY)
    ids = {c.line: c.data["id"] for c in read.converted}
    assert ids == {3: "ARXIV-2212.07677", 18: "ARXIV-2208.01066", 32: "ARXIV-2211.15661",
                   40: "DOI-10.1145_3442188.3445922", 53: "REF-bishop2006pattern"}
    assert [(f.line, f.key) for f in read.failed] == [(60, "broken2020"), (66, "again2212")]
    assert "cannot parse the entry" in read.failed[0].message
    assert "gives ARXIV-2212.07677 again, like the entry at line 3" in read.failed[1].message
    assert {c.key: c.dropped for c in read.converted} == {
        "vonoswald2023transformers": [],
        "DBLP:journals/corr/abs-2208-01066": ["timestamp", "biburl", "bibsource"],
        "akyurek2023learning": [], "bender2021dangers": [], "bishop2006pattern": []}
    seed = read.converted[0].data
    assert seed["authors"][0] == "Johannes von Oswald" and seed["authors"][3] == "João Sacramento"
    assert seed["pages"] == "35151–35174" and seed["year"] == 2023 and seed["arxiv"] == "2212.07677"
    assert seed["filed"] == {"date": TODAY}
    garg = read.converted[1].data
    assert garg["title"] == "What Can Transformers Learn In-Context? A Case Study of Simple Function Classes"
    assert read.converted[2].data["authors"][0] == "Ekin Akyürek"
    bender = read.converted[3].data
    assert bender["doi"] == "10.1145/3442188.3445922" and bender["month"] == 3
    assert bender["keywords"] == ["language models", "ethics"]


def _one(fields: str):
    return read_bibtex("@article{k,\ntitle = {A title},\n" + fields + "\n}\n", TODAY)


@pytest.mark.parametrize("fields,rid", [
    ("eprint = {2212.07677}, archivePrefix = {arXiv}", "ARXIV-2212.07677"),
    ("eprint = {2212.07677v3}, eprinttype = {arxiv}", "ARXIV-2212.07677"),
    ("arxiv = {arXiv:1706.03762}", "ARXIV-1706.03762"),
    ("url = {https://arxiv.org/pdf/1706.03762v7.pdf}", "ARXIV-1706.03762"),
    ("doi = {10.48550/arXiv.2212.07677}", "ARXIV-2212.07677"),
    ("journal = {arXiv preprint arXiv:2005.14165}", "ARXIV-2005.14165"),
    ("journal = {CoRR}, volume = {abs/2005.14165}", "ARXIV-2005.14165"),
    ("doi = {10.1038/nature14539}, eprint = {1234.56789}, archiveprefix = {SSRN}", "DOI-10.1038_nature14539"),
    ("doi = {doi:10.1000/a/b(c)}", "DOI-10.1000_a_b(c)"),
    ("url = {https://doi.org/10.1145/3442188.3445922}", "DOI-10.1145_3442188.3445922"),
    ("doi = {10.1038/nature14539}, eprint = {1706.03762}", "ARXIV-1706.03762"),
    ("note = {No id}", "REF-k"),                    # neither: the citation key
    ("eprint = {hep-th/9901001}", "REF-k"),         # an arXiv number of the old form is no id
])
def test_ids(fields, rid):
    read = _one(fields)
    assert not read.failed, read.failed
    assert read.converted[0].data["id"] == rid


@pytest.mark.parametrize("fields,message", [
    ("doi = {10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O}",
     "has characters a record id cannot hold (: < >); give the entry an id: --id k=REF-..."),
    ("doi = {10.1000/x}, month = {Summer}", "month 'Summer' is not a month (jan to dec, or 1 to 12)"),
    ("doi = {11.1000/x}", "is not of the form 10.NNNN/suffix"),
    ("doi = {10.1000/x}, year = {in press}", "year 'in press' is not a four-digit year"),
])
def test_unconvertible_entries_say_why(fields, message):
    read = _one(fields)
    assert not read.converted
    assert read.failed[0].line == 1 and read.failed[0].key == "k"
    assert message in read.failed[0].message


def test_duplicate_fields_and_keys():
    read = read_bibtex("@article{a, doi={10.1/x}, doi={10.1/y}}\n"
                       "@article{b, title={B}, doi={10.1000/b}}\n@article{b, title={C}, doi={10.1000/c}}\n",
                       TODAY)
    assert [c.data["id"] for c in read.converted] == ["DOI-10.1000_b", "DOI-10.1000_c"]
    assert read.failed[0].line == 1 and "given twice (doi)" in read.failed[0].message


# ------------------------------------------------------------------ command


def test_import_writes_valid_records_and_reports_every_failure(project):
    shutil.copy(REFS, project / "refs.bib")
    code, out, err = run_cli("litrec import bibtex refs.bib", project)
    assert code == 1
    assert out.splitlines() == [
        "created records/literature/ARXIV-2208.01066.yaml from refs.bib:18 (DBLP:journals/corr/abs-2208-01066)",
        "  dropped (no record field holds them): timestamp, biburl, bibsource",
        "created records/literature/ARXIV-2211.15661.yaml from refs.bib:32 (akyurek2023learning)",
        "created records/literature/DOI-10.1145_3442188.3445922.yaml from refs.bib:40 (bender2021dangers)",
        "created records/literature/REF-bishop2006pattern.yaml from refs.bib:53 (bishop2006pattern)",
    ]
    lines = err.splitlines()
    assert [ln.split(":", 2)[:2] for ln in lines[:-1]] == [
        ["refs.bib", "3"], ["refs.bib", "60"], ["refs.bib", "66"]]
    assert "ARXIV-2212.07677 already exists (records/literature/ARXIV-2212.07677.yaml); " \
           "pass --force" in lines[0]
    assert lines[-1] == "7 entries: 4 created; 3 not imported"
    for rid in ("ARXIV-2208.01066", "ARXIV-2211.15661", "DOI-10.1145_3442188.3445922",
                "REF-bishop2006pattern"):
        first = (project / "records" / "literature" / f"{rid}.yaml").read_text().splitlines()[0]
        assert first == "# yaml-language-server: $schema=../../schema/literature.schema.json"
    code, out, err = run_cli("litrec validate --quiet", project)
    assert code == 0, out + err


def test_existing_record_is_kept_without_force(project):
    path = project / "records" / "literature" / "ARXIV-2212.07677.yaml"
    before = path.read_bytes()
    shutil.copy(REFS, project / "refs.bib")
    run_cli("litrec import bibtex refs.bib", project)
    assert path.read_bytes() == before


def test_force_updates_citation_fields_and_keeps_the_rest(project):
    path = project / "records" / "literature" / "ARXIV-2212.07677.yaml"
    old_text = path.read_text()
    old = load_bytes(old_text.encode()).data
    shutil.copy(REFS, project / "refs.bib")
    code, out, _ = run_cli("litrec import bibtex refs.bib --force", project)
    assert "updated records/literature/ARXIV-2212.07677.yaml from refs.bib:3" in out
    new_text = path.read_text()
    new = load_bytes(new_text.encode()).data
    assert new["year"] == 2023 and new["venue"].startswith("Proceedings of the 40th")
    assert {k: v for k, v in new.items() if k not in CITATION_FIELDS} == \
           {k: v for k, v in old.items() if k not in CITATION_FIELDS}
    body_start = old_text.index("question:")  # everything from here on is as written
    assert new_text.endswith(old_text[body_start:])
    assert run_cli("litrec validate --quiet", project)[0] == 0
    code, out, _ = run_cli("litrec import bibtex refs.bib --force", project)
    assert "unchanged records/literature/ARXIV-2212.07677.yaml" in out
    assert path.read_text() == new_text


def test_dry_run_writes_nothing(project):
    shutil.copy(REFS, project / "refs.bib")
    before = sorted(p.name for p in (project / "records" / "literature").iterdir())
    code, out, _ = run_cli("litrec import bibtex refs.bib --dry-run --force", project)
    assert "would create records/literature/ARXIV-2208.01066.yaml" in out
    assert "would update records/literature/ARXIV-2212.07677.yaml" in out
    assert sorted(p.name for p in (project / "records" / "literature").iterdir()) == before


def test_json_output_and_stdin(project, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("@misc{x, title={X}, eprint={2401.00001}, isbn={1}}\n"
                                                 "@misc{y, title={z}, year={soon}}\n"))
    code, out, err = run_cli("litrec import bibtex - --format json", project)
    assert code == 1 and err == ""
    doc = json.loads(out)
    assert doc["records"] == [{"action": "created", "id": "ARXIV-2401.00001",
                               "path": "records/literature/ARXIV-2401.00001.yaml", "line": 1, "key": "x",
                               "dropped": ["isbn"]}]
    assert doc["failed"][0]["line"] == 2 and doc["failed"][0]["key"] == "y"


def test_latin1_file(project):
    (project / "old.bib").write_bytes("@misc{x, title={Caf\xe9}, eprint={2401.00001}}\n".encode("latin-1"))
    code, _, err = run_cli("litrec import bibtex old.bib", project)
    assert code == 0 and "is not UTF-8 (byte 0xe9 at line 1); read it as Windows-1252" in err
    data = load_bytes((project / "records/literature/ARXIV-2401.00001.yaml").read_bytes()).data
    assert data["title"] == "Café"


def test_import_usage_errors(project):
    assert run_cli("litrec import bibtex missing.bib", project)[:3:2] == (
        2, "litrec: error: BibTeX file 'missing.bib' does not exist\n")
    (project / "empty.bib").write_text("% nothing here\n")
    code, _, err = run_cli("litrec import bibtex empty.bib", project)
    assert code == 1 and "no BibTeX entries in empty.bib" in err


def test_export_command(project):
    code, out, err = run_cli("litrec export bibtex", project)
    assert code == 0 and err == ""
    assert out == BIBTEX_HEADER + bibtex_entry(SEED) + "\n"  # a comment line first: litrec wrote it
    code, out, err = run_cli("litrec export bibtex NOTE-621 ARXIV-2212.0767", project)
    assert code == 1 and out == ""
    assert err.splitlines() == [
        "litrec export: NOTE-621 is a note record; BibTeX is for literature records",
        "litrec export: no record 'ARXIV-2212.0767'; did you mean 'ARXIV-2212.07677'?"]
    code, _, err = run_cli("litrec export bibtex ARXIV-2212.07677 --out refs.bib", project)
    assert code == 0 and err == "wrote 1 entries to refs.bib\n"
    assert (project / "refs.bib").read_text() == BIBTEX_HEADER + bibtex_entry(SEED) + "\n"
    back = read_bibtex((project / "refs.bib").read_text())  # the comment is no entry, and no error
    assert len(back.converted) == 1 and not back.failed
