"""Entries as DBLP, the ACL Anthology, Semantic Scholar and Zotero with Better BibTeX export
them (tests/fixtures/bibtex/exporters.bib) survive import and export: the citation key, the
URL and DOI (LaTeX escapes read on import, written as they are), the title's case protection,
and every field a record keeps (site/usage.md, "Keys, links and braces")."""

from __future__ import annotations

import datetime as dt
import re

import bibtexparser
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from litrec.bibtex.citation import CITATION_FIELDS
from litrec.bibtex.protect import automatic, from_marked, mark_protection, pieces, plain, tidy
from litrec.bibtex.read import read_bibtex
from litrec.bibtex.urls import read_verbatim, write_verbatim
from litrec.bibtex.write import bibtex_entry, bibtex_library, cite_key, library_keys
from litrec.records import model as m
from tests.conftest import FIXTURES, REPO

from .conftest import run_cli

BIB = (FIXTURES / "bibtex" / "exporters.bib").read_text(encoding="utf-8")
TODAY = dt.date(2026, 1, 2)
SOURCE = {e.key: e for e in bibtexparser.parse_string(BIB).entries}
KEYS = list(SOURCE)


def _imported() -> dict[str, m.Literature]:
    read = read_bibtex(BIB, TODAY)
    assert not read.failed, read.failed
    return {c.key: m.Literature.model_validate(c.data) for c in read.converted}


def _exported(rec) -> bibtexparser.model.Entry:
    (entry,) = bibtexparser.parse_string(bibtex_entry(rec)).entries
    return entry


def _groups(title: str) -> list[str]:
    """The protecting groups of a title as written (`{{BERT}}` gives 'BERT'), LaTeX read."""
    marked = tidy(mark_protection(title))
    return [p for p, braced in pieces(from_marked(marked).replace("\\{", "").replace("\\}", ""))
            if braced] if marked else []


def test_every_exporter_entry_is_read():
    assert set(_imported()) == set(KEYS) and len(KEYS) == 8


@pytest.mark.parametrize("key", KEYS)
def test_the_citation_key_survives(key):
    rec = _imported()[key]
    assert rec.bibtex_key == key  # none of these is the key litrec would generate
    assert _exported(rec).key == key


@pytest.mark.parametrize("key", [k for k in KEYS if "url" in SOURCE[k].fields_dict])
def test_the_url_is_the_link_itself_both_ways(key):
    rec = _imported()[key]
    written = SOURCE[key].fields_dict["url"].value
    assert rec.url == read_verbatim(written) and "\\" not in rec.url
    assert _exported(rec).fields_dict["url"].value == rec.url  # as it is: no \_ or \%


def test_dblp_escapes_are_read_in_the_url_and_the_doi():
    recs = _imported()
    nips = recs["DBLP:conf/nips/GargTLV22"]
    assert nips.url.startswith("http://papers.nips.cc/paper_files/paper/2022/hash/")
    eccv = recs["DBLP:conf/eccv/LindqvistO22"]
    assert eccv.doi == "10.1007/978-3-031-20083-0_1" and eccv.id == "DOI-10.1007_978-3-031-20083-0_1"
    assert eccv.url == "https://doi.org/10.1007/978-3-031-20083-0_1"
    assert _exported(eccv).fields_dict["doi"].value == "10.1007/978-3-031-20083-0_1"


@pytest.mark.parametrize("key", KEYS)
def test_the_titles_braces_are_kept(key):
    rec = _imported()[key]
    source_groups = _groups(SOURCE[key].fields_dict["title"].value)
    exported = _exported(rec).fields_dict["title"].value
    for group in source_groups:
        assert f"{{{group}}}" in exported, (group, exported)
    assert rec.title == plain(tidy(mark_protection(exported)))  # the reader's title has none


@pytest.mark.parametrize("key,title,bibtex_title", [
    ("DBLP:conf/nips/GargTLV22",
     "What Can Transformers Learn In-Context? A Case Study of Simple Function Classes",
     "What Can Transformers Learn {In-Context?} {A} Case Study of Simple Function Classes"),
    ("halvorsen-mbeki-2021-cross", "Cross-lingual In-Context Learning from English to IsiZulu",
     "Cross-lingual {In-Context} Learning from {E}nglish to {I}si{Z}ulu"),
    ("vonoswaldTransformersLearnInContext2023", "Transformers Learn In-Context by Gradient Descent",
     "Transformers {Learn In-Context} by {Gradient Descent}"),
    ("devlinBERTPretrainingDeep2019",
     "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
     "{BERT}: {Pre-training} of {Deep Bidirectional Transformers} for {Language Understanding}"),
    ("dai-etal-2023-gpt", "Why Can GPT Learn In-Context? Language Models Secretly Perform "
     "Gradient Descent as Meta-Optimizers", None),  # {GPT}: what export braces anyway
    ("Garg2022WhatCT",
     "What Can Transformers Learn In-Context? A Case Study of Simple Function Classes", None),
])
def test_the_record_keeps_the_readers_title_and_the_protection_export_would_not_give(
        key, title, bibtex_title):
    rec = _imported()[key]
    assert (rec.title, rec.bibtex_title) == (title, bibtex_title)


@pytest.mark.parametrize("key", KEYS)
def test_export_then_import_gives_the_same_record_and_the_same_entry(key):
    rec = _imported()[key]
    text = bibtex_entry(rec)
    again = read_bibtex(text, TODAY)
    assert not again.failed, again.failed
    (conv,) = again.converted
    assert conv.dropped == []  # every field litrec writes, it reads back
    back = m.Literature.model_validate(conv.data)
    for name in (*CITATION_FIELDS, "id"):
        assert getattr(back, name) == getattr(rec, name), name
    assert bibtex_entry(back) == text


def test_zotero_fields_litrec_does_not_keep_are_named():
    read = {c.key: c.dropped for c in read_bibtex(BIB, TODAY).converted}
    assert read["vonoswaldTransformersLearnInContext2023"] == ["issn", "urldate", "langid", "file"]
    assert read["devlinBERTPretrainingDeep2019"] == ["shorttitle", "primaryclass", "urldate"]


# ------------------------------------------------------------------ URLs


@pytest.mark.parametrize("written,url", [
    (r"http://papers.nips.cc/paper\_files/x.html", "http://papers.nips.cc/paper_files/x.html"),
    (r"https://a.org/q?x=1\&y=2\%20z\#top", "https://a.org/q?x=1&y=2%20z#top"),
    (r"http://www.cs.x.edu/\~{}ada/", "http://www.cs.x.edu/~ada/"),
    (r"http://www.cs.x.edu/$\sim$ada/", "http://www.cs.x.edu/~ada/"),
    (r"http://www.cs.x.edu/\textasciitilde{}ada/a\textunderscore b", "http://www.cs.x.edu/~ada/a_b"),
    (r"{https://a.org/{Caps}}", "https://a.org/Caps"),
    (r"\url{https://a.org/a_b}", "https://a.org/a_b"),
    (r"https://a.org/a_b%2Fc~d", "https://a.org/a_b%2Fc~d"),  # as it is: nothing to read
])
def test_url_escapes_are_read(written, url):
    assert read_verbatim(written) == url
    (conv,) = read_bibtex(f"@misc{{k, title={{T}}, url={{{written}}}}}", TODAY).converted
    assert conv.data["url"] == url


def test_a_url_is_written_as_it_is_with_braces_percent_encoded():
    assert write_verbatim("https://a.org/a_b%20c&d#e~f") == "https://a.org/a_b%20c&d#e~f"
    assert write_verbatim("https://a.org/{x}") == "https://a.org/%7Bx%7D"
    rec = m.Literature(id="REF-k", kind="literature", title="T", url="https://a.org/p_q%20r#s",
                       doi="10.1000/a_b")
    fields = _exported(rec).fields_dict
    assert fields["url"].value == "https://a.org/p_q%20r#s" and fields["doi"].value == "10.1000/a_b"


def test_a_doi_with_escapes_gives_the_id_of_the_doi_itself():
    (conv,) = read_bibtex(r"@article{k, title={T}, doi={10.1000/a\_b}}", TODAY).converted
    assert conv.data["id"] == "DOI-10.1000_a_b" and conv.data["doi"] == "10.1000/a_b"
    read = read_bibtex(r"@article{k, title={T}, doi={10.1000/a\%b}}", TODAY, ids={"k": "REF-k"})
    assert read.converted[0].data["doi"] == "10.1000/a%b"


# ------------------------------------------------------------------ keys


def lit(**kw) -> m.Literature:
    return m.Literature(**{"id": "REF-x", "kind": "literature", "title": "Deep nets", **kw})


def test_a_key_export_would_generate_is_not_stored():
    (conv,) = read_bibtex("@misc{lee2020deep, title={Deep nets}, author={Ann Lee}, year=2020}",
                          TODAY).converted
    assert "bibtex_key" not in conv.data
    assert cite_key(m.Literature.model_validate(conv.data)) == "lee2020deep"


def test_a_key_cite_cannot_hold_is_not_kept_and_is_named():
    (conv,) = read_bibtex("@misc{lee~2020, title={Deep nets}, author={Ann Lee}, year=2020}",
                          TODAY).converted
    assert "bibtex_key" not in conv.data and conv.dropped == ["key"]
    assert _exported(m.Literature.model_validate(conv.data)).key == "lee2020deep"


def test_a_kept_key_is_never_lettered_and_a_generated_one_steps_aside():
    a = lit(id="REF-a", authors=["Ann Lee"], year=2020, bibtex_key="lee2020deep")
    b = lit(id="REF-b", authors=["Ann Lee"], year=2020)
    c = lit(id="REF-c", authors=["Ann Lee"], year=2020)
    d = lit(id="REF-d", authors=["Bo Kim"], year=2021, bibtex_key="DBLP:conf/x/Kim21")
    assert library_keys([b, a, c, d]) == ["lee2020deepa", "lee2020deep", "lee2020deepb",
                                          "DBLP:conf/x/Kim21"]
    assert library_keys([b]) == ["lee2020deep"]
    assert library_keys([a, b]) == ["lee2020deep", "lee2020deepa"]  # steps aside from the kept one
    keys = [e.key for e in bibtexparser.parse_string(bibtex_library([b, a, c, d])).entries]
    assert keys == ["lee2020deepa", "lee2020deep", "lee2020deepb", "DBLP:conf/x/Kim21"]


@pytest.mark.parametrize("key", ["a b", "a,b", "a{b", "a%b", "a#b", "a\\b", "a~b", ""])
def test_the_schema_refuses_a_key_cite_cannot_hold(key):
    with pytest.raises(ValueError, match="bibtex_key"):
        lit(bibtex_key=key)


def test_two_records_with_one_kept_key_are_refused_by_export(project):
    lit_dir = project / "records" / "literature"
    for rid in ("REF-one", "REF-two"):
        (lit_dir / f"{rid}.yaml").write_text(
            f"id: {rid}\nkind: literature\ntitle: Paper {rid}\nbibtex_key: smith2020\n")
    code, out, err = run_cli("litrec export bibtex REF-one REF-two", project)
    assert code == 1 and out == ""
    assert err == ("litrec export: REF-one and REF-two keep the same bibtex_key 'smith2020'; "
                   "change it in all but one\n")


# ------------------------------------------------------------------ braces


@pytest.mark.parametrize("written,title,protected", [
    (r"Transformers learn {In-Context} by {GD}", "Transformers learn In-Context by GD",
     "Transformers learn {In-Context} by {GD}"),
    (r"{{BERT}} and {\"U}ber {\em Deep} \emph{nets}", "BERT and Über Deep nets",
     "{BERT} and Über Deep nets"),                       # commands' braces protect nothing
    (r"The $\ell_{1}$ {Norm} of { GD }", "The ℓ_1 Norm of GD", "The ℓ_1 {Norm} of {GD}"),
    (r"Cost of -{}- and {}", "Cost of -- and", "Cost of -- and"),
    (r"A {Deep {Nested}} group", "A Deep Nested group", "A {Deep Nested} group"),
])
def test_protection_is_read_from_the_entry(written, title, protected):
    (conv,) = read_bibtex(f"@misc{{k, title={{{written}}}}}", TODAY).converted
    assert conv.data["title"] == title
    assert conv.data.get("bibtex_title") == (None if protected == automatic(title) else protected)
    rec = m.Literature.model_validate(conv.data)
    assert pieces(rec.bibtex_title or automatic(rec.title)) == pieces(protected)


def test_automatic_protection_is_the_old_export_rule():
    assert automatic("BERT & {x} of GPT-2 and In-Context?") == \
        r"{BERT} & \{x\} of {GPT-2} and {In-Context?}"


def test_a_hand_written_bibtex_title_is_exported_as_written():
    rec = lit(title="Über BERT & co", bibtex_title="{Über} BERT & co")
    assert _exported(rec).fields_dict["title"].value == '{{\\"Uber}} BERT \\& co'  # see _braced


@pytest.mark.parametrize("bibtex_title,message", [
    ("Deep {nets", "bibtex_title: a '{' is never closed; write \\{ or \\} for a brace of the title"),
    ("Deep} nets", "bibtex_title: the '}' at character 5 closes no brace"),
    ("{Wide} nets", "bibtex_title: without its braces it reads 'Wide nets', not the title "
                    "'Deep nets'; make the two agree, or remove bibtex_title"),
])
def test_validate_locates_a_bibtex_title_that_is_not_the_title(project, bibtex_title, message):
    (project / "records" / "literature" / "REF-one.yaml").write_text(
        f"id: REF-one\nkind: literature\ntitle: Deep nets\nbibtex_title: '{bibtex_title}'\n")
    code, out, err = run_cli("litrec validate", project)
    assert code == 1
    found = [ln for ln in (out + err).splitlines() if "REF-one.yaml" in ln]
    assert found and re.search(r"REF-one\.yaml:4:\d+: ", found[0]) and message in found[0], found


def test_force_drops_a_bibtex_title_the_new_entry_does_not_give(project):
    path = project / "records" / "literature" / "REF-one.yaml"
    (project / "a.bib").write_text("@misc{one, title={Deep {N}ets}}\n")
    (project / "b.bib").write_text("@misc{one, title={Deeper nets}}\n")
    assert run_cli("litrec import bibtex a.bib", project)[0] == 0
    assert "bibtex_title: Deep {N}ets\n" in path.read_text()
    code, out, err = run_cli("litrec import bibtex b.bib --force", project)
    assert code == 0, err
    text = path.read_text()
    assert "title: Deeper nets\n" in text and "bibtex_title" not in text
    assert run_cli("litrec validate --quiet", project)[0] == 0


def test_the_usage_page_shows_what_import_keeps():
    page = (REPO / "site" / "usage.md").read_text(encoding="utf-8")
    block = page.split("the record holds both forms:\n\n```yaml\n", 1)[1].split("```", 1)[0]
    shown = dict(line.split(": ", 1) for line in block.splitlines())
    rec = _imported()["DBLP:conf/nips/GargTLV22"]
    assert shown == {"title": rec.title, "bibtex_title": rec.bibtex_title,
                     "bibtex_key": rec.bibtex_key}


_WORD = st.text(st.sampled_from(list("abcXYZé-?:&_%")), min_size=1, max_size=6)


@pytest.mark.slow  # fuzzing: 120 examples
@settings(max_examples=120, deadline=None)
@given(words=st.lists(st.tuples(_WORD, st.booleans()), min_size=1, max_size=6),
       key=st.from_regex(r"\A[A-Za-z][A-Za-z0-9:/_-]{0,20}\Z"),
       url=st.from_regex(r"\Ahttps://a\.org/[a-z0-9_%&#~.-]{0,12}\Z"))
def test_any_protection_key_and_url_survive_the_round_trip(words, key, url):
    """An entry with braces anywhere in its title, any key `\\cite` can hold and a URL with
    LaTeX's escapes gives a record whose export imports as the same record, and exports the same."""
    def escaped(text):
        return "".join("\\" + c if c in "&_%#" else c for c in text)

    title = " ".join(f"{{{escaped(w)}}}" if braced else escaped(w) for w, braced in words)
    url_field = escaped(url).replace("~", "\\~{}")
    read = read_bibtex(f"@misc{{{key}, title = {{{title}}}, url = {{{url_field}}}}}", TODAY,
                       ids={key: "REF-x"})
    assert not read.failed, read.failed
    rec = m.Literature.model_validate(read.converted[0].data)
    assert rec.url == url
    text = bibtex_entry(rec)
    entry = bibtexparser.parse_string(text).entries[0]
    assert entry.key == key and entry.fields_dict["url"].value == url
    kept = [text for text, braced in pieces(rec.bibtex_title or automatic(rec.title)) if braced]
    for w, braced in words:
        if braced and not escaped(w).startswith("\\"):  # `{\&}` is a character, not protection
            alone = read_bibtex(f"@misc{{k, title = {{{escaped(w)}}}}}", TODAY).converted[0]
            assert alone.data["title"] in kept, (alone.data["title"], kept)
    again = read_bibtex(text, TODAY, ids={key: "REF-x"}).converted[0].data
    back = m.Literature.model_validate(again)
    for name in CITATION_FIELDS:
        assert getattr(back, name) == getattr(rec, name), name
    assert bibtex_entry(back) == text

