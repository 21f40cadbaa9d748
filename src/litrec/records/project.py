"""The loaded collection: records by id, typed edges with computed backlinks, claims by reference.

`Project.load` builds the whole project in one call: it checks the collection
(`litrec.records.validate.check_collection`), keeps the valid records' models, their files,
the typed links between them, the analysis registry and every problem found. A `Project`
answers the questions every later stage asks (a record's links both ways, a claim by its
reference, a path as shown in messages).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from litrec.analyses.registry import Registry
from litrec.records.edges import Edge
from litrec.util.diagnostics import Diagnostic, PathDisplay


@dataclass
class Project:
    """A loaded collection of records and everything derived from it."""

    records_dir: Path
    analysis_dir: Path
    registry: Registry                 # the analyses `analysis/registry.yaml` declares
    records: dict[str, Any] = field(default_factory=dict)  # the valid records' models, by id
    paths: dict[str, Path] = field(default_factory=dict)   # each valid record's file
    edges: list[Edge] = field(default_factory=list)        # the valid records' typed links
    diagnostics: list[Diagnostic] = field(default_factory=list)  # every problem found
    files: int = 0                     # record files read

    @classmethod
    def load(cls, records_dir: Path, analysis_dir: Path | None = None) -> Project:
        """Load, link and check the collection in `records_dir` (its analyses in `analysis_dir`,
        default `analysis/` beside it); never raises for bad input: every problem is a
        `Diagnostic` of `diagnostics`, and the valid records are kept so later checks still run."""
        from litrec.records.validate import check_collection, default_analysis_dir

        records_dir = Path(records_dir)
        analysis_dir = Path(analysis_dir) if analysis_dir else default_analysis_dir(records_dir)
        checked = check_collection(records_dir, analysis_dir, use_cache=False, want_models=True)
        registry = checked.registry
        if not isinstance(registry, Registry):  # kept by the cache, so not read: read it here
            from litrec.analyses.registry import load_registry

            registry = load_registry(analysis_dir, [])
        return cls(records_dir, analysis_dir, registry, records=checked.models, paths=checked.paths,
                   edges=checked.edge_list, diagnostics=checked.diagnostics, files=checked.files)

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
