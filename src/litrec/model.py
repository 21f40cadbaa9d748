"""The record schemas: one pydantic model per kind, and the typed relations.

A record is a YAML mapping with an `id` and a `kind`. Kinds:

- `literature`: a paper, with citation fields, claims and discrepancies;
- `note`, `theory`: the owner's own readings and theories;
- `decision`: an architecture-decision-style record (MADR statuses);
- `work`: a manuscript and its bibliography;
- `anthology`: an entry of the second collection the owner keeps.

Links are typed (`Relation`): each has an inverse name shown on the target,
the kinds it may start from and point to, and whether it may form a cycle.
Backlinks are computed from links, never written.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_serializer, model_validator

from litrec.formatting import fmt
from litrec.kinds import KINDS

# --------------------------------------------------------------------------- ids

CLAIM_ID = r"[A-Z][A-Za-z]*\d+[a-z]?"
CLAIM_ID_RE = re.compile(rf"^{CLAIM_ID}$")
REF_RE = re.compile(rf"^(?P<record>[^#\s]+)(?:#(?P<claim>{CLAIM_ID}))?$")


# --------------------------------------------------------------------- relations


@dataclass(frozen=True)
class Relation:
    """A typed link: `source --name--> target`, shown on the target as `inverse`."""

    name: str
    inverse: str
    sources: frozenset[str]
    targets: frozenset[str]
    claims: bool = False  # may the target be a claim (`ID#P1`)?
    acyclic: bool = False
    description: str = ""


_ALL = frozenset(KINDS)
_OWN = frozenset({"literature", "note", "theory", "decision", "work"})


def _r(name, inverse, sources, targets, claims=False, acyclic=False, description=""):
    return Relation(name, inverse, frozenset(sources), frozenset(targets), claims, acyclic, description)


RELATIONS: dict[str, Relation] = {
    r.name: r
    for r in [
        _r("held_under", "holds", _ALL, {"decision"},
           description="the record is held under this decision"),
        _r("supersedes", "superseded_by", {"decision"}, {"decision"}, acyclic=True,
           description="this decision replaces an earlier one"),
        _r("reading_of", "read_in", {"note"}, {"literature", "anthology", "work"}, claims=True,
           description="the note is a reading of this record"),
        _r("uses", "used_by", {"note", "theory", "work"}, _OWN | {"anthology"}, claims=True,
           description="relies on this record or claim"),
        _r("source_of", "has_source", {"note", "literature"}, {"theory"},
           description="this record is a source of a theory"),
        _r("derived_from", "derives", {"theory", "note"}, {"theory", "note"}, acyclic=True,
           description="built on an earlier theory or note"),
        _r("supports", "supported_by", _OWN, _OWN, claims=True,
           description="gives evidence for"),
        _r("contradicts", "contradicted_by", _OWN, _OWN, claims=True,
           description="gives evidence against"),
        _r("entry_for", "anthology_entry", {"anthology"}, _OWN,
           description="the anthology entry for this record of the owner's collection"),
        _r("keeps", "kept_by", {"anthology"}, _ALL, claims=True,
           description="the anthology entry keeps this claim or entry"),
        _r("rejects", "rejected_by", {"anthology"}, _ALL, claims=True,
           description="the anthology entry rejects this claim or entry"),
        _r("filed_from", "filed_into_record", {"literature", "note", "theory"}, {"work"},
           description="filed from the bibliography of this work"),
        _r("considered", "considered_by", {"work"}, _ALL,
           description="the work's bibliography considered this record"),
        _r("cites", "cited_by", {"work"}, _ALL, claims=True,
           description="the work cites this record"),
        _r("dropped", "dropped_by", {"work"}, _ALL,
           description="considered, then dropped from the final reference list"),
        _r("relates_to", "related_from", _ALL, _ALL, claims=True,
           description="a loose relation, for anything the others do not say"),
    ]
}
INVERSES = {r.inverse: r for r in RELATIONS.values()}

# -------------------------------------------------------------------- base parts


class Strict(BaseModel):
    """Base of every schema: frozen, strict types, unknown fields refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, str_strip_whitespace=True,
                              allow_inf_nan=False)


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

Op = Literal["<", "<=", ">", ">=", "≈", "==", "between"]
POSITION_RE = re.compile(r"^\s*(<=|>=|<|>)\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*$")


class Expectation(Strict):
    """What one metric of an analysis result must satisfy for the claim to hold."""

    metric: str = Field(description="metric name in the result, dotted for nested: ood.min_cos")
    op: Op
    value: float | bool | None = Field(None, description="a number to compare with")
    ref: str | None = Field(None, description="another metric to compare with")
    factor: float = Field(1.0, description="the right side is factor * value (or * ref)")
    rel_tol: float | None = Field(None, ge=0, description="relative tolerance for ≈")
    abs_tol: float | None = Field(None, ge=0, description="absolute tolerance for ≈")
    low: str | None = Field(None, description="op between: the metric at position 0")
    high: str | None = Field(None, description="op between: the metric at position 1")
    position: str | None = Field(
        None, description="op between: where the metric must sit, 0 at low and 1 at high: '< 0.15'")
    paper: float | str | None = Field(None, description="the paper's own number, where it states one")
    official: float | str | None = Field(None, description="the official code's number")
    note: str | None = None

    @model_serializer(mode="wrap")
    def _dump(self, handler):
        data = handler(self)
        for name in ("value", "ref"):  # only the right-hand side it has: null is refused in a record
            if data.get(name) is None:
                data.pop(name, None)
        return data

    @field_validator("value", "ref", mode="before")
    @classmethod
    def _not_null(cls, v, info):
        if v is None:  # runs only for a value written out: `value: null`, `ref: ~`
            what = "a number" if info.field_name == "value" else "a metric name"
            raise ValueError(f"null is not a right-hand side; give {what} or remove the field")
        return v

    @model_validator(mode="after")
    def _one_side(self) -> "Expectation":
        if self.op == "between":
            if self.value is not None or self.ref is not None:
                raise ValueError("op 'between' takes low, high and position, not value or ref")
            if not (self.low and self.high and self.position):
                raise ValueError("op 'between' needs low: <metric>, high: <metric> and "
                                 "position: '< 0.15' (0 at low, 1 at high)")
            if not POSITION_RE.match(self.position):
                raise ValueError(f"position {self.position!r} must be an operator and a number, "
                                 "e.g. '< 0.15' or '>= 0.5'")
            return self
        if self.low is not None or self.high is not None or self.position is not None:
            raise ValueError("low, high and position belong to op 'between'")
        if isinstance(self.value, bool) and self.op not in ("==", "≈"):
            raise ValueError(f"a boolean value can only be compared with '==', not '{self.op}'; "
                             "write a number, or use op: '=='")
        if (self.value is None) == (self.ref is None):
            raise ValueError("give exactly one right-hand side: 'value: <number>' or 'ref: <metric>'")
        if self.op == "≈" and self.rel_tol is None and self.abs_tol is None:
            raise ValueError("op '≈' needs a tolerance: rel_tol or abs_tol")
        return self

    def bound(self) -> tuple[str, float]:
        """op between: the position's operator and number."""
        match = POSITION_RE.match(self.position or "")
        assert match, self.position
        return match.group(1), float(match.group(2))

    def describe(self) -> str:
        """The expectation in words: `loss_trained <= 1.05 × loss_gd (±0.01 rel)`."""
        if self.op == "between":
            op, x = self.bound()
            return f"{self.metric} between {self.low} (0) and {self.high} (1): position {op} {fmt(x, terminal=True)}"
        rhs = self.ref if self.ref is not None else fmt(self.value, terminal=True)
        if self.factor != 1.0:
            rhs = f"{fmt(self.factor, terminal=True)} × {rhs}"
        tol = ""
        if self.op == "≈":
            parts = []
            if self.rel_tol is not None:
                parts.append(f"{self.rel_tol:.3g} rel")
            if self.abs_tol is not None:
                parts.append(f"{self.abs_tol:.3g} abs")
            tol = f" (±{', '.join(parts)})"
        return f"{self.metric} {self.op} {rhs}{tol}"


class Check(Strict):
    """How a claim is checked: a registered analysis and its expectations."""

    analysis: str = Field(description="a name registered in analysis/registry.yaml")
    expect: list[Expectation] = Field(min_length=1)


class Where(Strict):
    """Where the claim stands in the paper."""

    proposition: str | None = None
    section: str | None = None
    figure: str | None = None
    table: str | None = None
    equation: str | None = None
    appendix: str | None = None
    page: str | None = None

    def describe(self) -> str:
        """Where in the paper, in words: `Proposition 1, §2`."""
        names = ("proposition", "section", "figure", "table", "equation", "appendix", "page")
        return ", ".join(f"{n.capitalize()} {getattr(self, n)}" for n in names if getattr(self, n))


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


class Literature(Base):
    """A paper: citation, claims with their checks, discrepancies, filing."""

    kind: Literal["literature"]
    authors: list[str] = Field(default_factory=list)
    year: int | None = Field(None, ge=1000, le=2999, description="the year of the version `venue` "
                             "names (the venue's year); without a venue, of the arXiv version")
    month: int | None = Field(None, ge=1, le=12, description="the month of that version, 1 to 12")
    venue: str | None = None
    volume: str | None = None
    number: str | None = Field(None, description="the issue number")
    pages: str | None = None
    publisher: str | None = None
    arxiv: str | None = Field(None, pattern=r"^\d{4}\.\d{4,5}(v\d+)?$")
    doi: str | None = Field(None, pattern=r"^10\.\d{4,9}/\S+$")
    url: str | None = None
    abstract: str | None = Field(None, description="the paper's own abstract, as plain text")
    keywords: list[str] = Field(default_factory=list, description="the paper's own keywords")
    code: str | None = Field(None, description="where the paper's official code lives")
    question: Markdown | None = Field(None, description="the question this record asks of the paper")
    filed: Filing | None = None
    claims: list[Claim] = Field(default_factory=list)
    discrepancies: list[Discrepancy] = Field(default_factory=list)

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


MODELS: dict[str, type[Base]] = {"literature": Literature, "note": Note, "theory": Theory,
                                 "decision": Decision, "work": Work, "anthology": Anthology}
