"""The events of a claim's protocol: what changed after something of it had been seen.

A claim's protocol is its criteria (what is judged, in which row) and the settings of the
analysis that computes them (its config, its seeds). Registration
(`litrec.verdicts.registration`) says whether each criterion's present form came first; the
events say what moved, read from git and the ledger (`litrec.verdicts.judgements`):

- `loosened`, `tightened`, `changed`: a criterion's threshold (old → new), from the record's
  committed history (`replaced`: another comparison of the same metric took its place), with
  what had been judged before the commit (or "before any recorded judgement": a quick run no
  ledger kept cannot be excluded);
- `moved to extension`, `moved into the claim`, `removed`: a criterion left the claim's row after
  it had been judged (with its decision then: after it failed, after it was inconclusive);
- `settings changed`: the analysis's settings differ between two judgements at one scale (which
  ones, old → new): the experiment changed after a judged result;
- `seeds added`: more seeds after an inconclusive or failing judgement at one scale (optional
  stopping: the verdict is marked "seeds added after looking").

A verdict that changed through an event says so in one plain line (`through`): "reproduced
after the experiment changed (steps, tie_phase_to_amplitude); before: inconclusive at paper_full".
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from litrec.records.criteria import EXTENSION
from litrec.records.operators import COMPARISONS
from litrec.util import git
from litrec.verdicts.judgements import Judgement
from litrec.verdicts.registration import Registrations, identity

# which way a larger right-hand side loosens a comparison (`litrec.records.operators`)
LOOSER = {c.name: 1 if c.side == "below" else -1 for c in COMPARISONS.values() if c.side != "inside"}
FAILED = ("fails", "inconclusive", "refused")
SETTINGS_SHOWN = 4  # settings named in an event's line, the rest counted


def _number(x: Any) -> float | None:
    return float(x) if isinstance(x, int | float) and not isinstance(x, bool) else None


def direction(old: dict, new: dict) -> str:
    """`loosened`, `tightened` or `changed`: how criterion `new` stands to `old`."""
    fixed = ("metric", "op", "ref", "low", "high", "profiles", "precondition", "row")
    if any(old.get(k) != new.get(k) for k in fixed):
        return "changed"
    op = new.get("op")
    if op in LOOSER:
        a = (_number(old.get("value")) if old.get("ref") is None else 1.0)
        b = (_number(new.get("value")) if new.get("ref") is None else 1.0)
        if a is None or b is None:
            return "changed"
        a, b = a * float(old.get("factor", 1.0)), b * float(new.get("factor", 1.0))
        return "changed" if a == b else ("loosened" if (b - a) * LOOSER[op] > 0 else "tightened")
    if op == "≈" and all(old.get(k) == new.get(k) for k in ("value", "factor")):
        pairs = [(old.get(k) or 0.0, new.get(k) or 0.0) for k in ("rel_tol", "abs_tol")]
        if all(b >= a for a, b in pairs) and any(b > a for a, b in pairs):
            return "loosened"
        if all(b <= a for a, b in pairs) and any(b < a for a, b in pairs):
            return "tightened"
    if op == "between":
        (o1, *r1), (o2, *r2) = (str(old.get("position")).split(), str(new.get("position")).split())
        if o1 == o2 and o1 in LOOSER and r1 and r2:
            a, b = float(r1[0]), float(r2[0])
            return "changed" if a == b else ("loosened" if (b - a) * LOOSER[o1] > 0 else "tightened")
    return "changed"


def _day(t: dt.datetime) -> str:
    return t.date().isoformat()


class Events:
    """The events of every claim of a project, worked out once from its `Registrations`."""

    def __init__(self, regs: Registrations):
        self.regs = regs
        self._claims: dict[tuple[str, str, str], list[dict]] = {}

    def precedes(self, j: Judgement, commit: str, t: dt.datetime) -> bool:
        """Whether judgement `j` came before `commit` (made at `t`): a result committed in it or
        an ancestor, a run from an ancestor; on another branch or no commit, by date. A run from
        `commit` itself came after it."""
        graph = self.regs.judgements.graph
        if j.kind == "result" and graph.order(j.holder, commit) in ("before", "same"):
            return True
        order = graph.order(j.commit, commit)
        return order == "before" or (order == "unrelated" and j.when < t)

    def _last_before(self, found: list[Judgement], commit: str, t: dt.datetime) -> Judgement | None:
        """The latest judgement that comes before `commit`."""
        return next((j for j in reversed(found) if self.precedes(j, commit, t)), None)

    def _criteria(self, rid: str, claim_id: str, found: list[Judgement]) -> list[dict]:
        """Criterion events from the record's committed history, oldest first."""
        commits, criteria = self.regs.history(rid) or ([], {})
        out, prev = [], None
        for commit, t in reversed(commits):
            now = criteria[commit].get(claim_id)
            if now is None:
                continue
            if prev is not None:
                at = dt.datetime.fromtimestamp(t, dt.UTC)
                seen = self._last_before(found, commit, at)
                for e in _changes(prev, now):
                    row = e.pop("row_")
                    e.update(commit=commit, when=at.isoformat(timespec="seconds"),
                             after=seen.words() if seen else None,
                             decision=seen.decisions.get(f"{row}{e['old']}") if seen else None)
                    out.append(e)
            prev = now
        return out

    def of(self, rid: str, claim_id: str, analysis: str, profile: str) -> list[dict]:
        """The events of claim `rid#claim_id` shown at `profile`: its criteria's at every scale,
        its settings' and seeds' at this one; each `{kind, text, short, scale, commit, when,
        after}`, and where judgements at `profile` surround it, `verdict_before`, `verdict_after`."""
        key = (f"{rid}#{claim_id}", analysis, profile)
        if key not in self._claims:
            found = self.regs.judgements.of(analysis, key[0])
            events = self._criteria(rid, claim_id, found) if self.regs.history(rid) else []
            self._place(events, [j for j in found if j.profile == profile])
            said = {(e["kind"], e.get("old")) for e in events}
            events += [e for e in _ledger_events(found, profile) if (e["kind"], e.get("old")) not in said]
            for e in events:
                e["text"], e["short"] = _line(e), _short(e)
            events.sort(key=lambda e: str(e.get("when")))
            self._claims[key] = events
        return self._claims[key]

    def between(self, rid: str, claim_id: str, analysis: str, profile: str, old: str | None,
                new: str | None) -> list[dict]:
        """The events of the claim at `profile` that came after commit `old` and no later than
        commit `new` (None: the working tree, so every later one): what `litrec diff` shows
        between its two sides."""
        graph = self.regs.judgements.graph
        out = []
        for e in self.of(rid, claim_id, analysis, profile):
            commit = e.get("commit")
            if not commit or (old and graph.order(commit, old) in ("before", "same")):
                continue
            if new is None or graph.order(commit, new) in ("before", "same"):
                out.append(e)
        return out

    def _place(self, events: list[dict], at: list[Judgement]) -> None:
        """The verdicts at one scale just before and just after each criterion event."""
        for e in events:
            t = dt.datetime.fromisoformat(e["when"])
            before = [i for i, j in enumerate(at) if self.precedes(j, e["commit"], t)]
            i = max(before, default=-1)
            e["verdict_before"] = at[i].verdict() if i >= 0 else None
            e["verdict_after"] = at[i + 1].verdict() if i + 1 < len(at) else None
            e["interval"] = i + 1
            e.setdefault("scale", None)


def events_between(proj: Any, results_dir: Any, old: str, new: str | None,
                   profile: str) -> dict[str, list[dict]]:
    """Each claim's events at `profile` that came between revision `old` and revision `new`
    (None: the working tree), for `litrec diff`; claims without any are left out."""
    regs = Registrations(proj, results_dir)
    events, a, b = Events(regs), git.commit(regs.root, old), new and git.commit(regs.root, new)
    found = {f"{rec.id}#{c.id}": events.between(rec.id, c.id, c.check.analysis, profile, a, b)
             for rec, c in proj.claims() if c.check is not None}
    return {ref: evs for ref, evs in found.items() if evs}


def _changes(prev: list, now: list) -> list[dict]:
    """How a claim's criteria ([key, text, row]) changed between two versions of its record."""
    before = {(text, row): key for key, text, row in prev}
    after = {(text, row): key for key, text, row in now}
    out = []
    for (text, row), key in before.items():
        if (text, row) in after:
            continue
        other = EXTENSION if row == "" else ""
        if (text, other) in after:
            out.append({"kind": "moved to extension" if other else "moved into the claim", "old": text,
                        "new": text, "row_": row})
            continue
        same = [(t, r, k) for (t, r), k in after.items() if (t, r) not in before and identity(t) == identity(text)]
        if same:
            t, r, k = same[0]
            kind = direction(json.loads(key), json.loads(k)) if r == row else "changed"
            out.append({"kind": kind, "old": text, "new": t, "row_": row})
        else:  # a new criterion on the same metric in the same row stands in its place
            metric = text.split()[0]
            came = [t for (t, r) in after if r == row and (t, r) not in before and t.split()[0] == metric]
            out.append({"kind": "replaced", "old": text, "new": came[0], "row_": row} if came else
                       {"kind": "removed", "old": text, "new": None, "row_": row})
    return out


def _ledger_events(found: list[Judgement], profile: str) -> list[dict]:
    """Settings changed, seeds added and criteria that left the claim's row, between consecutive
    judgements at `profile`."""
    at = [j for j in found if j.profile == profile]
    out = []
    for prev, nxt in zip(at, at[1:]):
        base = {"scale": profile, "commit": nxt.commit, "interval": at.index(nxt),
                "when": nxt.when.isoformat(timespec="seconds"), "after": prev.words(),
                "verdict_before": prev.verdict(), "verdict_after": nxt.verdict()}
        if prev.settings is not None and nxt.settings is not None and prev.settings != nxt.settings:
            keys = sorted(set(prev.settings) | set(nxt.settings),
                          key=lambda k: list(nxt.settings or {}).index(k) if k in (nxt.settings or {}) else 0)
            changed = [(k, prev.settings.get(k), nxt.settings.get(k)) for k in keys
                       if prev.settings.get(k) != nxt.settings.get(k)]
            out.append(dict(base, kind="settings changed", changes=[list(c) for c in changed]))
        if (prev.verdict() in ("inconclusive", "not reproduced") and prev.seeds and nxt.seeds
                and set(map(str, prev.seeds)) < set(map(str, nxt.seeds))):
            out.append(dict(base, kind="seeds added", old=len(prev.seeds), new=len(nxt.seeds)))
        for text in prev.forms.get("", ()):
            decision = prev.decisions.get(text)
            if text in nxt.forms.get("", ()) or decision not in FAILED or "" not in nxt.forms:
                continue
            moved = text in nxt.forms.get(EXTENSION, ())
            out.append(dict(base, kind="moved to extension" if moved else "removed", old=text,
                            new=text if moved else None, decision=decision))
    return out


def _line(e: dict) -> str:
    """An event in one plain line."""
    when = f"{str(e.get('when') or '')[:10]}" + (f", {str(e['commit'])[:8]}" if e.get("commit") else "")
    after = f"after {e['after']}" if e.get("after") else "before any recorded judgement"
    kind = e["kind"]
    if kind == "settings changed":
        shown = [f"{k} {json.dumps(a)} → {json.dumps(b)}" for k, a, b in e["changes"][:SETTINGS_SHOWN]]
        more = len(e["changes"]) - SETTINGS_SHOWN
        return (f"settings changed at {e['scale']} (first run {when}, {after}): " + ", ".join(shown)
                + (f" and {more} more" if more > 0 else ""))
    if kind == "seeds added":
        return f"seeds added after looking at {e['scale']} (first run {when}, {after}): {e['old']} → {e['new']} seeds"
    failed = {"fails": "after it failed", "inconclusive": "after it was inconclusive",
              "refused": "after it was refused", "holds": "after it held"}.get(str(e.get("decision")), "")
    if kind in ("moved to extension", "moved into the claim", "removed"):
        where = {"moved to extension": "moved to the extension row", "moved into the claim":
                 "moved into the claim's row", "removed": "removed"}[kind]
        return f"{e['old']} {where} {failed}".rstrip() + f" ({when}, {after})"
    return f"{kind}: {e['old']} → {e['new']} ({when}, {after})"


def _short(e: dict) -> str:
    """An event in a few words, for a summary: `loosened: x < 0.05 → x < 0.1`."""
    kind = e["kind"]
    if kind == "settings changed":
        return f"settings changed at {e['scale']} ({', '.join(c[0] for c in e['changes'])})"
    if kind == "seeds added":
        return f"seeds added after looking at {e['scale']} ({e['old']} → {e['new']})"
    failed = {"fails": " after it failed", "inconclusive": " after it was inconclusive"}.get(
        str(e.get("decision")), "")
    if kind in ("moved to extension", "moved into the claim", "removed"):
        where = {"moved to extension": "moved to the extension row", "moved into the claim":
                 "moved into the claim's row", "removed": "removed"}[kind]
        return f"{e['old']} {where}{failed}"
    return f"{kind}: {e['old']} → {e['new']}"


def through(events: list[dict], verdict: str, profile: str) -> str | None:
    """The one plain line saying how the verdict came about where an event changed it:
    `reproduced after the experiment changed (steps); before: inconclusive at paper_full`."""
    for e in reversed(events):
        was, now = e.get("verdict_before"), e.get("verdict_after")
        if was and now == verdict and was != now:
            group = [g for g in events if g.get("interval") == e.get("interval")
                     and g.get("verdict_before") == was and g.get("verdict_after") == now]
            group.sort(key=lambda g: (g.get("decision") not in FAILED,
                                      g["kind"] not in ("settings changed", "seeds added")))
            what = [_cause(g) for g in group[:2]]
            more = f" and {len(group) - 2} other change{'s' * (len(group) > 3)}" if len(group) > 2 else ""
            return f"{verdict} after {' and '.join(what)}{more}; before: {was} at {profile}"
    return None


def _cause(e: dict) -> str:
    kind = e["kind"]
    if kind == "settings changed":
        return "the experiment changed (" + ", ".join(c[0] for c in e.get("changes", ())) + ")"
    if kind == "seeds added":
        return f"seeds were added ({e.get('old')} → {e.get('new')})"
    return _short(e)


def seeds_after_looking(events: list[dict]) -> bool:
    """Whether seeds were added after an inconclusive or failing judgement (optional stopping)."""
    return any(e["kind"] == "seeds added" for e in events)


def how_judged(outcomes: list, events: list[dict]) -> str:
    """How a claim's verdict was reached, in words every surface prints: `pre-registered` only
    when every criterion's present form came before the claim's first judgement and no event
    applies; else how many are not, by state, and the events (`post hoc: 1 of 4 criteria;
    events: loosened ...; seeds added after looking ...`)."""
    states = [(getattr(o, "registration", None) or {}).get("state") or "unknown" for o in outcomes]
    late = [(s, states.count(s)) for s in ("post hoc", "uncommitted", "unknown") if s in states]
    words = [f"{s}: {n} of {len(states)} criteria" for s, n in late]
    if events:
        words.append(f"{len(events)} event{'s' * (len(events) != 1)}: " + "; ".join(e["short"] for e in events))
    return "; ".join(words) if words else "pre-registered"
