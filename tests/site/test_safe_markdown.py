"""Record text on the page: raw HTML escaped, Markdown kept, ids linked, labels safe."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from litrec.site.mdext import safe_url
from litrec.site.safe_markdown import ID_CANDIDATE, inline, prose


def _site_extensions() -> tuple[list[str], dict]:
    """The Markdown extensions (and their settings) of the site's own mkdocs.yml."""
    from mkdocs.utils import yaml_load

    with open(Path(__file__).resolve().parents[2] / "mkdocs.yml", "rb") as fh:
        items = yaml_load(fh)["markdown_extensions"]
    names, configs = [], {}
    for item in items:
        name, conf = (item, None) if isinstance(item, str) else next(iter(item.items()))
        names.append(name)
        if conf:
            configs[name] = conf
    return names, configs


SITE_EXTENSIONS, SITE_CONFIGS = _site_extensions()
EXTENSIONS = [e for e in SITE_EXTENSIONS if e != "litrec.site.mdext"]
DANGEROUS_TAGS = {"script", "iframe", "object", "embed", "style", "svg", "math", "form", "input",
                  "textarea", "base", "meta", "link", "frame", "frameset", "template", "button"}


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag


def render(md_text: str, safe_links: bool = True) -> list[tuple[str, dict]]:
    exts = EXTENSIONS + (["litrec.site.mdext"] if safe_links else [])
    parser = _Tags()
    parser.feed(markdown.Markdown(extensions=exts, extension_configs=SITE_CONFIGS).convert(md_text))
    return parser.tags


def resolve(ref: str) -> str | None:
    known = {"ARXIV-2212.07677": "ARXIV-2212.07677.md", "ARXIV-2212.07677#P1": "ARXIV-2212.07677.md#p1",
             "DOI-10.1000_a(b)c": "DOI-10.1000_a%28b%29c.md", "what-survives-translation": "w.md"}
    return known.get(ref)


def test_script_in_prose_is_shown_as_text():
    out = markdown.markdown(prose("Before <script>alert(1)</script> after & more"), extensions=EXTENSIONS)
    assert "<script" not in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "&amp; more" in out


def test_block_level_html_is_escaped():
    tags = render(prose('<div onmouseover="alert(1)">x</div>\n\n<iframe src="x"></iframe>'))
    assert not [t for t, _ in tags if t in ("div", "iframe")]


def test_attr_list_cannot_add_attributes():
    tags = render(prose("## Heading { onclick=alert(1) }\n\nText *em*{ onmouseover=alert(2) }"))
    assert all(not k.startswith("on") for _, attrs in tags for k in attrs)


def test_javascript_links_lose_their_target():
    tags = render(prose("[a](javascript:alert(1)) [b](JaVa\tScRiPt:x) [c](&#106;avascript:y) "
                        "![i](javascript:z) [ok](https://example.org)"))
    hrefs = [a.get("href") for t, a in tags if t == "a"] + [a.get("src") for t, a in tags if t == "img"]
    assert hrefs == ["https://example.org"]


def test_code_keeps_its_characters():
    out = markdown.markdown(prose("Use `a<b && c>d` here.\n\n```\n<b>x</b> & y\n```\n"),
                             extensions=EXTENSIONS)
    assert "<code>a&lt;b &amp;&amp; c&gt;d</code>" in out
    assert "<pre class=\"lr-code\"><code>&lt;b&gt;x&lt;/b&gt; &amp; y</code></pre>" in out


def test_markdown_still_works():
    out = markdown.markdown(prose("**bold**, *em*, a [link](https://x.org)\n\n> quoted\n\n- item"),
                             extensions=EXTENSIONS)
    for piece in ("<strong>bold</strong>", "<em>em</em>", '<a href="https://x.org">link</a>',
                  "<blockquote>", "<li>item</li>"):
        assert piece in out


def _maths(md_text: str) -> list[str]:
    """The TeX each arithmatex element hands to KaTeX (its text, as the browser reads it)."""
    out = markdown.Markdown(extensions=EXTENSIONS + ["litrec.site.mdext"],
                            extension_configs=SITE_CONFIGS).convert(md_text)
    return [html.unescape(m) for m in re.findall(r'class="arithmatex">(.*?)</(?:span|div)>', out, re.S)]


def test_maths_reaches_katex_as_written():
    text = ("Loss $L(W) = \\frac{1}{2N} \\sum_i \\|W x_i - y_i\\|^2$ when $a < b$ & *em*; "
            "a price of $5 and $10 stays text, \\$x\\$ too.\n\n"
            "$$\n\\Delta W = -\\frac{\\eta}{N} \\sum_{i} (W_0 x_i - y_i) x_i^\\top \\quad a<b & c\n$$\n\n"
            "After <script>alert(1)</script>.")
    assert _maths(prose(text)) == [
        "\\(L(W) = \\frac{1}{2N} \\sum_i \\|W x_i - y_i\\|^2\\)", "\\(a < b\\)",
        "\\[\n\\Delta W = -\\frac{\\eta}{N} \\sum_{i} (W_0 x_i - y_i) x_i^\\top \\quad a<b & c\n\\]"]
    tags = render(prose(text))
    assert "script" not in {t for t, _ in tags}
    out = markdown.markdown(prose(text), extensions=EXTENSIONS, extension_configs=SITE_CONFIGS)
    assert "&lt;script&gt;" in out and "$5 and $10" in out and "$x$" in out


def test_maths_cannot_add_attributes_or_html():
    text = "$x${ onclick=alert(1) } $$\n</div><script>alert(1)</script>{: onclick=y }\n$$"
    for tag, attrs in render(prose("a\n\n" + text)) + render(prose(text)):
        assert tag != "script" and not any(k.startswith("on") for k in attrs)


def test_ids_and_claim_refs_become_links():
    text = prose("See ARXIV-2212.07677#P1, ARXIV-2212.07677. And DOI-10.1000_a(b)c) and "
                 "what-survives-translation, not NOTE-404 nor in-context. `ARXIV-2212.07677#P1`", resolve)
    assert "[ARXIV-2212.07677&#35;P1](ARXIV-2212.07677.md#p1)" in text
    assert "[ARXIV-2212.07677](ARXIV-2212.07677.md)." in text
    assert "[DOI-10.1000&#95;a(b)c](DOI-10.1000_a%28b%29c.md))" in text
    assert "[what-survives-translation](w.md)" in text
    assert "NOTE-404" in text and "[NOTE-404]" not in text
    assert "[<code>ARXIV-2212.07677&#35;P1</code>](ARXIV-2212.07677.md#p1)" in text


def test_ids_inside_markdown_links_and_urls_are_left_alone():
    text = prose("[about ARXIV-2212.07677](https://arxiv.org/abs/2212.07677) "
                 "https://example.org/ARXIV-2212.07677", resolve)
    assert text.count("](") == 1


def test_headings_are_shifted_below_the_page_sections():
    assert prose("# Top\n\n## Next", min_heading=3).startswith("### Top\n\n#### Next")


def test_inline_escapes_markdown_and_html():
    s = inline("*a* _b_ [c](d) <e> & `f` | g # h {i}\nj")
    out = markdown.markdown(s, extensions=EXTENSIONS)
    assert out.startswith("<p>") and out.endswith("</p>") and "<" not in out[3:-4]
    assert html.unescape(out[3:-4]) == "*a* _b_ [c](d) <e> & `f` | g # h {i} j"


def test_id_candidates_match_each_kind():
    for ident in ("ARXIV-2212.07677", "DOI-10.1000_xyz123", "NOTE-621", "THEORY-169", "ADR-013",
                  "ANTH-LIT-533", "what-survives-translation", "ARXIV-2212.07677#P1"):
        assert ID_CANDIDATE.fullmatch(ident), ident


def test_record_text_cannot_open_a_stored_html_block():
    text = "<!-- litrec:html -->\n<script>alert(1)</script>\n<!-- /litrec:html -->"
    assert all(tag != "script" for tag, _ in render(prose(text)))
    assert "<!-- litrec:html -->" not in prose(text)


def test_stored_html_blocks_pass_through_unparsed():
    from litrec.site.stored_html import block, table

    md_text = "# T\n" + block(table(["a"], [["<b>*not em*</b>"]])) + "\nAfter *em*.\n"
    out = markdown.Markdown(extensions=EXTENSIONS + ["litrec.site.mdext"]).convert(md_text)
    assert "<td><b>*not em*</b></td>" in out and "<em>em</em>" in out


def test_safe_url():
    assert safe_url("../records/X.md#p1") and safe_url("https://a.org") and safe_url("mailto:a@b")
    assert not safe_url("javascript:x") and not safe_url(" java\nscript:x") and not safe_url("data:x")
    assert not safe_url("vbscript:x") and not safe_url("&#106;avascript:x")


PIECES = ["<", ">", "&", "{", "}", "`", "```", "~~~", "\n", "\n\n", " ", "    ", "script", "<script>",
          "</script>", "<img src=x onerror=alert(1)>", "onclick=alert(1)", "javascript:alert(1)",
          "[", "]", "(", ")", "!", "#", "## ", "*", "_", "\\", '"', "'", "=", "a", ":", "<div>",
          "</div>", "{: #x onclick=y }", "{ onmouseover=z }", "<!--", "-->", "<![CDATA[", "&#60;",
          "&lt;", "\x02", "\x03", "ARXIV-2212.07677#P1", "<a href='javascript:x'>", "> ",
          "!!! note", "<details>", "markdown=\"1\"", "<svg/onload=alert(1)>", "|", "---",
          "<!-- litrec:html -->", "<!-- /litrec:html -->", "\n<!-- litrec:html -->\n", "$", "$$",
          "\n$$\n", "\\frac{a}{b}", "\\(", "\\["]


@pytest.mark.slow  # fuzzing: 300 examples
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_no_record_text_becomes_live_html(pieces):
    text = "".join(pieces)
    for md_text in (prose(text, resolve), "# " + inline(text), "| a |\n|---|\n| " + inline(text) + " |"):
        for tag, attrs in render(md_text):
            assert tag not in DANGEROUS_TAGS, (text, md_text)
            for name, value in attrs.items():
                assert not name.startswith("on"), (text, md_text)
                if name in ("href", "src"):
                    assert safe_url(value or ""), (text, md_text)
