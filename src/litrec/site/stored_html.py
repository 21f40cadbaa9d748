"""Pre-rendered HTML for the structure of generated pages.

Python-Markdown is slow on what generated pages are made of (tables, link
lists, badges): it reads them as Markdown and then again as raw HTML. So the
structure of a page (tables, link lists, badges, provenance, graphs) is
written here as HTML, every value escaped by `esc`, and set between
`BEGIN`/`END` marker lines, which `litrec.site.mdext` stores as they are.
Headings (for the table of contents and anchors) and record prose stay
Markdown. Record text cannot produce a marker: prose has `<` escaped.

Links here are final: `SiteData.href` gives the URL the page is served
from, since MkDocs does not rewrite links inside stored HTML.
"""

from __future__ import annotations

import html as _html
import re
from collections.abc import Iterable
from typing import Any

from litrec.site.safe_markdown import ID_CANDIDATE
from litrec.util.safetext import clean

BEGIN, END = "<!-- litrec:html -->", "<!-- /litrec:html -->"


def esc(s: Any) -> str:
    """HTML-escape text (quotes too)."""
    return _html.escape(clean(s), quote=True)


def block(*parts: str) -> str:
    """Stored HTML, as a Markdown block of its own."""
    body = "".join(parts).strip("\n")
    return f"\n{BEGIN}\n{body}\n{END}\n" if body else ""


def a(href: str | None, text: str) -> str:
    """A link (`text` is HTML); text alone when there is nowhere to go."""
    return f'<a href="{esc(href)}">{text}</a>' if href else text


def code(s: Any) -> str:
    """Inline code, escaped."""
    return f"<code>{esc(s)}</code>"


def span(cls: str, text: str) -> str:
    """A span with a class."""
    return f'<span class="{cls}">{text}</span>'


def p(text: str, cls: str | None = None) -> str:
    """A paragraph, with an optional class."""
    return f'<p class="{cls}">{text}</p>\n' if cls else f"<p>{text}</p>\n"


def ul(items: Iterable[str]) -> str:
    """A list of already-built HTML items."""
    items = list(items)
    return "<ul>\n" + "".join(f"<li>{i}</li>\n" for i in items) + "</ul>\n" if items else ""


def table(head: list[str], rows: Iterable[list[str]], cls: str | None = None) -> str:
    """A table; Material styles and wraps tables without a class, so a class goes on a div.

    Cells are apart by a space, so the search index (a table's text without its tags)
    does not run them together."""
    out = ["<table>\n<thead><tr>", " ".join(f"<th>{h}</th>" for h in head), "</tr></thead>\n<tbody>\n"]
    for row in rows:
        out.append("<tr>" + " ".join(f"<td>{c}</td>" for c in row) + "</tr>\n")
    out.append("</tbody>\n</table>\n")
    text = "".join(out)
    return f'<div class="{cls}">\n{text}</div>\n' if cls else text


def details(summary: str, body: str, kind: str = "info") -> str:
    """A collapsed block, as pymdownx.details writes it (Material styles it)."""
    return f'<details class="{kind}">\n<summary>{summary}</summary>\n{body}</details>\n'


def admonition(title: str, body: str, kind: str = "note") -> str:
    """A Material admonition box."""
    return (f'<div class="admonition {kind}">\n<p class="admonition-title">{title}</p>\n'
            f"{body}</div>\n")


def pre(text: str, cls: str, searchable: bool = True) -> str:
    """Preformatted text; `searchable=False` keeps it out of the search index (graph sources)."""
    attr = "" if searchable else " data-search-exclude"
    return f'<pre class="{cls}"{attr}><code>{esc(text)}</code></pre>\n'


def linked(s: Any, resolve) -> str:
    """Plain text, escaped, with record ids and claim refs in it made links (`resolve(ref)`)."""
    text = clean(s)
    out, pos = [], 0
    for m in ID_CANDIDATE.finditer(text):
        ref = m.group(1)
        url = resolve(ref)
        while url is None and ref and ref[-1] in ".;)":
            ref = ref[:-1]
            url = resolve(ref)
        if url is None:
            continue
        out.append(esc(text[pos:m.start()]) + a(url, esc(ref)))
        pos = m.start() + len(ref)
    out.append(esc(text[pos:]))
    return "".join(out)


_SPAN = re.compile(r"(`+)(.+?)\1|\*\*(.+?)\*\*|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", re.S)


def inline_md(s: Any, resolve) -> str:
    """A short text written in Markdown (an expectation's note) as HTML: `code`, *emphasis*,
    **strong**; everything else escaped, record ids and claim refs linked (`resolve(ref)`)."""
    text = clean(s)
    out, pos = [], 0
    for m in _SPAN.finditer(text):
        out.append(linked(text[pos:m.start()], resolve))
        if m.group(1):
            out.append(code(m.group(2).strip() if m.group(2).strip() else m.group(2)))
        elif m.group(3) is not None:
            out.append(f"<strong>{linked(m.group(3), resolve)}</strong>")
        else:
            out.append(f"<em>{linked(m.group(4), resolve)}</em>")
        pos = m.end()
    out.append(linked(text[pos:], resolve))
    return "".join(out)


def words(s: Any) -> str:
    """Text, escaped, that breaks only between words: each word kept whole on its line
    (a metric name, `1e-06`), as a browser would otherwise break at `_` or `-`."""
    return " ".join(f'<span class="lr-w">{esc(w)}</span>' for w in clean(s).split(" ") if w)
