"""A BibTeX entry for a literature record, for the copy button on its page."""

from __future__ import annotations

import re
import unicodedata

from litrec.site.text import clean

_CONFERENCE = re.compile(
    r"\b(conference|proceedings|workshop|symposium|icml|iclr|neurips|nips|aaai|ijcai|acl|emnlp"
    r"|naacl|cvpr|iccv|eccv|colt|aistats|uai|kdd|sigir|www)\b", re.I)
_VERBATIM = {"doi", "url", "eprint"}
_PARTICLES = {"von", "van", "der", "den", "de", "da", "del", "della", "di", "du", "le", "la", "ter"}


def cite_key(rec) -> str:
    """`vonoswald2022transformers`: first author's last name, year, first title word."""
    last = ""
    if rec.authors:
        words = clean(rec.authors[0]).split()
        tail = [words[-1]] if words else []
        for w in reversed(words[:-1]):
            if w.lower() in _PARTICLES:
                tail.insert(0, w)
            else:
                break
        last = "".join(tail)
    first_word = next((w for w in re.findall(r"[A-Za-z0-9]+", _ascii(rec.title or ""))
                       if len(w) > 3), "")
    key = _ascii(last).lower() + (str(rec.year) if rec.year else "") + first_word.lower()
    key = re.sub(r"[^a-z0-9]", "", key)
    return key or re.sub(r"[^A-Za-z0-9]", "", rec.id).lower()


def _ascii(s: str) -> str:
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()


def _value(s, verbatim: bool = False) -> str:
    """A field value safe inside braces: balanced, LaTeX specials escaped (not in URLs), one line."""
    text = " ".join(clean(s).split())
    if verbatim:
        return text.replace("{", "%7B").replace("}", "%7D")
    text = re.sub(r"(?<!\\)([&%#$_])", r"\\\1", text)
    return text.replace("{", "").replace("}", "").replace("–", "--").replace("—", "---")


def entry(rec) -> str:
    venue = rec.venue or ""
    if rec.arxiv and not venue:
        kind = "misc"
    elif _CONFERENCE.search(venue):
        kind = "inproceedings"
    else:
        kind = "article"
    fields: list[tuple[str, str]] = []
    if rec.title:
        fields.append(("title", rec.title))
    if rec.authors:
        fields.append(("author", " and ".join(clean(a) for a in rec.authors)))
    if rec.year:
        fields.append(("year", str(rec.year)))
    if venue:
        fields.append(("booktitle" if kind == "inproceedings" else "journal", venue))
    for name in ("volume", "pages", "publisher", "doi", "url"):
        if getattr(rec, name):
            fields.append((name, getattr(rec, name)))
    if rec.arxiv:
        fields += [("eprint", rec.arxiv), ("archiveprefix", "arXiv")]
    body = ",\n".join(f"  {name:<13} = {{{_value(v, name in _VERBATIM)}}}"
                     for name, v in fields)
    return f"@{kind}{{{cite_key(rec)},\n{body}\n}}"
