"""Record text made safe for a Markdown page.

Record text reaches a page through these functions (inside the stored HTML of
`litrec.site.stored_html`, through `stored_html.esc`, HTML escaping; in a Mermaid drawing,
through `litrec.util.mermaid.label`, every unusual character an entity code):

- `inline(s)`: plain text (titles, link notes, authors) in a line or a table
  cell; every character Markdown or HTML would act on becomes an entity, so
  it shows exactly as written.
- `prose(s)`: Markdown prose (summary, body, statements). Markdown is kept,
  but `<`, `>` and `&` are escaped, so raw HTML shows as text; `{` and `}` are
  escaped too, so `attr_list` cannot add attributes (`onclick`) from a record.
  Code spans and fenced blocks are rendered here as `<code>`/`<pre>` with
  their content escaped, so they still show `<` as `<`. Record ids and claim
  refs (`ARXIV-2212.07677#P1`) become links. Maths is kept for the site's
  KaTeX: `$...$` in a line is left to `pymdownx.arithmatex` (escaped
  characters reach KaTeX as the characters), and a `$$` block (from a line
  starting `$$` to one ending `$$`) is written here as arithmatex would,
  `<div class="arithmatex">\\[...\\]</div>`, its content escaped.

Link targets in prose are further checked by `litrec.site.mdext` (no
`javascript:` URLs), which the site's Markdown loads.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from litrec.util.safetext import clean

_INLINE = {c: f"&#{ord(c)};" for c in "\\`*_{}[]|!~^=#$:"}
_INLINE.update({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_INLINE_RE = re.compile("[" + re.escape("".join(_INLINE)) + "]")
_PROSE = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "{": "&#123;", "}": "&#125;"}
_PROSE_RE = re.compile("[&<>{}]")

# a candidate record id, optionally with a claim: checked against the project before linking
ID_CANDIDATE = re.compile(
    r"(?<![\w/.#-])("
    r"(?:ARXIV-\d{4}\.\d{4,5}|DOI-10\.\d{4,9}_[-._;()A-Za-z0-9]+|REF-[a-z0-9]+(?:-[a-z0-9]+)*"
    r"|NOTE-\d+|THEORY-\d+|ADR-\d+"
    r"|ANTH-(?:LIT|THEORY|NOTE|WORK)-\d+|[a-z0-9]+(?:-[a-z0-9]+)+)"
    r"(?:#[A-Z][A-Za-z]*\d+[a-z]?)?)"
)
_MD_LINK = re.compile(r"!?\[[^\]\n]*\]\([^)\n]*\)|\[[^\]\n]*\]\[[^\]\n]*\]|^ {0,3}\[[^\]\n]+\]:.*$", re.M)
_CODE_SPAN = re.compile(r"(?<!\\)(`+)((?:(?!\n[ \t]*\n).)+?)(?<!`)\1(?!`)", re.S)
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_MATH_OPEN = re.compile(r"^ {0,3}\$\$")
_QUOTE_MARKS = re.compile(r"^(?:[ \t]{0,3}>)+", re.M)
_HEADING = re.compile(r"^(#{1,6})(?=[ \t]|$)")

Resolve = Callable[[str], "str | None"]


def inline(s: Any) -> str:
    """Plain text for a Markdown line or table cell: shown exactly as written."""
    text = " ".join(clean(s).split("\n"))
    return _INLINE_RE.sub(lambda m: _INLINE[m.group(0)], text)


def code(s: Any) -> str:
    """Text for inside a `<code>` element that the page generates."""
    return "<code>" + inline(s) + "</code>"


def prose(s: Any, resolve: Resolve | None = None, min_heading: int = 2) -> str:
    """Markdown prose from a record, with raw HTML escaped and ids linked.

    `resolve(ref)` gives the URL of a record id or claim ref (None: not a
    record). Headings are shifted so the highest one is at `min_heading`.
    """
    lines = clean(s).split("\n")
    out: list[str] = []
    para: list[str] = []
    shift = _heading_shift(lines, min_heading)
    i = 0
    while i < len(lines):
        m = _FENCE_OPEN.match(lines[i])
        if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            fence = m.group(1)
            close = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
            j = i + 1
            while j < len(lines) and not close.match(lines[j]):
                j += 1
            out.append(_text(para, resolve, shift))
            para = []
            body = "\n".join(lines[i + 1:j])
            out.append("\n<pre class=\"lr-code\"><code>" + _html(body) + "</code></pre>\n")
            i = j + 1
            continue
        if _MATH_OPEN.match(lines[i]) and (not para or not para[-1].strip()):
            j = i
            while j < len(lines) and not (lines[j].rstrip().endswith("$$")
                                          and (j > i or len(lines[j].strip()) > 3)):
                j += 1
            if j < len(lines):
                out.append(_text(para, resolve, shift))
                para = []
                body = "\n".join(lines[i:j + 1]).strip()[2:-2]
                out.append("\n<div class=\"arithmatex\">\\[" + _html(body) + "\\]</div>\n")
                i = j + 1
                continue
        para.append(lines[i])
        i += 1
    out.append(_text(para, resolve, shift))
    return "\n".join(p for p in out if p).strip("\n") + "\n"


def _heading_shift(lines: list[str], min_heading: int) -> int:
    levels = [len(m.group(1)) for line in lines if (m := _HEADING.match(line))]
    return max(0, min_heading - min(levels)) if levels else 0


def _html(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _text(lines: list[str], resolve: Resolve | None, shift: int) -> str:
    """Text outside fences: code spans rendered here, the rest escaped and linked."""
    if not lines:
        return ""
    if shift:
        lines = [("#" * shift + line) if _HEADING.match(line) else line for line in lines]
    text = "\n".join(lines)
    out, pos = [], 0
    for m in _CODE_SPAN.finditer(text):
        out.append(_plain(text[pos:m.start()], resolve))
        content = m.group(2)
        if content.startswith(" ") and content.endswith(" ") and content.strip():
            content = content[1:-1]
        url = resolve(content) if resolve and ID_CANDIDATE.fullmatch(content) else None
        out.append(f"[{code(content)}]({url})" if url else code(content))
        pos = m.end()
    out.append(_plain(text[pos:], resolve))
    return "".join(out)


def _plain(text: str, resolve: Resolve | None) -> str:
    """Escape HTML and braces; keep blockquote markers; link ids outside Markdown links."""
    out, pos = [], 0
    for m in _MD_LINK.finditer(text):
        out.append(_linked(text[pos:m.start()], resolve))
        out.append(_escape_prose(m.group(0)))
        pos = m.end()
    out.append(_linked(text[pos:], resolve))
    return "".join(out)


def _escape_prose(text: str) -> str:
    out, pos = [], 0
    for m in _QUOTE_MARKS.finditer(text):
        out.append(_PROSE_RE.sub(lambda c: _PROSE[c.group(0)], text[pos:m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(_PROSE_RE.sub(lambda c: _PROSE[c.group(0)], text[pos:]))
    return "".join(out)


def _linked(text: str, resolve: Resolve | None) -> str:
    if resolve is None:
        return _escape_prose(text)
    out, pos = [], 0
    for m in ID_CANDIDATE.finditer(text):
        ref = m.group(1)
        url = resolve(ref)
        while url is None and ref and ref[-1] in ".;)":  # a DOI id swallowed trailing punctuation
            ref = ref[:-1]
            url = resolve(ref)
        if url is None:
            continue
        out.append(_escape_prose(text[pos:m.start()]))
        out.append(f"[{inline(ref)}]({url})")
        pos = m.start() + len(ref)
    out.append(_escape_prose(text[pos:]))
    return "".join(out)


# ------------------------------------------------------------------ numbers


def flatten(metrics: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """Nested metrics as (dotted name, value) rows, in stored order."""
    if not isinstance(metrics, dict):
        return [(prefix, metrics)] if prefix else []
    rows: list[tuple[str, Any]] = []
    for k, v in metrics.items():
        name = f"{prefix}.{k}" if prefix else str(k)
        rows.extend(flatten(v, name) if isinstance(v, dict) else [(name, v)])
    return rows
