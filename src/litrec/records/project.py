"""The loaded collection: records by id, typed edges with computed backlinks, claims by reference.

`Project` holds what `litrec.records.load.load_project` found and answers the
questions every later stage asks (a record's links both ways, a claim by its
reference, a path as shown in messages).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from litrec.analyses.registry import Registry
from litrec.records import model as m
from litrec.util.diagnostics import Diagnostic, PathDisplay


@dataclass(frozen=True, slots=True)
class Edge:
    """One typed link: `source --rel--> target[#claim]`."""

    source: str
    rel: str
    target: str
    claim: str | None
    loc: tuple

    @property
    def ref(self) -> str:
        """The target as written: `ID` or `ID#P1`."""
        return f"{self.target}#{self.claim}" if self.claim else self.target

    @property
    def inverse(self) -> str:
        """The link's name as seen from its target."""
        return m.RELATIONS[self.rel].inverse

    @property
    def label(self) -> str:
        """The link as drawn on a graph: `uses P1`."""
        rel = self.rel.replace("_", " ")
        return f"{rel} {self.claim}" if self.claim else rel


@dataclass
class Project:
    """A loaded collection of records and everything derived from it."""

    records_dir: Path
    analysis_dir: Path
    records: dict[str, Any] = field(default_factory=dict)
    paths: dict[str, Path] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    registry: Registry | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0

    # -- queries ---------------------------------------------------------------
    @property
    def errors(self) -> list[Diagnostic]:
        """The diagnostics that are errors."""
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def ok(self) -> bool:
        """Whether the collection has no error."""
        return not self.errors

    def incoming(self, rid: str) -> dict[str, list[Edge]]:
        """Backlinks of a record (and of its claims), grouped by inverse name."""
        out: dict[str, list[Edge]] = defaultdict(list)
        for e in self._incoming_index().get(rid, ()):
            out[e.inverse].append(e)
        return dict(out)

    def _incoming_index(self) -> dict[str, list[Edge]]:
        idx = getattr(self, "_in_idx", None)
        if idx is None:
            idx = defaultdict(list)
            for e in self.edges:
                idx[e.target].append(e)
            self._in_idx = idx
        return idx

    def claims(self) -> Iterator[tuple[Any, Any]]:
        """(record, claim) for every claim of every record, in id order."""
        for rid in sorted(self.records):
            for c in getattr(self.records[rid], "claims", []) or []:
                yield self.records[rid], c

    def claim(self, ref: str) -> tuple[Any, Any] | None:
        """(record, claim) of a claim ref `ID#P1`, or None."""
        rid, _, cid = ref.partition("#")
        rec = self.records.get(rid)
        for c in getattr(rec, "claims", []) or []:
            if c.id == cid:
                return rec, c
        return None

    def display(self, path: Path) -> str:
        """The path as shown in messages: relative to the working folder when inside it."""
        shown = self.__dict__.get("_shown")
        if shown is None:
            shown = self.__dict__["_shown"] = PathDisplay()
        return shown(path)
