"""Teaching pydantic's errors: each schema failure as a located message that says the fix.

`validate_record` turns one parsed file into its record model, or into
diagnostics: the field's line and column, what was found, what is allowed
(with a did-you-mean), and a hint for the usual YAML traps.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from pydantic import ValidationError

from litrec.records import model as m
from litrec.records.kinds import ID_RE, KIND, KINDS
from litrec.util.confine import GENERATED_PAGE_NAMES
from litrec.util.diagnostics import Diagnostic, format_field
from litrec.util.formatting import excerpt
from litrec.util.mend import data_loc, explain_error, found
from litrec.util.yamlsafe import locate


def validate_record(data: dict, root, shown: str, diags: list[Diagnostic]):
    """The record model of one parsed file, or None after adding its diagnostics."""
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in m.MODELS:
        line, col = locate(root, ("kind",)) if "kind" in data else (1, 1)
        if kind is None:
            msg = f"missing field 'kind'; add one of: {', '.join(KINDS)}"
        elif not isinstance(kind, str):
            msg = f"kind must be one word, found {found(kind)}; write one of: {', '.join(KINDS)}"
        else:
            close = difflib.get_close_matches(str(kind), KINDS, n=1)
            hint = f" Did you mean '{close[0]}'?" if close else ""
            msg = f"unknown kind {excerpt(repr(kind), 60)}.{hint} Known kinds: {', '.join(KINDS)}"
        diags.append(Diagnostic(shown, line, col, "kind", msg, "kind", record=_rid(data)))
        return None
    try:
        return m.MODELS[kind].model_validate(data)
    except ValidationError as exc:
        seen: set[tuple] = set()
        for err in exc.errors(include_url=False):
            # a union reports each member's failure under a type tag: report the field once
            loc = data_loc(data, err["loc"])
            if err["type"] == "missing":  # the missing field is no union tag, whatever its name
                loc = data_loc(data, err["loc"][:-1]) + tuple(err["loc"][-1:])
            if loc in seen:
                continue
            seen.add(loc)
            line, col = locate(root, loc, key=err["type"] == "extra_forbidden")
            diags.append(Diagnostic(
                shown, line, col, format_field(loc), explain_error(err, m.MODELS[kind]),
                f"schema-{err['type']}", record=_rid(data)))
        return None


def _rid(data: dict) -> str | None:
    rid = data.get("id")
    return rid if isinstance(rid, str) else None


def check_id(rec, path: Path, root, shown: str, diags: list[Diagnostic]) -> None:
    """The id must be ASCII, fit its kind's pattern, not be a generated page's name and match
    the file name."""
    odd = next((ch for ch in rec.id if not ch.isascii()), None)
    if odd is not None:
        line, col = locate(root, ("id",))
        diags.append(Diagnostic(
            shown, line, col, "id",
            f"{excerpt(rec.id)!r} is not a {rec.kind} id: it holds the non-ASCII character "
            f"{odd!r} (U+{ord(odd):04X}), and ids are ASCII; expected the form "
            f"{KIND[rec.kind].example}",
            "id-pattern", record=rec.id))
    elif not ID_RE[rec.kind].match(rec.id):
        line, col = locate(root, ("id",))
        diags.append(Diagnostic(
            shown, line, col, "id",
            f"{excerpt(rec.id)!r} is not a {rec.kind} id; expected the form {KIND[rec.kind].example}",
            "id-pattern", record=rec.id))
    elif rec.id in GENERATED_PAGE_NAMES:
        line, col = locate(root, ("id",))
        diags.append(Diagnostic(
            shown, line, col, "id",
            f"id '{rec.id}' is the name of a page the site generates ({KIND[rec.kind].section}/"
            f"{rec.id}.md); choose another id", "id-pattern", record=rec.id))
    elif path.stem != rec.id:
        line, col = locate(root, ("id",))
        diags.append(Diagnostic(
            shown, line, col, "id",
            f"id '{excerpt(rec.id)}' does not match the file name '{path.name}'; "
            f"rename the file to '{excerpt(rec.id)}{path.suffix}' or fix the id",
            "id-filename", record=rec.id))


SOURCE_HINT = ("source: {kind: paper, where: 'Fig. 5', quote: 'the sentence', threshold: paper}, "
               "{kind: official, file: 'src/train.py', line: 307, threshold: official} or "
               "{kind: extension, reason: 'why litrec tests more'}")


def check_sources(rec, root, shown: str, diags: list[Diagnostic]) -> None:
    """Every expectation of a paper's claim (a literature record's) says where it comes from:
    the paper, its official code, or litrec's extension (`Expectation.source`)."""
    if rec.kind != "literature":
        return
    for i, claim in enumerate(rec.claims or ()):
        for j, e in enumerate(claim.check.expect if claim.check is not None else ()):
            if e.source is not None:
                _todo(rec, claim, e, ("claims", i, "check", "expect", j, "source"), root, shown, diags)
                continue
            loc = ("claims", i, "check", "expect", j)
            line, col = locate(root, loc)
            diags.append(Diagnostic(
                shown, line, col, format_field(loc),
                f"expectation '{e.describe()}' of {rec.id}#{claim.id} has no source: a paper's "
                f"claim is judged on what the paper or its code states, so say which, or mark it "
                f"litrec's own; add {SOURCE_HINT}", "missing-source", record=rec.id))


def _todo(rec, claim, e, loc: tuple, root, shown: str, diags: list[Diagnostic]) -> None:
    """A to-do warning where a source still holds the placeholder `litrec upgrade` writes (TODO):
    the record is valid, its verdict judged as before, but its source is not yet said."""
    todo = e.source.todo()
    if not todo:
        return
    line, col = locate(root, loc + (todo[0],))
    fixes = "; ".join(TODO_HINTS.get(name, f"{name}: what it is") for name in todo)
    diags.append(Diagnostic(
        shown, line, col, format_field(loc),
        f"to-do: the source of expectation '{e.describe()}' of {rec.id}#{claim.id} still says "
        f"TODO (litrec upgrade's placeholder); write {fixes}", "to-do", "warning", record=rec.id))


TODO_HINTS = {
    "where": "where: its place in the paper (section, figure, table, equation)",
    "quote": "quote: the paper's own words there (a quote TODO is never checked against the "
             "paper's text)",
    "threshold_reason": "threshold_reason: why litrec chose the threshold, or threshold: paper "
                        "where the paper prints that number or states that relation",
}
