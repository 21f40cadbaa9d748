"""The home page's count of what the claims came to: a row per paper (its id, short title and
how many claims), then the owner's own claims (those of notes, theories and works, with the
records holding them), their verdicts at each scale side by side and litrec's extensions
beside them. The count is `litrec.verdicts.summary`'s, the one `litrec status`, `export json`
and `export tex` read; the badges are the dashboard's, in its order of problems.
"""

from __future__ import annotations

from collections import Counter

from litrec.site.claim_pieces import PROBLEM_ORDER, badge, ref_link
from litrec.site.pagedata import SiteData
from litrec.site.stored_html import esc, span
from litrec.util.formatting import shorten
from litrec.verdicts.claims import EXTENSION
from litrec.verdicts.summary import Tally, is_papers, tally

TITLE_LIMIT = 80  # a paper's title beside its counts, cut to this many characters


def tally_at(data: SiteData, scale: str, rows) -> Tally:
    """The claims' verdicts at `scale` (`rows`: the project's `(record, claim)` pairs), each
    paper's apart from the owner's, a claim without a status counted `unchecked`, the extension
    rows beside their claims."""
    def each():
        for r, c in rows:
            ref = f"{r.id}#{c.id}"
            st = data.status_at(scale, ref)
            yield ref, r.kind, st.verdict if st else "unchecked"
            if (ext := data.status_at(scale, ref + EXTENSION)) is not None:
                yield ref + EXTENSION, r.kind, ext.verdict
    return tally(each())


def _badges(counts: Counter) -> str:
    """`4 reproduced, 1 inconclusive` as badges, problems first."""
    return ", ".join(f"{counts[v]} {badge(v)}" for v in PROBLEM_ORDER if counts.get(v))


def count_rows(data: SiteData, page: str, rows, scales: list[str]):
    """A table row per paper, then one for the owner's own claims where there are any: who (the
    paper's link, short title and how many claims; or the records holding the owner's), then its
    verdicts at each scale: `4 reproduced, 1 inconclusive`, `litrec's extensions: 4 reproduced`
    under them."""
    at = {s: tally_at(data, s, rows) for s in scales}
    for paper, count in at[scales[0]].groups:
        n = f"{count.n} claim{'s' * (count.n != 1)}"
        if paper is not None:
            head = (f"{ref_link(data, page, paper)}<br>"
                    f"{esc(shorten(data.project.records[paper].title or '', TITLE_LIMIT))}<br>"
                    + span("lr-reason", esc(n)))
        else:
            holders = dict.fromkeys(r.id for r, _ in rows if not is_papers(r.kind))
            head = ("The owner's own claims<br>"
                    + span("lr-reason", f"{esc(n)}, of " + ", ".join(ref_link(data, page, rid)
                                                                     for rid in holders)))
        cells = []
        for s in scales:
            got = at[s].papers.get(paper) if paper is not None else at[s].own
            cell = _badges(got.claims) if got else ""
            if got and got.n_extensions:
                cell += "<br>" + span("lr-reason", "litrec's extensions: ") + _badges(got.extensions)
            cells.append(cell or "—")
        yield [head] + cells
