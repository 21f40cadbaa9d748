"""The site's Markdown extension (`- litrec.site.mdext` in mkdocs.yml).

- Stored HTML: the lines between `<!-- litrec:html -->` and `<!-- /litrec:html -->`
  (written by `litrec.site.stored_html`, every value escaped there) are stored as
  they are, without being parsed as Markdown or HTML: the structure of a
  thousand generated pages then costs MkDocs almost nothing.
- Safe links: record prose is Markdown, so `[x](javascript:alert(1))` would
  otherwise become a live link. Every link or image whose target's scheme is
  not http(s), mailto or a relative path becomes plain text, and any `on...`
  attribute is removed, on every page.
"""

from __future__ import annotations

import html
import re

from markdown import Extension
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from litrec.site.stored_html import BEGIN, END

_SAFE_SCHEME = re.compile(r"^(?:https?|mailto):", re.I)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_INVISIBLE = re.compile(r"[\x00-\x20\x7f]+")


def safe_url(url: str) -> bool:
    """The URL, or '#' when its scheme could run script."""
    squeezed = _INVISIBLE.sub("", html.unescape(html.unescape(url)))  # "java\nscript:", "&#106;"
    if _SAFE_SCHEME.match(squeezed):
        return True
    return not _SCHEME.match(squeezed) and not squeezed.startswith("//")


class _Stored(Preprocessor):
    """Replace each marked block with a placeholder for the HTML it holds."""

    def run(self, lines):
        if BEGIN not in lines:
            return lines
        out: list[str] = []
        i = 0
        while i < len(lines):
            if lines[i] == BEGIN:
                try:
                    j = lines.index(END, i + 1)
                except ValueError:  # unterminated: leave it to Markdown
                    out.extend(lines[i:])
                    break
                out += ["", self.md.htmlStash.store("\n".join(lines[i + 1:j])), ""]
                i = j + 1
            else:
                out.append(lines[i])
                i += 1
        return out


class _SafeLinks(Treeprocessor):
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


class LitrecExtension(Extension):
    """Markdown extension: stored HTML blocks kept as they are, unsafe link schemes removed."""

    def extendMarkdown(self, md):  # noqa: N802 (Markdown's API)
        # after whitespace normalisation (30), before fenced code (25) and raw HTML (20)
        """Register the extension's processors."""
        md.preprocessors.register(_Stored(md), "litrec_stored_html", 28)
        md.treeprocessors.register(_SafeLinks(md), "litrec_safe_links", 1)  # before MkDocs' links (0)


def makeExtension(**kwargs):  # noqa: N802 (Markdown's API)
    """The entry point Markdown calls for `litrec.site.mdext`."""
    return LitrecExtension(**kwargs)
