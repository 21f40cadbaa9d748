"""Mermaid flowcharts: the one writer of their text, for the site's drawings
(`litrec.site.graph`) and `litrec graph --format mermaid` (`litrec.export`).

A caller says what to draw (nodes, arrows, clicks, classes, styles) by its own
keys (a record id, a kind); `flowchart` names the nodes `n0`, `n1`, ... in the
order given, so nothing a record says becomes a Mermaid id, and writes the lines
in one order: the `init` directive, `graph LR`, the nodes, the arrows, the
clicks, each class (its `classDef` and its `class` line), the styles. Every
label and tooltip goes through `label`: shortened to the chart's limit
(`litrec.util.formatting.shorten`) and every character Mermaid could read as
syntax written as a `#NN;` entity code. The same node or arrow is therefore the
same line wherever it is drawn.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from litrec.util.formatting import shorten
from litrec.util.safetext import clean

BOX = '["{}"]'  # a rectangle: Mermaid's node syntax, `{}` for the label
LABEL_LIMIT = 300  # Mermaid wraps a label; this only bounds a runaway one

_UNSAFE = re.compile(r"[^A-Za-z0-9 .,:_/()?!+'-]")


def label(s: Any, limit: int = LABEL_LIMIT) -> str:
    """Text for inside a label's quotes: on one line, `shorten`ed to `limit`, and anything
    unusual (quotes, brackets, `|`, `<`, `#`, `…`) a `#NN;` entity code."""
    return _UNSAFE.sub(lambda m: f"#{ord(m.group())};", shorten(clean(s), limit))


def record_label(rid: str, title: str | None) -> str:
    """A record's node text: `ID: title`, or the id alone when it has no title."""
    return f"{rid}: {title}" if title else rid


class Node(NamedTuple):
    """A box: its key, its text and its shape."""

    key: str            # what arrows, clicks, classes and styles call it
    text: str           # plain text; escaped by `label`
    shape: str = BOX    # Mermaid's node syntax with `{}` for the label


class Arrow(NamedTuple):
    """A labelled arrow from one node (by key) to another."""

    source: str         # node keys
    target: str
    text: str


class Click(NamedTuple):
    """A node's link: where clicking it leads, and what hovering it says."""

    node: str
    href: str           # a URL the caller made (relative URLs are kept by Mermaid)
    tooltip: str | None = None


class Class(NamedTuple):
    """A Mermaid class: its name, its style and the nodes (by key) it styles."""

    name: str           # a Mermaid class name (a kind, `tone0`)
    style: str          # `fill:#fff,stroke:#000`
    members: Sequence[str]  # node keys


def flowchart(nodes: Sequence[Node], arrows: Iterable[Arrow] = (), *, clicks: Iterable[Click] = (),
              classes: Iterable[Class] = (), styles: Iterable[tuple[str, str]] = (),
              init: str | None = None, limit: int = LABEL_LIMIT) -> str:
    """A left-to-right Mermaid flowchart, one line per item in the order above, ending in a newline;
    `styles`: (node key, style) pairs; `init`: a `%%{init: ...}%%` line put first; `limit`: the
    length of every label and tooltip."""
    ids = {node.key: f"n{i}" for i, node in enumerate(nodes)}
    lines = [init] if init else []
    lines.append("graph LR")
    lines += [f"  {ids[n.key]}" + n.shape.format(label(n.text, limit)) for n in nodes]
    lines += [f'  {ids[a.source]} -->|"{label(a.text, limit)}"| {ids[a.target]}' for a in arrows]
    for c in clicks:
        tip = f' "{label(c.tooltip, limit)}"' if c.tooltip is not None else ""
        href = c.href.replace('"', "%22")  # a quote would end the URL
        lines.append(f'  click {ids[c.node]} href "{href}"{tip}')
    for cls in classes:
        lines.append(f"  classDef {cls.name} {cls.style}")
        lines.append(f"  class {','.join(ids[k] for k in cls.members)} {cls.name}")
    lines += [f"  style {ids[key]} {style}" for key, style in styles]
    return "\n".join(lines) + "\n"
