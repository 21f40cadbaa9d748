"""`litrec new claim RECORD`: append a claim (proposition, finding, observation...) to a record.

Propositions, findings and observations are not records of their own: they are
claims inside a literature record (or a note, or a theory), addressed as
`RECORD#P4`. This module appends one to the record's `claims:` list as text,
so the file's other content, its layout and its comments stay as they were:
the new claim goes after the last line of the list (or a `claims:` key is
added at the end), indented as the list's other items are. The result must
validate before it is written; the file is replaced in one rename, as itself: a
record that is a symbolic link (inside the project) stays one and its target is
replaced, and the file keeps its mode; a link out of the project is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from litrec.records.kinds import CLAIM_HOLDERS
from litrec.records.model import CLAIM_ID_RE
from litrec.records.newrecord import yaml_scalar
from litrec.util.errors import UsageError

# claim kind -> the letters its ids start with (P1, F1, C1, Def1, Conj1)
PREFIX = {"proposition": "P", "finding": "F", "observation": "C", "definition": "Def",
          "conjecture": "Conj"}
_TOP_KEY = re.compile(r"^[A-Za-z_][\w-]*\s*:")


@dataclass(frozen=True)
class NewClaim:
    """What was appended: the claim's ref and the record file's new text."""

    ref: str
    claim_id: str
    text: str


def next_claim_id(kind: str, taken: set[str]) -> str:
    """The next free id of a claim kind: `P4` after P1-P3."""
    prefix = PREFIX[kind]
    n = 1
    while f"{prefix}{n}" in taken:
        n += 1
    return f"{prefix}{n}"


def claim_block(claim_id: str, kind: str, title: str | None, indent: str) -> list[str]:
    """The new claim's lines, its `- ` at `indent`; valid as it is, the rest as comments."""
    inner = indent + "  "
    return [
        f"{indent}- id: {claim_id}\n",
        f"{inner}kind: {kind}\n",
        f"{inner}title: {yaml_scalar(title or f'TODO: a one-line title of {claim_id}')}\n",
        f"{inner}statement: >-\n",
        f"{inner}  TODO: what the record states, in your words.\n",
        f"{inner}# where: {{section: \"2\"}}\n",
        f"{inner}# check:\n",
        f"{inner}#   analysis: a-registered-name\n",
        f"{inner}#   expect:\n",
        f"{inner}#     - {{metric: loss, op: \"<\", value: 0.1,\n",
        f"{inner}#        source: {{kind: paper, where: \"Table 1\", quote: \"the paper's words\",\n",
        f"{inner}#                 threshold: litrec, threshold_reason: \"why this number\"}}}}\n",
    ]


def append_claim(text: str, claim_id: str, kind: str, title: str | None) -> str:
    """`text` with the new claim appended to its top-level `claims:` list (added when absent)."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    start = next((i for i, ln in enumerate(lines) if re.match(r"^claims\s*:", ln)), None)
    if start is None:
        return "".join(lines) + "claims:\n" + "".join(claim_block(claim_id, kind, title, "  "))
    rest = lines[start].split(":", 1)[1].split("#", 1)[0].strip()
    if rest == "[]":  # an empty flow list: the key alone, then the item
        lines[start] = "claims:\n"
        return "".join(lines[:start + 1] + claim_block(claim_id, kind, title, "  ")
                       + lines[start + 1:])
    if rest:
        raise UsageError("the record's claims are written as one flow list (claims: [...]); "
                         "write them as a block list (one '- id:' per claim) to append to it")
    end = start + 1  # the first line after the list: the next top-level key, or the end
    indent = None
    last = start
    while end < len(lines):
        ln = lines[end]
        if _TOP_KEY.match(ln) or ln.startswith("..."):
            break
        if ln.strip() and not ln.lstrip().startswith("#"):
            last = end
            if indent is None and ln.lstrip().startswith("- "):
                indent = ln[:len(ln) - len(ln.lstrip())]
        end += 1
    block = claim_block(claim_id, kind, title, indent if indent is not None else "  ")
    return "".join(lines[:last + 1] + block + lines[last + 1:])


def plan_claim(record_id: str, path: Path, kind: str, claim_id: str | None,
               title: str | None) -> NewClaim:
    """The claim to append to the record at `path`; UsageError when it cannot hold one."""
    from litrec.records.filecheck import check_bytes

    raw = path.read_bytes()
    parsed, _, problems, _, model = check_bytes(path, raw)
    if model is None:
        raise UsageError(f"{record_id} ({path}) is not valid now; fix it first (litrec validate)")
    if model.kind not in CLAIM_HOLDERS:
        raise UsageError(f"{record_id} is a {model.kind} record, which holds no claims; claims "
                         f"belong to {', '.join(CLAIM_HOLDERS)} records")
    taken = {c.id for c in model.claims}
    if claim_id is None:
        claim_id = next_claim_id(kind, taken)
    elif not CLAIM_ID_RE.match(claim_id):
        raise UsageError(f"'{claim_id}' is not a claim id; expected letters then a number: "
                         f"{PREFIX[kind]}1")
    elif claim_id in taken:
        raise UsageError(f"{record_id}#{claim_id} exists; the next free {kind} id is "
                         f"{next_claim_id(kind, taken)}")
    text = append_claim(raw.decode("utf-8"), claim_id, kind, title)
    parsed, _, problems, _, model = check_bytes(path, text.encode("utf-8"))
    if model is None or claim_id not in {c.id for c in model.claims}:  # a bug, never written
        shown = "; ".join(p[3] for p in problems) or "the claim did not land in the list"
        raise UsageError(f"could not append a claim to {path} without breaking it ({shown}); "
                         "add it by hand (site/records.md)")
    return NewClaim(f"{record_id}#{claim_id}", claim_id, text)


def new_claim(records_dir: Path, record_id: str | None, kind: str, claim_id: str | None,
              title: str | None) -> tuple[NewClaim, Path]:
    """`litrec new claim RECORD` below the command: append a claim to the record's file,
    keeping its other content and comments; (the claim, the file). `NotCreated` when there is
    no such record."""
    import difflib

    from litrec.records.newrecord import display, existing_ids, write_replace
    from litrec.util.confine import Refused, check, need_dir, project_root
    from litrec.util.errors import NotCreated

    if not record_id:
        raise UsageError("give the record that holds the claim: litrec new claim ARXIV-2212.07677")
    need_dir(records_dir, "records")
    ids = existing_ids(records_dir)
    path = ids.get(record_id)
    if path is None:
        close = difflib.get_close_matches(record_id, sorted(ids), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise NotCreated(f"no record '{record_id}'{hint}")
    try:  # a record linked out of the project is not litrec's to read or write
        check(path, project_root(records_dir))
    except Refused as exc:
        raise UsageError(f"{display(path)} {exc.message}; nothing was written") from None
    new = plan_claim(record_id, path, kind, claim_id, title)
    write_replace(path, new.text)
    return new, path
