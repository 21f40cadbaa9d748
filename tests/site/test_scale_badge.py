"""Every verdict badge says which scale it is at: a claim's headline badge on its record page
is named by the site's profile (`at paper: [reproduced]`), as each other scale's badge beside
it is, and the tables of verdicts on the index pages name the profile in their heading."""

from __future__ import annotations

import re

from tests.site.conftest import PROFILE

BADGE = r'<span class="lr-badge lr-v-[a-z-]+">[a-z ]+</span>'


def test_each_claim_s_headline_badge_names_its_scale(built):
    page = (built.out / "records" / "ARXIV-2212.07677.html").read_text(encoding="utf-8")
    metas = re.findall(r'<p class="lr-meta">(.*?)</p>', page, re.S)
    claims = [m for m in metas if "checked by" in m]
    extensions = [m for m in metas if "litrec's extensions" in m]  # none in the fixture's results
    assert len(claims) >= 5
    for meta in claims:  # the headline first, named: `at <code>paper</code>: [verdict]`
        assert re.match(rf"at <code>{PROFILE}</code>: {BADGE}", meta), meta
    for meta in extensions:
        assert re.search(rf"\): at <code>{PROFILE}</code>: {BADGE}", meta), meta
    for meta in claims + extensions:  # no badge left without its scale before it
        assert len(re.findall(BADGE, meta)) == len(re.findall(r"at <code>[^<]+</code>: (?:</span>)?", meta))


def test_index_tables_of_verdicts_name_the_scale(built):
    records = (built.out / "records" / "index.html").read_text(encoding="utf-8")
    analyses = (built.out / "analyses" / "index.html").read_text(encoding="utf-8")
    analysis = (built.out / "analyses" / "single-layer-lsa.html").read_text(encoding="utf-8")
    assert f"<th>Claims at <code>{PROFILE}</code></th>" in records
    assert f"<th>Claims it checks, verdicts at <code>{PROFILE}</code></th>" in analyses
    assert f"<th>Verdict at <code>{PROFILE}</code></th>" in analysis
