"""Figures made safe to publish: an SVG is a document that can run script, so every one
the site copies from `results/` is parsed and rewritten without what could run.

Removed: `<script>`, `<foreignObject>` (it embeds HTML), `<iframe>`/`<embed>`/`<object>`,
every `on...=` event attribute, links and animations whose target is `javascript:`
(or any `data:` URL other than an embedded raster image), and any `<set>`/`<animate>`
that would write an event attribute or a link. A document type with an internal
subset or entities is refused outright (entity expansion is an old way to blow
up a parser), as is anything that is not well-formed XML. A matplotlib figure
keeps every shape, style and embedded image.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
_PREFIXES = {"": SVG_NS, "xlink": XLINK_NS, "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
             "dc": "http://purl.org/dc/elements/1.1/", "cc": "http://creativecommons.org/ns#"}
_DROP = {"script", "foreignobject", "iframe", "embed", "object", "handler", "listener"}
_ANIMATE = {"set", "animate", "animatetransform", "animatemotion", "animatecolor"}
_LINK_ATTRS = {"href", "src", "action", "formaction", "from", "to", "values", "by"}
_SAFE_DATA = re.compile(r"^data:image/(?:png|jpe?g|gif|webp)[;,]", re.I)
_DOCTYPE = re.compile(rb"<!DOCTYPE\b[^>\[]*>", re.I)


class UnsafeFigure(Exception):
    """A figure that cannot be made safe (not XML, or a document type with entities)."""


def _local(name: str) -> str:
    return name.rpartition("}")[2].lower()


def _bad_url(value: str) -> bool:
    text = re.sub(r"[\s\x00-\x1f]+", "", value).lower()
    if text.startswith(("javascript:", "vbscript:")):
        return True
    return text.startswith("data:") and not _SAFE_DATA.match(text)


def _clean(el: ET.Element) -> None:
    for child in list(el):
        name = _local(child.tag) if isinstance(child.tag, str) else ""
        target = (child.get("attributeName") or "").lower()
        if name in _DROP or (name in _ANIMATE and (target.startswith("on") or "href" in target)):
            el.remove(child)
            continue
        _clean(child)
    for attr in list(el.attrib):
        name = _local(attr)
        if name.startswith("on") or (name in _LINK_ATTRS and _bad_url(el.attrib[attr])):
            del el.attrib[attr]


def sanitise_svg(raw: bytes) -> bytes:
    """The figure without anything that could run; UnsafeFigure when it cannot be parsed safely."""
    if b"<!ENTITY" in raw.upper() or re.search(rb"<!DOCTYPE\b[^>]*\[", raw, re.I):
        raise UnsafeFigure("declares entities or an internal document type; litrec refuses it")
    body = _DOCTYPE.sub(b"", raw, count=1)  # an external DOCTYPE (matplotlib's) is dropped
    try:
        root = ET.fromstring(body)
    except ET.ParseError as exc:
        raise UnsafeFigure(f"is not well-formed XML ({exc})") from None
    if _local(root.tag) != "svg":
        raise UnsafeFigure(f"is not an SVG document (its root is <{_local(root.tag)[:40]}>)")
    _clean(root)
    for prefix, uri in _PREFIXES.items():
        ET.register_namespace(prefix, uri)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="utf-8",
                                                                      xml_declaration=False)
