"""The identifiers a BibTeX entry carries: its DOI and its arXiv number, wherever an exporter puts them."""

from __future__ import annotations

import re

ARXIV_NUMBER = re.compile(r"(?<![\d.])(\d{4}\.\d{4,5})(v\d+)?(?!\d)", re.ASCII)
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)
ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(\d{4}\.\d{4,5})(v\d+)?$", re.I)


def doi_of(raw: dict[str, str]) -> str | None:
    """The DOI field (any doi.org/doi: prefix dropped), or a doi.org URL."""
    for source, need_prefix in ((raw.get("doi", ""), False), (raw.get("url", ""), True)):
        text = source.strip()
        bare = _DOI_PREFIX.sub("", text)
        if bare and (not need_prefix or bare != text):
            return bare
    return None


def arxiv_number(raw: dict[str, str], doi: str | None) -> str | None:
    """The arXiv number an entry gives, in any of the fields exporters put it in, or None."""
    prefix = (raw.get("archiveprefix") or raw.get("eprinttype") or "").strip().lower()
    candidates = []
    if raw.get("eprint") and prefix in ("", "arxiv"):
        candidates.append(raw["eprint"])
    candidates += [raw.get("arxiv", ""), raw.get("arxivid", "")]
    if doi and (found := ARXIV_DOI.match(doi)):
        candidates.append(found.group(1) + (found.group(2) or ""))
    url = raw.get("url", "")
    if re.search(r"arxiv\.org/(abs|pdf)/", url, re.I):
        candidates.append(url.rsplit("/", 1)[-1].removesuffix(".pdf"))
    journal = raw.get("journal", "")
    for name in ("journal", "volume", "note", "howpublished"):  # DBLP: journal CoRR, volume abs/...
        value = raw.get(name, "")
        if re.search(r"arxiv|corr", journal if name == "volume" else value, re.I):
            candidates.append(value)
    for cand in candidates:
        found = ARXIV_NUMBER.search(cand.strip())
        if found:
            return found.group(1) + (found.group(2) or "")
    return None
