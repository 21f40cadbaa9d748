"""The identifiers a BibTeX entry carries (its DOI and its arXiv number, wherever an exporter
puts them), and the record id they give it (`entry_id`)."""

from __future__ import annotations

import re
import shlex
import unicodedata

from litrec.records.kinds import ID_RE
from litrec.util.errors import Unconvertible
from litrec.util.formatting import excerpt

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


def entry_id(raw: dict[str, str], key: str, given: bool = False
              ) -> tuple[str, str | None, str | None]:
    """(record id, arXiv number, DOI): the arXiv number wins, then the DOI, then the citation key.
    With an id `given` for the entry, a DOI that no id can hold is no reason to refuse it."""
    doi = doi_of(raw)
    arxiv = arxiv_number(raw, doi)
    if doi and (ARXIV_DOI.match(doi) or arxiv and not re.fullmatch(r"10\.\d{4,9}/\S+", doi)):
        doi = None  # arXiv's own DOI (the number says it), or a broken one beside an arXiv number
    number = ARXIV_NUMBER.fullmatch(arxiv) if arxiv else None  # always, as arxiv_number found it
    if number:
        return f"ARXIV-{number.group(1)}", arxiv, doi
    if doi is None:
        return _key_id(key, given), None, None
    if not re.fullmatch(r"10\.\d{4,9}/\S+", doi):
        raise Unconvertible(f"DOI '{excerpt(doi)}' is not of the form 10.NNNN/suffix")
    rid = "DOI-" + doi.replace("/", "_")
    if not ID_RE["literature"].match(rid) and not given:
        bad = sorted(set(re.sub(r"[-._;()A-Za-z0-9/]", "", doi)))
        raise Unconvertible(f"DOI '{excerpt(doi)}' has characters a record id cannot hold "
                            f"({' '.join(bad)}); give the entry an id: --id {_shown_key(key)}=REF-...")
    return rid, None, doi


def key_id(key: str) -> str | None:
    """`REF-bishop2006pattern`: the id a citation key gives (lower-case ASCII letters and digits,
    other runs as '-'), or None when it has no letter or digit."""
    slug = re.sub(r"[^a-z0-9]+", "-", unicodedata.normalize("NFKD", key).encode("ascii", "ignore")
                  .decode().lower()).strip("-")
    return f"REF-{slug}" if slug else None


def _key_id(key: str, given: bool) -> str:
    rid = key_id(key or "")
    if rid is None and not given:
        raise Unconvertible(f"no arXiv number or DOI, and the key '{excerpt(key or '')}' has no "
                            f"letter or digit to make an id from; pass --id {_shown_key(key)}=REF-name, "
                            "or add eprint = {YYMM.NNNNN} or doi = {10.NNNN/...}")
    return rid or ""


def _shown_key(key: str | None) -> str:
    return shlex.quote(key or "KEY")
