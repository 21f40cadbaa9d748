"""A claim's history on its page: the ledger's judgements, oldest first, each saying only what changed."""

from __future__ import annotations

from litrec.results.ledger import read_history
from litrec.site.claim_pieces import badge
from litrec.site.pagedata import SiteData
from litrec.site.stored_html import code, esc, p, ul


def history(data: SiteData, ref: str, analysis: str) -> str:
    """The claim's ledger of judgements at this site's profile, oldest first (`litrec.results.ledger`).

    The expectations of the first judgement are listed once; each entry then says only what
    changed: `2026-12-03 16:40 · commit 1a2b3c4d5e · not reproduced`, then `... · reproduced ·
    expectations: added cos > 0.97, removed cos > 0.99 · cos > 0.97: fails → holds`.
    """
    entries = read_history(data.results_dir, analysis, data.profile, ref)
    if not entries:
        return ""
    items, last = [], None
    for e in entries:
        changes = history_changes(last, e)
        commit = str(e.get("commit") or "")[:10]
        where = f"commit {code(commit)}" if commit else "no commit"
        if e.get("dirty"):
            where += " (records or code uncommitted)"
        text = " · ".join([esc(str(e.get("when") or "?").replace("T", " ")[:16]), where,
                           badge(str(e.get("verdict") or "unchecked"))] + changes)
        items.append(text)
        last = e
    first = _expectation_texts(entries[0])
    listed = (p("First judged under: " + ", ".join(code(t) for t in first) + ". Each later "
                "judgement says only what changed.") if first else "")
    return (p(f"<strong>History</strong> ({len(entries)} judgement{'s' * (len(entries) != 1)} "
              f"at {code(data.profile)}, oldest first, from the ledger "
              f"{code(f'results/{analysis}/{data.profile}.history.jsonl')}):") + listed + ul(items)
            + events_list(data.status_at(data.profile, ref)))


def events_list(st) -> str:
    """The events of the claim's protocol (`litrec.verdicts.events`), each in its plain line:
    a criterion loosened, tightened, moved or removed after a look, the settings changed after
    a judged result, seeds added after an inconclusive or failing judgement."""
    events = getattr(st, "events", None) or []
    if not events:
        return ""
    return (p(f"<strong>Events of its protocol</strong> ({len(events)}, from git and the ledgers "
              "of every scale; registration is read from them too):") + ul([esc(e["text"]) for e in events]))


def _expectation_texts(entry: dict) -> list[str]:
    exp = entry.get("expectations")
    texts = exp.get("text") if isinstance(exp, dict) else None
    return [str(t) for t in texts] if isinstance(texts, list) else []


def _decisions(entry: dict) -> dict[str, str]:
    found = entry.get("numbers")
    numbers = found if isinstance(found, list) else []
    return {str(n.get("expectation")): str(n.get("decision")) for n in numbers
            if isinstance(n, dict) and n.get("expectation") is not None and n.get("decision")}


def history_changes(before: dict | None, after: dict) -> list[str]:
    """What a ledger entry changed against the one before it, as HTML pieces: the expectations
    added and removed, and each kept expectation whose decision moved (`holds → fails`)."""
    if before is None:
        return []
    old, new = _expectation_texts(before), _expectation_texts(after)
    out = []
    added = [t for t in new if t not in old]
    removed = [t for t in old if t not in new]
    if added or removed:
        said = ([f"added {', '.join(code(t) for t in added)}"] if added else []) + (
            [f"removed {', '.join(code(t) for t in removed)}"] if removed else [])
        out.append("expectations: " + "; ".join(said))
    elif _hash(before) != _hash(after):
        out.append("notes or sources of its expectations edited (their criteria unchanged)")
    was, now = _decisions(before), _decisions(after)
    for t, d in now.items():
        if t in was and was[t] != d:
            out.append(f"{code(t)}: {esc(was[t])} → {esc(d)}")
    return out or ["same expectations and outcomes"]


def _hash(entry: dict):
    exp = entry.get("expectations")
    return exp.get("hash") if isinstance(exp, dict) else None
