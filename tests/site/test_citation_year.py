"""A record page's citation gives the year once: a record imported from what DBLP's BibTeX gives
(a booktitle that ends in the conference's dates) reads "..., November 28 - December 9, 2022."
and not "... 2022. 2022."; where the venue does not end in the year, the year follows it."""

from __future__ import annotations

import datetime as dt
import html
import re

from litrec.bibtex.importing import import_bibtex
from litrec.bibtex.write import bibtex_entry
from litrec.records.load import load_project
from litrec.site.pagedata import gather
from litrec.site.record_page import record_page

# As dblp.org exports them (https://dblp.org/rec/conf/nips/GargTLV22.bib and friends), with the
# arXiv number DBLP's own entries leave out given in `eprint`, so each gets an ARXIV- id.
DBLP = r"""
@inproceedings{DBLP:conf/nips/GargTLV22,
  author       = {Shivam Garg and Dimitris Tsipras and Percy Liang and Gregory Valiant},
  editor       = {Sanmi Koyejo and S. Mohamed and A. Agarwal and Danielle Belgrave and K. Cho and A. Oh},
  title        = {What Can Transformers Learn In-Context? {A} Case Study of Simple Function Classes},
  booktitle    = {Advances in Neural Information Processing Systems 35: Annual Conference on
                  Neural Information Processing Systems 2022, NeurIPS 2022, New Orleans, LA,
                  USA, November 28 - December 9, 2022},
  year         = {2022},
  eprint       = {2208.01066},
  eprinttype   = {arXiv},
  url          = {http://papers.nips.cc/paper\_files/paper/2022/hash/c529dba08a146ea8d6cf715ae8930cbe-Abstract-Conference.html},
  timestamp    = {Thu, 11 May 2023 17:08:21 +0200},
  biburl       = {https://dblp.org/rec/conf/nips/GargTLV22.bib},
  bibsource    = {dblp computer science bibliography, https://dblp.org}
}

@inproceedings{DBLP:conf/icml/OswaldNRSMZV23,
  author       = {Johannes von Oswald and Eyvind Niklasson and Ettore Randazzo and Jo{\~{a}}o Sacramento
                  and Alexander Mordvintsev and Andrey Zhmoginov and Max Vladymyrov},
  title        = {Transformers Learn In-Context by Gradient Descent},
  booktitle    = {International Conference on Machine Learning, {ICML} 2023, 23-29 July 2023,
                  Honolulu, Hawaii, {USA}},
  series       = {Proceedings of Machine Learning Research},
  volume       = {202},
  pages        = {35151--35174},
  publisher    = {{PMLR}},
  year         = {2023},
  eprint       = {2212.07677},
  eprinttype   = {arXiv},
  url          = {https://proceedings.mlr.press/v202/von-oswald23a.html},
  biburl       = {https://dblp.org/rec/conf/icml/OswaldNRSMZV23.bib},
  bibsource    = {dblp computer science bibliography, https://dblp.org}
}
"""


def pages(tmp_path) -> dict[str, str]:
    records = tmp_path / "records"
    records.mkdir()
    done, failed = import_bibtex(DBLP, records, filed=dt.date(2026, 1, 2))
    assert not failed and len(done) == 2, failed
    project = load_project(records)
    data = gather(project, tmp_path / "results", "paper")
    return {rid: record_page(data, rid) for rid in project.records}


def citation(page: str) -> str:
    """The text of the citation's first paragraph, tags left out."""
    body = page[page.index("## Citation"):]
    para = re.search(r"<p>(.*?)</p>", body, re.S).group(1)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", para)).split())


def test_a_dblp_booktitle_ending_in_the_year_is_not_followed_by_it_again(tmp_path):
    text = citation(pages(tmp_path)["ARXIV-2208.01066"])
    assert text.endswith("New Orleans, LA, USA, November 28 - December 9, 2022."), text
    assert "2022. 2022" not in text and text.count("2022") == 3  # Systems 2022, NeurIPS 2022, the date


def test_a_venue_ending_elsewhere_is_followed_by_the_year(tmp_path):
    text = citation(pages(tmp_path)["ARXIV-2212.07677"])
    assert text.endswith("vol. 202, pp. 35151–35174, PMLR. 2023."), text


def test_the_dblp_key_survives_the_round_trip(tmp_path):
    pages(tmp_path)
    project = load_project(tmp_path / "records")
    for rid, key in (("ARXIV-2208.01066", "DBLP:conf/nips/GargTLV22"),
                     ("ARXIV-2212.07677", "DBLP:conf/icml/OswaldNRSMZV23")):
        entry = bibtex_entry(project.records[rid])
        assert entry.startswith(f"@inproceedings{{{key},"), entry
        assert len(re.findall(r"^\s*year\s*=\s*\{\d{4}\}", entry, re.M)) == 1, entry
