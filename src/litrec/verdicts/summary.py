"""What the claims came to, each paper's apart from the owner's own: the one count that every
surface reads (`litrec status` and `litrec run`'s summary, the site's home page, `export json`'s
`summary`, `export tex`'s count macros).

A claim is a paper's when a literature record holds it, and the owner's own when any other
kind of record does (a note, a theory, a work: what the researcher claims, not what a paper
does). Each paper is counted apart, in the order its claims come, then the owner's claims
together; a claim's extension row (`REF+ext`, litrec's own test) is counted beside its claim's
group, never among the claims.

`tally` counts `(ref, record kind, verdict)` rows, so a surface counts at any scale and with
whatever verdict it shows; `tally_words` says a tally in the terminal's words:
`5 claims of ARXIV-2212.07677: 5 reproduced; 4 extensions beside them: 4 reproduced; 1 claim
of your own: 1 reproduced`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from litrec.records.criteria import EXTENSION
from litrec.verdicts.claims import VERDICTS
from litrec.verdicts.words import word

PAPER_KIND = "literature"  # the kind of record whose claims are a paper's; any other: the owner's


@dataclass
class Count:
    """One group's verdicts: its claims' own rows, and their extension rows beside them."""

    claims: Counter = field(default_factory=Counter)      # verdict -> how many claims
    extensions: Counter = field(default_factory=Counter)  # verdict -> how many extension rows

    @property
    def n(self) -> int:
        """How many claims."""
        return sum(self.claims.values())

    @property
    def n_extensions(self) -> int:
        """How many extension rows beside them."""
        return sum(self.extensions.values())

    def __add__(self, other: Count) -> Count:
        return Count(self.claims + other.claims, self.extensions + other.extensions)


@dataclass
class Tally:
    """Each paper's count, by its record's id in the order its claims came, and the owner's."""

    papers: dict[str, Count] = field(default_factory=dict)
    own: Count = field(default_factory=Count)

    @property
    def all_papers(self) -> Count:
        """The papers' claims together."""
        return sum(self.papers.values(), Count())

    @property
    def groups(self) -> list[tuple[str | None, Count]]:
        """`(paper id, count)` for each paper, then `(None, count)` for the owner's own claims
        where there are any: the groups a summary shows, in its order."""
        return list(self.papers.items()) + ([(None, self.own)] if self.own.n else [])


def is_papers(kind: str | None) -> bool:
    """Whether a claim held by a record of `kind` is a paper's (else it is the owner's own)."""
    return kind == PAPER_KIND


def tally(rows: Iterable[tuple[str, str | None, str | None]]) -> Tally:
    """Count `(ref, kind of the record holding it, verdict)` rows: a literature record's claims
    by paper, any other record's as the owner's; a `+ext` row beside its claim's group."""
    out = Tally()
    for ref, kind, verdict in rows:
        if is_papers(kind):
            count = out.papers.setdefault(ref.partition("#")[0], Count())
        else:
            count = out.own
        (count.extensions if ref.endswith(EXTENSION) else count.claims)[verdict] += 1
    return out


def tally_statuses(statuses: Iterable, verdict_of: Callable | None = None) -> Tally:
    """The tally of claim statuses (`ClaimStatus`, which knows its record's kind), each by
    `verdict_of(status)` (default: its verdict at its profile)."""
    return tally((s.claim, s.record_kind, verdict_of(s) if verdict_of else s.verdict)
                 for s in statuses)


def verdict_counts(counts: Counter) -> dict[str, int]:
    """`{verdict: n}` for the verdicts counted, in the order summaries count them (litrec's
    verdicts first, any other after by name; a row without a verdict is left out)."""
    order = list(VERDICTS) + sorted(v for v in counts if v not in VERDICTS and v)
    return {v: counts[v] for v in order if counts[v]}


def counts_words(counts: Counter) -> str:
    """`4 reproduced, 2 stale`, or `none`."""
    return ", ".join(f"{n} {word(v)}" for v, n in verdict_counts(counts).items()) or "none"


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def tally_words(t: Tally) -> str:
    """The tally in a line: each paper's claims (`5 claims of ARXIV-2212.07677: 5 reproduced`),
    their extensions beside them, then the owner's (`1 claim of your own: 1 reproduced`);
    `0 claims: none` without any claim."""
    parts = []
    for paper, count in t.groups:
        parts.append(f"{_plural(count.n, 'claim')} of {paper or 'your own'}: "
                     f"{counts_words(count.claims)}")
        if count.n_extensions:
            parts.append(f"{_plural(count.n_extensions, 'extension')} beside them: "
                         f"{counts_words(count.extensions)}")
    return "; ".join(parts) or "0 claims: none"
