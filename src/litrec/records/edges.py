"""A typed link between two records, as the checks between records find it: `source --rel--> target[#claim]`.

`litrec.records.checks` makes one per valid link; `litrec.records.project.Project` keeps
them and answers a record's backlinks from them.
"""

from __future__ import annotations

from dataclasses import dataclass

from litrec.records import model as m


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
