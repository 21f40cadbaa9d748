"""A Markdown extension that drops link and image targets able to run script.

Record prose is Markdown, so `[x](javascript:alert(1))` would otherwise become
a live link. Loaded by the site's mkdocs.yml (`- litrec.site.mdsafe`): every
link or image whose target's scheme is not http(s), mailto or a relative path
becomes plain text, and any `on...` attribute is removed, whichever page it is on.
"""

from __future__ import annotations

import html
import re

from markdown import Extension
from markdown.treeprocessors import Treeprocessor

_SAFE_SCHEME = re.compile(r"^(?:https?|mailto):", re.I)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_INVISIBLE = re.compile(r"[\x00-\x20\x7f]+")


def safe_url(url: str) -> bool:
    squeezed = _INVISIBLE.sub("", html.unescape(html.unescape(url)))  # browsers ignore these inside a scheme: "java\nscript:"
    if _SAFE_SCHEME.match(squeezed):
        return True
    return not _SCHEME.match(squeezed) and not squeezed.startswith("//")


class _Strip(Treeprocessor):
    def run(self, root):
        for el in root.iter():
            for attr in list(el.attrib):
                if attr.lower().startswith("on"):
                    del el.attrib[attr]
            for attr in ("href", "src"):
                if attr in el.attrib and not safe_url(el.attrib[attr]):
                    alt = el.attrib.get("alt", "") if el.tag == "img" else ""
                    el.attrib.clear()
                    el.tag = "span"  # the text stays, the link goes
                    if alt:
                        el.text = alt
        return None


class SafeLinks(Extension):
    def extendMarkdown(self, md):  # noqa: N802 (Markdown's API)
        md.treeprocessors.register(_Strip(md), "litrec_safe_links", 1)  # before MkDocs resolves links (0)


def makeExtension(**kwargs):  # noqa: N802 (Markdown's API)
    return SafeLinks(**kwargs)
