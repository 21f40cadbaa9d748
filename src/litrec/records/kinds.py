"""The record kinds: one table, a row per kind, holding everything about a kind.

A row says what a kind is called, its id pattern, where its files and pages
go, how it looks, its pydantic model, whether its records hold claims, the
skeleton `litrec new` writes and the relations peculiar to it. Everything else
is derived from the rows: the schemas (`litrec.records.schema`), the models
and relations (`litrec.records.model`), `litrec new` and `litrec new claim`,
the site's sections, the graph drawings and the export. A new kind is one row.

The derived views (`KIND`, `KINDS`, `ID_RE`, `CLAIM_HOLDERS`, `kind_of_id`, and
the models and relations of `litrec.records.model`) follow the table: they are
computed again when `KINDS_TABLE` is another tuple, so a test that sets it to
one with a row more (pytest's `monkeypatch.setattr`) sees its kind taken up
everywhere, and the table restored after (tests/records/test_kind_row.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")
V = TypeVar("V")


@dataclass(frozen=True)
class Kind:
    """One record kind and everything about it."""

    name: str              # the `kind:` value in a record
    pattern: str           # the id pattern (a regular expression, unanchored)
    example: str           # shown in errors that reject an id
    folder: str            # where its files go under records/
    section: str           # where its pages go in the site: records/ or its own section
    label: str             # heading of its group on index pages
    noun: tuple[str, str]  # singular and plural, for counts
    colour: str            # Mermaid/Graphviz style: fill, stroke, text colour
    model: str | type      # its pydantic model: a class, or the name of one in litrec.records.model
    template: str          # what `litrec new` writes after the title ({today}; {arxiv}: literature)
    prefix: str | None = None  # numbered kinds: the id prefix of `litrec new`
    width: int = 1             # numbered kinds: the least number of digits (ADR-013)
    status_field: str | None = None  # the field shown as a badge on its page
    holds_claims: bool = False  # its records hold claims (`RECORD#P1`, `litrec new claim`)
    own: bool = True            # of the owner's collection (the anthology is a second one)
    matched_last: bool = False  # its id pattern matches most words: tried after every other
    sends: tuple[str, ...] = ()     # the relations it starts, beyond those every kind starts
    receives: tuple[str, ...] = ()  # the relations that point to it, beyond those to every kind


KINDS_TABLE: tuple[Kind, ...] = (
    Kind("literature", r"ARXIV-\d{4}\.\d{4,5}|DOI-10\.\d{4,9}_[-._;()A-Za-z0-9]+"
         r"|REF-[a-z0-9]+(?:-[a-z0-9]+)*",
         "ARXIV-2212.07677 (arXiv number), DOI-10.1000_xyz123 (DOI with '/' as '_') or "
         "REF-bishop2006pattern (lower-case words joined by '-', for a paper with neither)",
         "literature", "records", "Literature", ("paper", "papers"),
         "fill:#e3f2fd,stroke:#1565c0,color:#0d47a1", model="Literature", holds_claims=True,
         sends=("source_of", "filed_from"), receives=("reading_of",), template="""\
authors: []
{arxiv}# year: 2024                   # the venue's year (a preprint's is in its arXiv number)
# venue: ICML 2024
# doi: 10.1000/xyz123
filed:
  date: {today}
# question: >-
#   What this record asks of the paper.
# summary: >-
#   What the paper says, in a few lines.
claims: []
# - id: P1
#   kind: proposition          # proposition, finding, observation, definition, conjecture
#   title: The claim in a few words
#   statement: >-
#     The claim, as the paper states it.
links: []
"""),
    Kind("note", r"NOTE-\d{1,6}", "NOTE-621", "notes", "records", "Notes", ("note", "notes"),
         "fill:#f3e5f5,stroke:#6a1b9a,color:#4a148c", prefix="NOTE-", model="Note",
         holds_claims=True, sends=("reading_of", "uses", "source_of", "derived_from", "filed_from"),
         receives=("derived_from",), template="""\
date: {today}
# summary: >-
#   What this note says, in a few lines.
links: []
# - rel: reading_of            # the record this note reads
#   target: ARXIV-2212.07677
claims: []
"""),
    Kind("theory", r"THEORY-\d{1,6}", "THEORY-169", "theories", "records", "Theories",
         ("theory", "theories"), "fill:#fff3e0,stroke:#e65100,color:#bf360c", prefix="THEORY-",
         status_field="status", model="Theory", holds_claims=True,
         sends=("uses", "derived_from", "filed_from"), receives=("source_of", "derived_from"),
         template="""\
status: open                   # open, held, abandoned
# summary: >-
#   The theory, in a few lines.
links: []
# - rel: derived_from
#   target: THEORY-1
claims: []
"""),
    Kind("decision", r"ADR-\d{1,6}", "ADR-013", "decisions", "records", "Decisions",
         ("decision", "decisions"), "fill:#eceff1,stroke:#455a64,color:#263238", prefix="ADR-",
         width=3, status_field="status", model="Decision", sends=("supersedes",),
         receives=("held_under", "supersedes"), template="""\
status: proposed               # proposed, accepted, rejected, deprecated, superseded
date: {today}
# context: >-
#   What forces a decision.
# decision: >-
#   What was decided.
# consequences: >-
#   What follows from it.
links: []
# - rel: supersedes
#   target: ADR-001
"""),
    Kind("work", r"[a-z0-9]+(?:-[a-z0-9]+)*",
         "what-survives-translation (lower-case words joined by '-')", "works", "records", "Works",
         ("work", "works"), "fill:#e8f5e9,stroke:#2e7d32,color:#1b5e20", status_field="status",
         model="Work", matched_last=True,  # a work's slug pattern would also match 'note-1'
         sends=("uses", "considered", "cites", "dropped"), receives=("reading_of", "filed_from"),
         template="""\
status: draft                  # draft, submitted, published, abandoned
# summary: >-
#   What the work argues.
bibliography: []
# - ref: ARXIV-2212.07677
#   status: considered         # considered, cited, dropped
"""),
    Kind("anthology", r"ANTH-(?:LIT|THEORY|NOTE|WORK)-\d{1,6}", "ANTH-LIT-533 or ANTH-THEORY-068",
         "anthology", "anthology", "Anthology", ("anthology entry", "anthology entries"),
         "fill:#fce4ec,stroke:#ad1457,color:#880e4f", status_field="stance", model="Anthology",
         own=False, sends=("entry_for", "keeps", "rejects"), receives=("reading_of",),
         template="""\
stance: open                   # kept, rejected, held, open
# read_for: what the anthology reads the entry for
links: []
# - rel: entry_for             # the owner's record this entry is for
#   target: ARXIV-2212.07677
"""),
)
ANTHOLOGY_KINDS = ("LIT", "THEORY", "NOTE", "WORK")  # the collections an anthology id names


# ------------------------------------------------------------------ derived views


def per_table(build: Callable[[tuple[Kind, ...]], T]) -> Callable[[], T]:
    """A function giving `build(KINDS_TABLE)`, built again only when the table is another."""
    memo: list[tuple[tuple[Kind, ...], T]] = []

    def current() -> T:
        table = KINDS_TABLE
        if not memo or memo[0][0] is not table:
            memo[:] = [(table, build(table))]
        return memo[0][1]

    return current


class _FromTable:
    """A view derived from the table: `_now()` gives its value for the table as it is now."""

    _now: Callable[[], Any]

    def __contains__(self, item: object) -> bool:
        return item in self._now()

    def __iter__(self) -> Iterator[str]:
        return iter(self._now())

    def __len__(self) -> int:
        return len(self._now())

    def __repr__(self) -> str:
        return repr(self._now())


class TableMap(_FromTable, Mapping[str, V], Generic[V]):
    """A mapping from kind names, derived from the table and following it."""

    def __init__(self, build: Callable[[tuple[Kind, ...]], dict[str, V]]) -> None:
        self._now = per_table(build)

    def __getitem__(self, name: str) -> V:
        return self._now()[name]


class TableNames(_FromTable, Sequence[str]):
    """Kind names in the table's order (those of the rows `keep` keeps), following the table."""

    def __init__(self, keep: Callable[[Kind], bool] = lambda k: True) -> None:
        self._now = per_table(lambda rows: tuple(k.name for k in rows if keep(k)))

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...
    def __getitem__(self, i):
        return self._now()[i]


KIND: Mapping[str, Kind] = TableMap(lambda rows: {k.name: k for k in rows})
KINDS: Sequence[str] = TableNames()
CLAIM_HOLDERS: Sequence[str] = TableNames(lambda k: k.holds_claims)  # kinds whose records hold claims

# \Z: no trailing newline; ASCII: `\d` is 0-9 only, never a look-alike such as a full-width digit
ID_RE: Mapping[str, re.Pattern[str]] = TableMap(
    lambda rows: {k.name: re.compile(rf"^(?:{k.pattern})\Z", re.ASCII) for k in rows})
# the order ids are matched in: the kinds whose pattern matches most words last
_match_order = per_table(lambda rows: tuple(k.name for k in sorted(rows, key=lambda k: k.matched_last)))


def kind_of_id(ident: str) -> str | None:
    """The kind whose id pattern `ident` matches (prefixed kinds first), if any."""
    for kind in _match_order():
        if ID_RE[kind].match(ident):
            return kind
    return None


def page_of(kind: str, rid: str) -> str:
    """The generated site page of a record, relative to the docs folder."""
    return f"{KIND[kind].section}/{rid}.md"
