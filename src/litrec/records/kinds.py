"""The record kinds: one table of what each kind is called, where it lives and how it looks.

Every module that needs a kind's id pattern, folder, page section, label,
noun or colour reads it here (the schemas, `litrec new`, the site, the graph
drawings and the export), so a new kind is one row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    """One record kind and everything about it that is not its schema."""

    name: str              # the `kind:` value in a record
    pattern: str           # the id pattern (a regular expression, unanchored)
    example: str           # shown in errors that reject an id
    folder: str            # where its files go under records/
    section: str           # where its pages go in the site: records/ or its own section
    label: str             # heading of its group on index pages
    noun: tuple[str, str]  # singular and plural, for counts
    colour: str            # Mermaid/Graphviz style: fill, stroke, text colour
    prefix: str | None = None  # numbered kinds: the id prefix of `litrec new`
    width: int = 1             # numbered kinds: the least number of digits (ADR-013)
    status_field: str | None = None  # the field shown as a badge on its page


KINDS_TABLE: tuple[Kind, ...] = (
    Kind("literature", r"ARXIV-\d{4}\.\d{4,5}|DOI-10\.\d{4,9}_[-._;()A-Za-z0-9]+"
         r"|REF-[a-z0-9]+(?:-[a-z0-9]+)*",
         "ARXIV-2212.07677 (arXiv number), DOI-10.1000_xyz123 (DOI with '/' as '_') or "
         "REF-bishop2006pattern (lower-case words joined by '-', for a paper with neither)",
         "literature", "records", "Literature", ("paper", "papers"),
         "fill:#e3f2fd,stroke:#1565c0,color:#0d47a1"),
    Kind("note", r"NOTE-\d{1,6}", "NOTE-621", "notes", "records", "Notes", ("note", "notes"),
         "fill:#f3e5f5,stroke:#6a1b9a,color:#4a148c", prefix="NOTE-"),
    Kind("theory", r"THEORY-\d{1,6}", "THEORY-169", "theories", "records", "Theories",
         ("theory", "theories"), "fill:#fff3e0,stroke:#e65100,color:#bf360c", prefix="THEORY-",
         status_field="status"),
    Kind("decision", r"ADR-\d{1,6}", "ADR-013", "decisions", "records", "Decisions",
         ("decision", "decisions"), "fill:#eceff1,stroke:#455a64,color:#263238", prefix="ADR-",
         width=3, status_field="status"),
    Kind("work", r"[a-z0-9]+(?:-[a-z0-9]+)*",
         "what-survives-translation (lower-case words joined by '-')", "works", "records", "Works",
         ("work", "works"), "fill:#e8f5e9,stroke:#2e7d32,color:#1b5e20", status_field="status"),
    Kind("anthology", r"ANTH-(?:LIT|THEORY|NOTE|WORK)-\d{1,6}", "ANTH-LIT-533 or ANTH-THEORY-068",
         "anthology", "anthology", "Anthology", ("anthology entry", "anthology entries"),
         "fill:#fce4ec,stroke:#ad1457,color:#880e4f", status_field="stance"),
)
KIND: dict[str, Kind] = {k.name: k for k in KINDS_TABLE}
KINDS: tuple[str, ...] = tuple(KIND)
ANTHOLOGY_KINDS = ("LIT", "THEORY", "NOTE", "WORK")  # the collections an anthology id names

# \Z: no trailing newline; ASCII: `\d` is 0-9 only, never a look-alike such as a full-width digit
ID_RE = {k.name: re.compile(rf"^(?:{k.pattern})\Z", re.ASCII) for k in KINDS_TABLE}
# Numbered and prefixed kinds first: a work's slug pattern would also match 'note-1'.
_MATCH_ORDER = ("literature", "note", "theory", "decision", "anthology", "work")


def kind_of_id(ident: str) -> str | None:
    """The kind whose id pattern `ident` matches (prefixed kinds first), if any."""
    for kind in _MATCH_ORDER:
        if ID_RE[kind].match(ident):
            return kind
    return None


def page_of(kind: str, rid: str) -> str:
    """The generated site page of a record, relative to the docs folder."""
    return f"{KIND[kind].section}/{rid}.md"
