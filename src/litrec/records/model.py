"""The record schemas: one pydantic model per kind, and the typed relations.

A record is a YAML mapping with an `id` and a `kind`. Kinds:

- `literature`: a paper, with citation fields, claims and discrepancies;
- `note`, `theory`: the owner's own readings and theories;
- `decision`: an architecture-decision-style record (MADR statuses);
- `work`: a manuscript and its bibliography;
- `anthology`: an entry of the second collection the owner keeps.

Which model a kind has is its row's (`litrec.records.kinds`), as `MODELS` says.
Links are typed (`Relation`): each has an inverse name shown on the target,
the kinds it may start from and point to (from the kinds' rows), and whether
it may form a cycle.
Backlinks are computed from links, never written.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field, field_validator

from litrec.records.braces import unprotected  # the one brace parser, shared with bibtex/
from litrec.records.expectation import Expectation
from litrec.records.kinds import Kind, TableMap, per_table
from litrec.records.locators import Where
from litrec.records.quotes import TEXT_PATH_PATTERN, text_path_problem
from litrec.records.strict import Strict

# --------------------------------------------------------------------------- ids

CLAIM_ID = r"[A-Z][A-Za-z]*[0-9]+[a-z]?"  # ASCII digits: never a look-alike
CLAIM_ID_RE = re.compile(rf"^{CLAIM_ID}$")
REF_RE = re.compile(rf"^(?P<record>[^#\s]+)(?:#(?P<claim>{CLAIM_ID}))?$")
# a BibTeX citation key `\cite` can hold: none of space, comma, braces, % # \ ~ " ( ) =
BIBTEX_KEY_RE = re.compile(r'^[^\s,{}%#\\~"()=\x00-\x1f\x7f]+$')


# --------------------------------------------------------------------- relations


Reach = Literal["any", "own", "named"]


@dataclass(frozen=True)
class Relation:
    """A typed link: `source --name--> target`, shown on the target as `inverse`.

    The kinds it starts from (`sources`) and points to (`targets`) come from the kinds' rows
    (`litrec.records.kinds`): every kind (`any`), every kind of the owner's collection (`own`),
    and besides, the kinds whose rows name it in their `sends` and `receives`."""

    name: str
    inverse: str
    starts: Reach = "named"
    ends: Reach = "named"
    claims: bool = False  # may the target be a claim (`ID#P1`)?
    acyclic: bool = False
    description: str = ""

    @property
    def sources(self) -> frozenset[str]:
        """The kinds it may start from."""
        return _ENDS()[self.name][0]

    @property
    def targets(self) -> frozenset[str]:
        """The kinds it may point to."""
        return _ENDS()[self.name][1]


RELATIONS: dict[str, Relation] = {
    r.name: r
    for r in [
        Relation("held_under", "holds", "any",
                 description="the record is held under this decision"),
        Relation("supersedes", "superseded_by", acyclic=True,
                 description="this decision replaces an earlier one"),
        Relation("reading_of", "read_in", claims=True,
                 description="the note is a reading of this record"),
        Relation("uses", "used_by", ends="any", claims=True,
                 description="relies on this record or claim"),
        Relation("source_of", "has_source",
                 description="this record is a source of a theory"),
        Relation("derived_from", "derives", acyclic=True,
                 description="built on an earlier theory or note"),
        Relation("supports", "supported_by", "own", "own", claims=True,
                 description="gives evidence for"),
        Relation("contradicts", "contradicted_by", "own", "own", claims=True,
                 description="gives evidence against"),
        Relation("entry_for", "anthology_entry", ends="own",
                 description="the anthology entry for this record of the owner's collection"),
        Relation("keeps", "kept_by", ends="any", claims=True,
                 description="the anthology entry keeps this claim or entry"),
        Relation("rejects", "rejected_by", ends="any", claims=True,
                 description="the anthology entry rejects this claim or entry"),
        Relation("filed_from", "filed_into_record",
                 description="filed from the bibliography of this work"),
        Relation("considered", "considered_by", ends="any",
                 description="the work's bibliography considered this record"),
        Relation("cites", "cited_by", ends="any", claims=True,
                 description="the work cites this record"),
        Relation("dropped", "dropped_by", ends="any",
                 description="considered, then dropped from the final reference list"),
        Relation("relates_to", "related_from", "any", "any", claims=True,
                 description="a loose relation, for anything the others do not say"),
    ]
}


def _kinds_reached(rows: tuple[Kind, ...], name: str, reach: Reach, named: str) -> frozenset[str]:
    """The kinds of `rows` that `reach` covers, and those whose `named` field names relation `name`."""
    return frozenset(k.name for k in rows
                     if reach == "any" or (reach == "own" and k.own) or name in getattr(k, named))


_ENDS = per_table(lambda rows: {r.name: (_kinds_reached(rows, r.name, r.starts, "sends"),
                                         _kinds_reached(rows, r.name, r.ends, "receives"))
                                for r in RELATIONS.values()})
INVERSES = {r.inverse: r for r in RELATIONS.values()}

# -------------------------------------------------------------------- base parts


Ref = Annotated[str, Field(pattern=REF_RE.pattern, description="a record id, or ID#CLAIM for a claim")]
Markdown = Annotated[str, Field(description="Markdown prose; raw HTML is shown as text")]


class Link(Strict):
    """A typed link to another record or claim."""

    rel: str = Field(description="relation name: " + ", ".join(RELATIONS))
    target: Ref
    note: str | None = None

    @field_validator("rel")
    @classmethod
    def _known_rel(cls, v: str) -> str:
        if v not in RELATIONS:
            if v in INVERSES:
                r = INVERSES[v]
                raise ValueError(
                    f"'{v}' is the inverse of '{r.name}' and is computed on the target; "
                    f"write the link on the other record as rel: {r.name}"
                )
            close = difflib.get_close_matches(v, RELATIONS, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise ValueError(f"unknown relation '{v}'{hint} (known: {', '.join(RELATIONS)})")
        return v


class Base(Strict):
    """Fields every record has."""

    id: str
    title: str | None = None
    summary: Markdown | None = Field(None, description="short Markdown prose")
    body: Markdown | None = Field(None, description="long Markdown prose")
    partial: bool = Field(
        False,
        description="known by reference only: the record holds what its source says of it, "
        "the content is held elsewhere",
    )
    known_from: str | None = Field(None, description="where a partial record is named")
    tags: list[str] = Field(default_factory=list)
    links: list[Link] = Field(default_factory=list)

    def refs(self) -> list[tuple[str, str, tuple]]:
        """Every outgoing (relation, target, field location) of the record."""
        return [(ln.rel, ln.target, ("links", i, "target")) for i, ln in enumerate(self.links)]


# ----------------------------------------------------------------------- claims

class Check(Strict):
    """How a claim is checked: a registered analysis and its expectations."""

    analysis: str = Field(description="a name registered in analysis/registry.yaml")
    expect: list[Expectation] = Field(min_length=1)


class Claim(Strict):
    """A takeaway of a record, addressable as `RECORD#ID`."""

    id: str = Field(pattern=CLAIM_ID_RE.pattern, description="short local id: P1, F1, C1")
    kind: Literal["proposition", "finding", "observation", "definition", "conjecture"]
    title: str
    statement: Markdown
    where: Where | None = None
    check: Check | None = None


class Discrepancy(Strict):
    """Where a paper's text and its official code disagree."""

    id: str = Field(pattern=r"^D\d+$")
    topic: str
    text_says: str
    code_does: str
    numbers_follow: Literal["text", "code", "both", "unclear"]
    analysis: str | None = Field(None, description="a registered analysis that measures it")
    metrics: list[str] = Field(default_factory=list, description="its metrics that measure it")
    note: str | None = None


# ------------------------------------------------------------------------ kinds


class Filing(Strict):
    """When and why a record entered the collection."""

    date: dt.date
    requested_by: str | None = None
    from_work: str | None = Field(None, description="the work whose bibliography it came from")


ENTRY_TYPE = Literal["article", "inproceedings", "incollection", "inbook", "book", "proceedings",
                     "phdthesis", "mastersthesis", "techreport", "manual", "misc", "unpublished",
                     "online"]


class Literature(Base):
    """A paper: citation, claims with their checks, discrepancies, filing."""

    kind: Literal["literature"]
    authors: list[str] = Field(default_factory=list)
    year: int | None = Field(None, ge=1000, le=2999, description="the year of the version `venue` "
                             "names (the venue's year); without a venue, of the arXiv version")
    month: int | None = Field(None, ge=1, le=12, description="the month of that version, 1 to 12")
    venue: str | None = None
    entry_type: ENTRY_TYPE | None = Field(None, description="the BibTeX entry type it was imported "
                                           "as (inproceedings, article, ...); `export bibtex` "
                                           "writes it, and `venue` as its booktitle or journal")
    editors: list[str] = Field(default_factory=list, description="the editors of the volume "
                               "`venue` names (a proceedings), one 'First von Last' name each")
    series: str | None = Field(None, description="the series of the volume (Proceedings of "
                               "Machine Learning Research)")
    address: str | None = Field(None, description="where the venue's publisher is, or where the "
                                "conference took place, as the entry gave it")
    organization: str | None = Field(None, description="the organisation behind a conference")
    volume: str | None = None
    number: str | None = Field(None, description="the issue number")
    pages: str | None = None
    publisher: str | None = None
    arxiv: str | None = Field(None, pattern=r"^\d{4}\.\d{4,5}(v\d+)?$")
    doi: str | None = Field(None, pattern=r"^10\.\d{4,9}/\S+$")
    url: str | None = None
    bibtex_key: str | None = Field(None, pattern=BIBTEX_KEY_RE.pattern, description="the "
                                   "citation key `export bibtex` writes (`DBLP:conf/nips/GargTLV22`"
                                   "); kept from the imported entry; without it, one is generated")
    bibtex_title: str | None = Field(None, description="the title with its BibTeX case "
                                     "protection (`What Can Transformers Learn {In-Context?} {A} "
                                     "Case Study`), when it is not what `export bibtex` writes "
                                     "from `title`; without its braces it reads as `title`")
    abstract: str | None = Field(None, description="the paper's own abstract, as plain text")
    keywords: list[str] = Field(default_factory=list, description="the paper's own keywords")
    code: str | None = Field(None, description="where the paper's official code lives")
    text: str | None = Field(None, description="the paper's text as a local file, relative to "
                             "the project root (texts/2212.07677.txt; usually one git ignores): "
                             "`litrec validate` checks every quote of the paper's sources in it, "
                             "and says once that it did not when the file is not there",
                             json_schema_extra={"pattern": TEXT_PATH_PATTERN})
    question: Markdown | None = Field(None, description="the question this record asks of the paper")
    filed: Filing | None = None
    claims: list[Claim] = Field(default_factory=list)
    discrepancies: list[Discrepancy] = Field(default_factory=list)

    @field_validator("text")
    @classmethod
    def _inside_the_project(cls, v: str | None) -> str | None:
        if v is None:
            return v
        problem = text_path_problem(v)
        if problem:
            raise ValueError(problem)
        return v

    @field_validator("bibtex_title")
    @classmethod
    def _reads_as_the_title(cls, v: str | None, info) -> str | None:
        if v is None:
            return v
        title = info.data.get("title")
        try:
            plain = unprotected(v)
        except ValueError as exc:
            raise ValueError(f"{exc}; write \\{{ or \\}} for a brace of the title") from None
        if plain != title:
            raise ValueError(f"without its braces it reads '{plain}', not the title '{title}'; "
                             "make the two agree, or remove bibtex_title")
        return v

    def refs(self):
        """Every link this record makes, with its field's location."""
        out = super().refs()
        if self.filed and self.filed.from_work:
            out.append(("filed_from", self.filed.from_work, ("filed", "from_work")))
        return out


class Note(Base):
    """The owner's note on a reading."""

    kind: Literal["note"]
    date: dt.date | None = None
    claims: list[Claim] = Field(default_factory=list)


class Theory(Base):
    """The owner's theory, with its status."""

    kind: Literal["theory"]
    status: Literal["open", "held", "abandoned"] | None = None
    claims: list[Claim] = Field(default_factory=list)


class Decision(Base):
    """A decision record (MADR): context, decision, consequences, status."""

    kind: Literal["decision"]
    status: Literal["proposed", "accepted", "rejected", "deprecated", "superseded"] | None = None
    date: dt.date | None = None
    context: Markdown | None = None
    decision: Markdown | None = None
    consequences: Markdown | None = None


class BibEntry(Strict):
    """One entry of a work's bibliography: considered, cited or dropped."""

    ref: Ref
    status: Literal["considered", "cited", "dropped"]
    note: str | None = None


_BIB_REL = {"considered": "considered", "cited": "cites", "dropped": "dropped"}


class Work(Base):
    """A manuscript and its bibliography."""

    kind: Literal["work"]
    status: Literal["draft", "submitted", "published", "abandoned"] | None = None
    bibliography: list[BibEntry] = Field(default_factory=list)

    def refs(self):
        """Every link this record makes, its bibliography included."""
        out = super().refs()
        for i, b in enumerate(self.bibliography):
            out.append((_BIB_REL[b.status], b.ref, ("bibliography", i, "ref")))
        return out


class Anthology(Base):
    """An entry of the anthology, the second collection: its stance and what it keeps or rejects."""

    kind: Literal["anthology"]
    stance: Literal["kept", "rejected", "held", "open"] | None = Field(
        None, description="the anthology's stance on this entry")
    read_for: str | None = Field(None, description="what the anthology reads the entry for")


def _model(kind: Kind) -> type[Base]:
    """A kind's model: its row's class, or the class of this module its row names."""
    return globals()[kind.model] if isinstance(kind.model, str) else kind.model


# kind -> its model, from the kinds' rows (`litrec.records.kinds`)
MODELS: Mapping[str, type[Base]] = TableMap(lambda rows: {k.name: _model(k) for k in rows})
