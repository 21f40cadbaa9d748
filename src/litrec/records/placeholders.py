"""Stored numbers cited in a record's prose instead of typed: `{{ANALYSIS/PROFILE: METRIC}}`.

A number typed by hand from a result goes stale when the analysis runs again. A
record's prose (`prose_fields`: summary, body, question, a decision's context,
decision and consequences, claim statements, expectation and discrepancy notes,
link and bibliography notes) cites it instead:

- `{{single-layer-lsa/paper_full: loss_trained}}`: the metric's mean over the
  result's seeds with its 95% interval (`0.2067 [0.2031, 0.2104] (95%, 3 seeds)`),
  or its value where the result is one run;
- `{{deeper-gdpp/paper_full: k5.cos_vs_gdpp_matched per seed}}`: its value at each
  seed, in seed order (`0.998, 0.9973, 0.9954 (seeds 0-2)`).

Every `{{` in prose opens a placeholder (two braces of LaTeX are written `{ {`).
This module is the syntax: the placeholders of a text (`scan_placeholders`), of a record with
where each is written in its file (`cited_in`), and the check that each names a
registered analysis (`check_cited`). What one stands for is read from the stored
result by `litrec.verdicts.cited`, which the site and `litrec export json` render
through, and which warns where the result lacks the metric.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from litrec.util.diagnostics import Diagnostic, Severity, format_field

OPEN, CLOSE = "{{", "}}"
FORM = "{{ANALYSIS/PROFILE: METRIC}} or {{ANALYSIS/PROFILE: METRIC per seed}}"
_BODY = re.compile(r"\s*(?P<analysis>[^\s/:]+)\s*/\s*(?P<profile>[^\s/:]+)\s*:\s*"
                   r"(?P<metric>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)"
                   r"(?P<per>\s+per\s+seed)?\s*")
_BREAK = re.compile(r"\r\n|[\n\r\x85\u2028\u2029]")  # YAML's line breaks


@dataclass(frozen=True)
class Found:
    """One `{{` of a text: the placeholder it opens (`analysis`, `profile`, `metric`,
    `per_seed`), or why it is none (`problem`); `start`, `end`: where it is in the text."""

    start: int
    end: int
    text: str
    analysis: str = ""
    profile: str = ""
    metric: str = ""
    per_seed: bool = False
    problem: str | None = None


def scan_placeholders(text: str) -> list[Found]:
    """Every `{{` of `text`, in order, each the placeholder it opens or its problem."""
    out: list[Found] = []
    pos = text.find(OPEN)
    while pos >= 0:
        close = text.find(CLOSE, pos + 2)
        inner = text[pos + 2:close] if close >= 0 else ""
        if close < 0 or "{" in inner or "}" in inner:
            shown = _snippet(text[pos:])
            out.append(Found(pos, pos + 2, shown, problem=(
                f"'{shown}' opens a placeholder that is not closed with '}}}}'; write {FORM}, "
                "or '{ {' for two braces of text")))
            pos = text.find(OPEN, pos + 2)
            continue
        written = text[pos:close + 2]
        m = _BODY.fullmatch(inner)
        if m is None:
            out.append(Found(pos, close + 2, written, problem=_malformed(written, inner)))
        else:
            out.append(Found(pos, close + 2, written, m["analysis"], m["profile"], m["metric"],
                             m["per"] is not None))
        pos = text.find(OPEN, close + 2)
    return out


def _snippet(text: str) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= 40 else one_line[:39] + "…"


def _malformed(written: str, inner: str) -> str:
    """Why `{{inner}}` is no placeholder, and the fix."""
    shown = _snippet(written)
    head, colon, tail = inner.partition(":")
    if not colon:
        why = "has no ':' before the metric"
    elif "/" not in head:
        why = "names no profile: write the analysis, '/', the profile"
    elif not tail.strip():
        why = "names no metric after ':'"
    else:
        words = tail.split()
        if len(words) > 1 and words[1:] != ["per", "seed"]:
            why = f"ends in '{' '.join(words[1:])}': only 'per seed' may follow the metric"
        else:
            why = (f"names '{words[0]}', not a metric name (letters, digits and '_', dotted "
                   "for nested: k5.loss_trained)")
    return f"placeholder '{shown}' {why}; write {FORM}"


def prose_fields(rec: Any) -> list[tuple[tuple, str]]:
    """Each prose field of a record model that holds text, as `(field location, text)`: where a
    placeholder may stand (a source's quote, a title or a discrepancy's sides never hold one)."""
    out: list[tuple[tuple, str]] = []
    for name in ("summary", "body", "question", "context", "decision", "consequences"):
        text = getattr(rec, name, None)
        if isinstance(text, str):
            out.append(((name,), text))
    for i, c in enumerate(getattr(rec, "claims", None) or ()):
        out.append((("claims", i, "statement"), c.statement))
        for j, e in enumerate(c.check.expect if c.check is not None else ()):
            if e.note:
                out.append((("claims", i, "check", "expect", j, "note"), e.note))
    for name in ("discrepancies", "links", "bibliography"):
        for i, item in enumerate(getattr(rec, name, None) or ()):
            if item.note:
                out.append(((name, i, "note"), item.note))
    return out


def cited_in(rec: Any, root: Any, text: str) -> tuple[tuple, list[tuple]]:
    """The placeholders of a valid record and the problems of those that are malformed.

    `root`: its file's YAML node tree, `text`: the file's text it was composed from (so each
    placeholder is located at its own line and column, inside a long note too). Returns
    `(cites, problems)`: cites as plain data, `(analysis, profile, metric, per_seed, written,
    field location, line, col)` each; problems as `(line, col, field location, message)`.
    """
    cites: list[tuple] = []
    problems: list[tuple] = []
    for loc, value in prose_fields(rec):
        found = scan_placeholders(value)
        if not found:
            continue
        node = _node(root, loc)
        for k, f in enumerate(found):
            line, col = _position(node, text, k)
            if f.problem is not None:
                problems.append((line, col, loc, f.problem))
            else:
                cites.append((f.analysis, f.profile, f.metric, f.per_seed, f.text, loc, line, col))
    return tuple(cites), problems


def _node(root: Any, loc: tuple) -> Any:
    """The YAML node at `loc`, or None."""
    node = root
    for part in loc:
        if node is None:
            return None
        if isinstance(part, int):
            items = node.value if node.id == "sequence" else []
            node = items[part] if 0 <= part < len(items) else None
        elif node.id == "mapping":
            node = next((v for k, v in node.value if k.value == part), None)
        else:
            return None
    return node


def _position(node: Any, text: str, k: int) -> tuple[int, int]:
    """Line and column (from 1) of the `k`-th `{{` written in a scalar node; the node's own
    place when the written text does not show it (or there is no node)."""
    if node is None:
        return 1, 1
    start, end = node.start_mark, node.end_mark
    at = start.index - 2
    for _ in range(k + 1):
        at = text.find(OPEN, at + 2, end.index)
        if at < 0:
            return start.line + 1, start.column + 1
    before = text[start.index:at]
    breaks = list(_BREAK.finditer(before))
    if not breaks:
        return start.line + 1, start.column + 1 + len(before)
    return start.line + 1 + len(breaks), len(before) - breaks[-1].end() + 1


def check_cited(col: Any) -> None:
    """Every placeholder of the collection names a registered analysis: an error at the
    placeholder otherwise (`col`: a `litrec.records.checks.Collection`). A note, not an
    error, where there is no analysis folder (a repository of records only)."""
    names = sorted(col.registry_names)
    for rid in sorted(col.records):
        for analysis, _profile, _metric, _per, written, loc, line, col_no in col.records[rid].cites:
            if analysis in col.registry_names or analysis in col.registry_broken \
                    or col.registry_unreadable:
                continue  # registered, or the registry's own problem is reported there
            severity: Severity = "error"
            if not col.analysis_dir.exists():
                severity = "info"
                msg = (f"placeholder '{written}' is not checked: there is no "
                       f"{col.display(col.analysis_dir)}/ folder; validate where the analyses are, "
                       "or pass --analysis DIR")
            elif not col.registry_exists:
                msg = (f"placeholder '{written}' cannot be resolved: no registry at "
                       f"{col.display(col.registry_path)}; create it or pass --analysis DIR")
            else:
                close = difflib.get_close_matches(analysis, names, n=1)
                hint = f" Did you mean '{close[0]}'?" if close else ""
                msg = (f"placeholder '{written}' names no registered analysis '{analysis}'.{hint} "
                       f"Name an analysis of {col.display(col.registry_path)} (known: "
                       f"{', '.join(names) or 'none'})")
            col.diagnostics.append(Diagnostic(
                col.display(col.paths[rid]), line, col_no, format_field(loc), msg,
                "placeholder-analysis" if severity == "error" else "unchecked-placeholder",
                severity, record=rid))
