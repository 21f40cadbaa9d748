"""What changed between two sets of stored results: two commits, or two profiles.

`litrec diff` reads each side's result files (`results/<analysis>/<profile>.json`: from the
working tree, or from a commit with `git show REV:path`) and judges every claim on each side
against the expectations that side's result stored when it ran, so each side says what it
said then (where a side is read from: `litrec.verdicts.sides`). A claim changed when its
verdict, an expectation, or a deciding number (mean or interval) differs, or when its
expectations now differ from those the new side's result stored (*expectation changed*, as
`litrec status` says, shown as the old criterion and the new one). A claim's extensions are
compared in a row of their own (`REF+ext`), there whenever the claim has extensions now or
either side's result stored some: an extension edited, added or removed is a change of that
row (`±0.1 → ±0.05`), never of the claim's own, each side's stored expectations shared out by
their own row (`litrec.verdicts.rows.row_share`).

A side that cannot be judged says why: `error` with its reason, `missing` with the result it
looked for. A result written before results stored their expectations is judged against the
claim's expectations now, and says so; where those name a metric it lacks, its verdict is `no
stored expectations`, not `error`. A working-tree side whose result is not current (stale,
modified: what `litrec status` says) is judged on its last run's numbers, and says so under
each claim shown (`new side: stale: …`) and in the summary, so a verdict moved by a result not
yet rerun never reads as a current one. The claims' protocol events (`litrec.verdicts.events`)
that came between two commits are listed too. Each number that changed is shown with its
change and that change in percent, and every metric both sides measured is in the JSON with
them (`litrec.verdicts.change`). Nothing runs.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from litrec.records.criteria import EXTENSION
from litrec.results.state import result_states
from litrec.results.store import result_path
from litrec.util.formatting import fmt
from litrec.verdicts.change import change_words, metric_changes
from litrec.verdicts.events import events_between
from litrec.verdicts.judge import MissingMetric
from litrec.verdicts.rows import claim_rows, is_extension, judge, row_share
from litrec.verdicts.sides import Side, check_rev, read_result, sides
from litrec.verdicts.stored import criterion_key, judged_in, stored_expectations

if TYPE_CHECKING:
    from litrec.records.project import Project

NO_STORED = "no stored expectations"  # the verdict of a side that cannot be judged for lack of them


@dataclass
class Judged:
    """One claim (or its extension row) as one side's result judges it."""

    verdict: str
    expectations: list[str] = field(default_factory=list)
    outcomes: list[dict] = field(default_factory=list)  # expectation, metric, mean, interval, n, decision
    reason: str | None = None      # why `error` or `missing`, or that the result stored no expectations
    edited: list[dict] = field(default_factory=list)  # {"old", "new"}: stored criterion -> the claim's now
    metrics: list[str] = field(default_factory=list, repr=False)  # each expectation's metric, in order
    # a working-tree side's result, where not current: its state (stale, modified) and why
    state: str | None = None
    state_reason: str | None = None

    def to_json(self) -> dict:
        """As `litrec diff --format json` gives it."""
        return {"verdict": self.verdict, "expectations": self.expectations,
                "outcomes": self.outcomes, "reason": self.reason, "edited": self.edited,
                "state": self.state, "state_reason": self.state_reason}


def pair(old: list[tuple[str, str]], new: list[tuple[str, str]]) -> list[dict]:
    """`(metric, text)` criteria that went (`old`) and came (`new`) as `{"old", "new"}` pairs: a
    metric with one criterion gone and one come is one edit (`{"old": "x > 0.99", "new":
    "x > 0.995"}`); any other is removed (`new` None) or added (`old` None)."""
    def by_metric(items: list[tuple[str, str]]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for metric, text in items:
            out.setdefault(metric, []).append(text)
        return out

    gone, came = by_metric(old), by_metric(new)
    edits: list[dict[str, str | None]] = []
    for metric, text in old:
        if len(gone[metric]) == 1 and len(came.get(metric, [])) == 1:
            edits.append({"old": text, "new": came[metric][0]})
        else:
            edits.append({"old": text, "new": None})
    paired = {e["new"] for e in edits if e["new"] is not None}
    edits += [{"old": None, "new": text} for _, text in new if text not in paired]
    return edits


def edit_text(edit: dict) -> str:
    """`x > 0.99 → x > 0.995`, `removed: x > 0.99`, `added: x > 0.995`."""
    if edit["old"] is not None and edit["new"] is not None:
        return f"{edit['old']} → {edit['new']}"
    return f"removed: {edit['old']}" if edit["new"] is None else f"added: {edit['new']}"


@dataclass
class ClaimDiff:
    """One claim on both sides, and what changed."""

    claim: str
    old: Judged
    new: Judged
    changes: list[str]

    def to_json(self) -> dict:
        """As `litrec diff --format json` gives it."""
        return {"claim": self.claim, "old": self.old.to_json(), "new": self.new.to_json(),
                "changed": self.changes, "metrics": metric_changes(self.old.outcomes, self.new.outcomes)}



def judge_side(claim_ref: str, claim, result: dict | None, profile: str | None = None,
               extension: bool = False, where: str | None = None) -> Judged:
    """The claim's row (its own, or its extensions' with `extension`) as `result` (read from
    `where`) judges it (`litrec.verdicts.rows.judge`), against the expectations the result
    stored (else the claim's, saying so); `edited` pairs each stored criterion with the claim's
    of `profile` now, where they differ."""
    if claim.check is None:
        return Judged("unchecked")
    now = judged_in(claim.check.expect, profile)
    mine = dict(claim_rows(now)).get(EXTENSION if extension else "", [])
    if not isinstance(result, dict):
        return Judged("missing", [e.describe() for e in mine],
                      reason=f"no readable result{f' at {where}' if where else ''}",
                      metrics=[e.metric for e in mine])
    stored = stored_expectations(result, claim_ref)
    reason = None
    if stored is None:
        stored = list(now)
        reason = ("the result stored no expectations (it was written before results kept them): "
                  "judged against the claim's expectations now")
    exps = row_share(stored, extension)
    kept = {criterion_key(e.criterion()) for e in exps}
    current = {criterion_key(m.criterion()) for m in mine}
    edited = pair([(e.metric, e.describe()) for e in exps if criterion_key(e.criterion()) not in current],
                  [(e.metric, e.describe()) for e in mine if criterion_key(e.criterion()) not in kept])
    texts, metrics = [e.describe() for e in exps], [e.metric for e in exps]
    if not exps:
        return Judged("unchecked", texts, [], reason, edited, metrics)
    try:
        got = judge(exps, result)
    except MissingMetric as exc:
        if reason is not None:  # nothing it was judged against then: not an error of the result
            why = (f"the result stored no expectations (it was written before results kept them) "
                   f"and has no metric {exc.args[0]!r}, which the claim's expectations now name; "
                   "nothing to compare on this side")
            return Judged(NO_STORED, texts, [], why, edited, metrics)
        why = (f"the result has no metric {exc.args[0]!r} (written by an older analysis); "
               "nothing to compare on this side")
        return Judged("error", texts, [{"reason": f"no metric {exc.args[0]!r}"}], why, edited,
                      metrics)
    rows = [{"expectation": o.expectation, "metric": o.metric, "mean": o.measured,
             "interval": o.interval, "n": o.n, "decision": o.decision} for o in got.outcomes]
    if got.verdict == "error" and got.reason is not None:  # an outcome refused (a metric of a type
        reason = got.reason + (f"; {reason}" if reason else "")  # it cannot be compared as): why
    return Judged(got.verdict, texts, rows, reason, edited, metrics)


def _number(o: dict) -> str:
    if o.get("interval") and (o.get("n") or 1) > 1:
        low, high = o["interval"]
        return f"{fmt(o['mean'], True)} [{fmt(low, True)}, {fmt(high, True)}]"
    return fmt(o.get("mean"), True)


def changes(old: Judged, new: Judged) -> list[str]:
    """What differs between the two sides of a claim, in words."""
    out = []
    if old.verdict != new.verdict:
        out.append(f"verdict: {old.verdict} → {new.verdict}")
    if old.expectations != new.expectations:
        gone = [(m, e) for m, e in zip(old.metrics, old.expectations) if e not in new.expectations]
        came = [(m, e) for m, e in zip(new.metrics, new.expectations) if e not in old.expectations]
        out += [f"expectation {edit_text(e)}" if e["old"] is None or e["new"] is None
                else f"expectation changed: {edit_text(e)}" for e in pair(gone, came)]
    out += [f"expectation changed since the run, not yet run: {edit_text(e)}" for e in new.edited]
    for side, j in (("old", old), ("new", new)):
        if j.verdict in ("error", NO_STORED) and j.reason and f"{side} side: {j.reason}" not in out:
            out.append(f"{side} side: {j.reason}")
    before = {o.get("expectation"): o for o in old.outcomes}
    for o in new.outcomes:
        was = before.get(o.get("expectation"))
        if was is None or "mean" not in o:
            continue
        if _number(was) != _number(o):  # as shown: digits beyond those are noise of the sums
            out.append(f"{o['expectation']}: {_number(was)} → {_number(o)}"
                       + change_words(was["mean"], o["mean"]))
    return out


def notes(d: ClaimDiff) -> list[str]:
    """What a shown claim's sides say of themselves beyond its changes: a result judged against
    today's expectations, a missing result, a result not current (a line each, `old side: ...`)."""
    out = [f"{side} side: {j.reason}" for side, j in (("old", d.old), ("new", d.new))
           if j.reason and f"{side} side: {j.reason}" not in d.changes]
    out += [f"{side} side: {j.state}: its last run's numbers, not current (litrec status says why)"
            for side, j in (("old", d.old), ("new", d.new)) if j.state]
    return out


def diff(proj: Project, results_dir: Path, old: Side, new: Side,
         only_changed: bool = True, states: dict[Side, dict] | None = None) -> list[ClaimDiff]:
    """Every claim with a check, judged on both sides (only those that changed, by default);
    `states`: each side's results not current (`behind`), worked out when not given."""
    cache: dict[tuple, dict | None] = {}

    def result(name: str, side: Side) -> dict | None:
        key = (name, side)
        if key not in cache:
            cache[key] = read_result(results_dir, name, side)
        return cache[key]

    def where(name: str, side: Side) -> str:
        path = result_path(results_dir, name, side.profile).as_posix()
        return f"{path} in {side.rev}" if side.rev else path

    if states is None:
        states = {side: behind(proj, results_dir, side) for side in (old, new)}

    def stated(j: Judged, name: str, side: Side) -> Judged:
        """`j` with its result's state, where a working-tree side's result is there but not current."""
        state = states[side].get(name)
        return j if state is None or j.verdict == "missing" else \
            dataclasses.replace(j, state=state_words(state), state_reason=state.reason)

    out = []
    for rec, claim in proj.claims():
        if claim.check is None:
            continue
        ref = f"{rec.id}#{claim.id}"
        name = claim.check.analysis
        rows = [False] + ([True] if any(is_extension(e) for e in
                                        judged_in(claim.check.expect, new.profile))
                          or stored_extensions(result(name, old), ref)
                          or stored_extensions(result(name, new), ref) else [])
        for extension in rows:
            a = stated(judge_side(ref, claim, result(name, old), old.profile, extension,
                                  where(name, old)), name, old)
            b = stated(judge_side(ref, claim, result(name, new), new.profile, extension,
                                  where(name, new)), name, new)
            found = changes(a, b)
            if found or not only_changed:
                out.append(ClaimDiff(ref + (EXTENSION if extension else ""), a, b, found))
    return out


def stored_extensions(result: dict | None, ref: str) -> bool:
    """Whether `result` stored extensions among the expectations of claim `ref` it ran with:
    the claim's `+ext` row has a side to compare, though the claim may have none now."""
    stored = stored_expectations(result, ref) if isinstance(result, dict) else None
    return any(is_extension(e) for e in stored or ())


def behind(proj: Project, results_dir: Path, side: Side) -> dict:
    """The state of each checked claim's analysis result on a working-tree side that is stored
    but not current (`litrec.results.state.result_states`, as status decides it), by analysis name;
    empty for a commit, whose results are judged as that commit stored them."""
    if side.rev is not None:
        return {}
    names = sorted({c.check.analysis for _, c in proj.claims() if c.check is not None})
    states = result_states(proj.registry, results_dir, names, side.profile)
    return {n: st for n, st in states.items() if st.state in ("stale", "modified") and st.result is not None}


def state_words(state) -> str:
    """A result's state in a few words: `stale`, `stale, computed on another CPU`, `modified`."""
    return state.state + (", computed on another CPU" if state.other_machine else "")


@dataclass
class Comparison:
    """What `litrec diff` found: the two sides, the claims compared, how many claims are checked."""

    old: Side
    new: Side
    diffs: list[ClaimDiff]
    checked: int
    behind: dict[Side, dict] = field(default_factory=dict)  # each side's results not current
    events: dict[str, list[dict]] = field(default_factory=dict)  # claim -> its events between the sides

    @property
    def changed(self) -> int:
        """How many of the claims compared changed."""
        return sum(bool(d.changes) for d in self.diffs)

    def to_json(self) -> dict[str, Any]:
        """As `litrec diff --format json` prints it."""
        doc = {**as_json(self.old, self.new, self.diffs), "events": self.events}
        for name, side in (("old", self.old), ("new", self.new)):
            doc[name]["not_current"] = {n: {"state": st.state, "reason": st.reason}
                                        for n, st in sorted(self.behind.get(side, {}).items())}
        return doc

    def not_current(self) -> list[str]:
        """A line per side whose results are not all current: which, and in what state."""
        return [f"{side.label}: {len(states)} result{'s' * (len(states) != 1)} not current, judged "
                f"on their last run's numbers: "
                + ", ".join(f"{n} ({state_words(st)})" for n, st in sorted(states.items()))
                + " (litrec status says why)"
                for side in (self.old, self.new) if (states := self.behind.get(side))]


def compare(records: Path, analysis: Path | None, results_dir: Path, revs: list[str],
            profiles: list[str] | None, only_changed: bool = True) -> Comparison:
    """`litrec diff` below the command: the sides named (each revision checked to be a commit),
    the valid project, every checked claim judged on both sides."""
    from litrec.records.load import load_valid_project
    from litrec.verdicts.claims import folder_scales

    old, new = sides(revs, profiles, folder_scales(records, analysis)[0])
    for side in (old, new):
        if side.rev is not None:
            check_rev(results_dir, side.rev)
    proj = load_valid_project(records, analysis)
    checked = sum(1 + any(is_extension(e) for e in judged_in(c.check.expect, new.profile))
                  for _, c in proj.claims() if c.check is not None)  # extension rows count too
    states = {side: behind(proj, results_dir, side) for side in (old, new)}
    return Comparison(old, new, diff(proj, results_dir, old, new, only_changed, states), checked, states,
                      {} if old.rev is None or old.rev == new.rev else
                      events_between(proj, results_dir, old.rev, new.rev, new.profile))


def as_json(old: Side, new: Side, diffs: list[ClaimDiff]) -> dict[str, Any]:
    """The whole comparison as `litrec diff --format json` prints it."""
    return {"old": {"rev": old.rev, "profile": old.profile},
            "new": {"rev": new.rev, "profile": new.profile},
            "claims": [d.to_json() for d in diffs]}
