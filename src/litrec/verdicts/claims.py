"""Verdicts: every claim's expectations judged against its analysis's result.

A claim's verdict is one of

- `reproduced`: every expectation holds on the whole interval over seeds;
- `not reproduced`: an expectation fails on the whole interval;
- `inconclusive`: none fails but one straddles its threshold (with the number
  of seeds that would decide, at the spread seen, and which way: `direction`,
  likely reproduced, likely not reproduced or undecided), or a precondition of the
  run (an expectation marked `precondition: true`, e.g. "the baseline
  converged") fails or straddles: the run could not test the claim;
- `expectation changed`: the claim's expectations differ from those stored
  with its (current) result when it ran; it is judged against the stored ones
  (`stored_verdict`), the new ones' verdict shown beside (`new_verdict`),
  until the analysis reruns;
- `unchecked`: the claim names no analysis (most claims of most papers);
- `stale`: a result exists, but its code, profile or package versions changed
  since; its numbers are shown, not judged;
- `missing`: no result for the profile yet;
- `modified`: the result file is not what litrec wrote (`litrec.results.seal`);
- `error`: the result lacks a metric the claim names, or a comparison is refused.

Judging one expectation is `litrec.verdicts.judge`, a row of them against a result
`litrec.verdicts.rows.judge` (what `litrec diff` judges each side with too); whether a
result may be judged is asked of `litrec.results.state`. A result stores the expectations it was judged
against when it ran (pre-registration): when a claim's expectations differ
from them, the status says so, outcome by outcome, until the analysis reruns.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from litrec.analyses.scales import FALLBACK
from litrec.records.criteria import EXTENSION, base_claim
from litrec.results.fields import json_line
from litrec.results.resume import kept_summary
from litrec.results.signing import signature_state
from litrec.results.state import ResultState, result_states
from litrec.results.store import result_path
from litrec.verdicts.events import Events, how_judged, seeds_after_looking, through
from litrec.verdicts.judge import MissingMetric, Outcome
from litrec.verdicts.registration import Registrations
from litrec.verdicts.rows import claim_rows, is_extension, judge, row_share, seed_metrics
from litrec.verdicts.stored import expectation_record, flag_changed, judged_in, stored_expectations

if TYPE_CHECKING:  # the records' models: a kept answer is printed without them
    from litrec.records.project import Project

VERDICTS = ("reproduced", "not reproduced", "inconclusive", "expectation changed", "unchecked",
            "stale", "missing", "modified", "error")
# what `status --check-current` refuses
BEHIND = ("expectation changed", "stale", "missing", "modified", "error")


def project_scales(proj: Project | None) -> tuple[str, ...]:
    """The scales every surface shows side by side, smallest first, the last the paper's own:
    those the project declares (`litrec.analyses.scales`: the registry's `scales:`, else the
    profiles its analyses share, in the order they list them)."""
    return proj.registry.scales if proj is not None else FALLBACK


def folder_scales(records: Path, analysis: Path | None) -> tuple[str, ...]:
    """`project_scales` read off the registry alone (`analysis/` beside `records` where None),
    for a command that needs them before it loads the records; the registry's problems are
    said where the records are loaded."""
    from litrec.analyses.registry import load_registry
    from litrec.records.validate import default_analysis_dir

    folder = Path(analysis) if analysis else default_analysis_dir(Path(records))
    return load_registry(folder, []).scales


def scales_of(statuses: list[ClaimStatus]) -> tuple[str, ...]:
    """The scales `with_scales` judged `statuses` at, in its order (from the statuses alone, so
    a kept answer printed without the project says them too)."""
    return tuple(dict.fromkeys(scale for s in statuses for scale in s.verdicts))


def headline(results_dir: Path, scales: tuple[str, ...]) -> str:
    """The scale a reader sees first: the largest of `scales` (the last: the paper's own) at
    which any analysis has a result, else the first."""
    for scale in reversed(scales):
        try:
            if any(Path(results_dir).glob(f"*/{scale}.json")):
                return scale
        except OSError:
            continue
    return scales[0]


def with_scales(proj: Project, results_dir: Path, statuses: list[ClaimStatus], profile: str,
                registrations: Registrations | None = None, states: dict | None = None) -> list[ClaimStatus]:
    """Give each status its `verdicts` at every scale of the project (`project_scales`; the given
    `profile`'s own verdict reused; `states`: scale -> result states known), read side by side."""
    scales = project_scales(proj)
    by = {profile: {s.claim: s.verdict for s in statuses}}
    only = {s.claim for s in statuses}
    for scale in scales:
        if scale not in by:
            by[scale] = {s.claim: s.verdict
                         for s in claim_statuses(proj, results_dir, scale, only=only, states=(
                                                 states or {}).get(scale), registrations=registrations)}
    for s in statuses:
        s.verdicts = {scale: by[scale].get(s.claim) for scale in scales}
    return statuses


@dataclass
class ClaimStatus:
    """One claim's verdict with the outcomes and provenance behind it."""

    claim: str
    title: str
    analysis: str | None
    profile: str
    verdict: str
    measured: dict[str, Any] = field(default_factory=dict)
    expected: list[str] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    reason: str | None = None
    provenance: dict[str, Any] = field(default_factory=dict)
    result: str | None = None  # the stored result judged (`results/ANALYSIS/PROFILE.json`), where one was
    rests_on_it: list[str] = field(default_factory=list)
    spread: dict[str, dict] = field(default_factory=dict)  # metric -> {std, min, max, n}
    seeds: list | None = None
    seeds_needed: int | None = None
    direction: str | None = None  # inconclusive: likely reproduced, likely not reproduced, undecided
    expectation_changed: bool = False
    stored_expectations: list[str] | None = None
    stored_verdict: str | None = None  # expectation changed: the verdict under the stored ones
    new_verdict: str | None = None     # ... and under the new ones, shown beside it
    stored_outcomes: list[Outcome] = field(default_factory=list)
    # its result state's warnings (`litrec.results.state.ResultState.warnings`): a located line per
    # figure the result lists that is not on disk (a sealed result is `modified` then too)
    warnings: list[str] = field(default_factory=list)
    verdicts: dict[str, str | None] = field(default_factory=dict)  # at each scale (with_scales)
    other_machine: bool = False  # stale only because its result was computed on another CPU
    # stale or missing while a rerun of the present inputs is under way (`ResultState.rerun`): in
    # words, and whether it runs on this CPU (`status --check-current --under-way` lets it pass)
    rerun: str | None = None
    rerun_here: bool = False
    # stale: the verdict the judge gives the stored numbers (a precondition unmet is inconclusive,
    # as for a current result): what they last said, evidence for suspect links (`reading.standing`)
    last_verdict: str | None = None
    extension_of: str | None = None  # an extension row: the claim whose verdict it leaves alone
    # how the verdict was reached (`litrec.verdicts.events`): the protocol's events, the line
    # saying how one changed the verdict, and the words every surface prints
    events: list[dict] = field(default_factory=list)
    through: str | None = None
    how: str | None = None
    seeds_after_looking: bool = False
    # the kind of the record that holds the claim: `literature`, a paper's claim; any other, the
    # owner's own (`litrec.verdicts.summary` counts them apart)
    record_kind: str | None = None

    @property
    def post_hoc(self) -> list[str]:
        """The expectations committed only after their profile's first result (`registration`)."""
        return [o.expectation for o in self.outcomes
                if (o.registration or {}).get("state") == "post hoc"]

    @classmethod
    def from_row(cls, row: dict) -> ClaimStatus:
        """The status a `row()` was made of (as `litrec.cache.runmemo` keeps it)."""
        fields = {k: v for k, v in row.items() if k in cls.__dataclass_fields__}
        fields["outcomes"] = [Outcome(**o) for o in row.get("outcomes") or ()]
        fields["stored_outcomes"] = [Outcome(**o) for o in row.get("stored_outcomes") or ()]
        return cls(**fields)

    def row(self) -> dict:
        """The status as `litrec status --format json` and `litrec run --format json` print it."""
        return {
            "claim": self.claim,
            "title": self.title,
            "analysis": self.analysis,
            "profile": self.profile,
            "verdict": self.verdict,
            "verdicts": self.verdicts or {self.profile: self.verdict},
            "seeds": self.seeds,
            "seeds_needed": self.seeds_needed,
            "direction": self.direction,
            "measured": self.measured,
            "expected": self.expected,
            "outcomes": [o.__dict__ for o in self.outcomes],
            "reason": self.reason,
            "expectation_changed": self.expectation_changed,
            **({"stored_expectations": self.stored_expectations,
                "stored_verdict": self.stored_verdict, "new_verdict": self.new_verdict,
                "stored_outcomes": [o.__dict__ for o in self.stored_outcomes]}
               if self.expectation_changed else {}),
            **({"other_machine": True} if self.other_machine else {}),
            **({"rerun": self.rerun, "rerun_here": self.rerun_here} if self.rerun else {}),
            **({"last_verdict": self.last_verdict} if self.last_verdict else {}),
            "extension_of": self.extension_of,
            "record_kind": self.record_kind,
            "post_hoc": self.post_hoc,
            "how": self.how,
            "events": self.events,
            "through": self.through,
            "seeds_after_looking": self.seeds_after_looking,
            "rests_on_it": self.rests_on_it,
            "spread": self.spread,
            "provenance": self.provenance,
            "warnings": self.warnings,
        }


def provenance(result: dict) -> dict:
    """What a stored result says of where it came from, as `status --verbose`, `export json`
    and the site show it: its hashes, commit, versions, machine, seeds, times and settings."""
    keys = ("code_hash", "content_hash", "git", "versions", "platform", "device", "seed", "seeds",
            "started", "wall_time_s", "config", "sweep", "litrec", "hermetic")
    out = {k: result.get(k) for k in keys if k in result}
    git = result.get("git")
    git = git if isinstance(git, dict) else {}
    out["commit"] = git.get("commit")  # the interface's per-result commit (null outside git)
    kept = kept_summary(result)  # points computed in an earlier, interrupted sitting
    if kept is not None:
        out["kept"] = kept
    return out


def claim_statuses(proj: Project, results_dir: Path, profile: str,
                   only: set[str] | None = None,
                   states: dict[str, ResultState] | None = None,
                   registrations: Registrations | None = None) -> list[ClaimStatus]:
    """A status for every claim (or those in `only`), in record order; unchecked ones too.

    A claim with extensions (`source: {kind: extension}`) has two rows: its own,
    judged on the paper's and the official code's expectations, and `REF+ext`, judged
    on litrec's extensions. `states` holds results whose state is already known (the
    runner's); the rest are decided here, once per analysis. Every outcome says where
    its expectation comes from and whether it was registered before its profile's
    first result (`registrations`, worked out from git history once per call).
    """
    def wanted(ref: str) -> bool:
        return only is None or ref in only or base_claim(ref) in only

    chosen = [(rec, claim) for rec, claim in proj.claims()
              if only is None or f"{rec.id}#{claim.id}" in only
              or f"{rec.id}#{claim.id}{EXTENSION}" in only]
    names = {claim.check.analysis for _, claim in chosen if claim.check is not None}
    known = dict(states or {})
    known.update(result_states(proj.registry, results_dir, sorted(names - set(known)), profile))
    regs = registrations or Registrations(proj, results_dir)
    out: list[ClaimStatus] = []
    for rec, claim in chosen:
        ref = f"{rec.id}#{claim.id}"
        if claim.check is None:
            if wanted(ref):
                out.append(ClaimStatus(ref, claim.title, None, profile, "unchecked",
                                       reason="no analysis yet: the claim names none (check.analysis)",
                                       record_kind=rec.kind))
            continue
        judged = judged_in(claim.check.expect, profile)
        for suffix, expect in claim_rows(judged):
            if wanted(ref + suffix):
                out.append(_status(rec, claim, known[claim.check.analysis], profile,
                                   Path(results_dir), expect, suffix, judged, regs))
    flag_dependents(proj, out)
    return out


def metric_at(results_dir: Path, name: str, profile: str, metric: str | None) -> str:
    """`results/a/p.json:LINE: metrics.NAME`: where a stored metric is (None: the metrics)."""
    path = result_path(results_dir, name, profile)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    if metric is None:
        return f"{path}:{json_line(text, ('metrics',))}: metrics"
    return f"{path}:{json_line(text, ('metrics', *metric.split('.')))}: metrics.{metric}"


def _status(rec, claim, state: ResultState, profile: str, results_dir: Path, expect: list,
            suffix: str, judged: list, regs: Registrations) -> ClaimStatus:
    """The status of one row of a claim: its own (`suffix` "") or its extensions' ("+ext"),
    judged on `expect`, the row's expectations among the claim's `judged` in `profile`."""
    ref, name = f"{rec.id}#{claim.id}", claim.check.analysis
    title = f"{claim.title} (litrec's extension)" if suffix else claim.title
    st = ClaimStatus(ref + suffix, title, name, profile, "missing",
                     expected=[e.describe() for e in expect], warnings=list(state.warnings),
                     extension_of=ref if suffix else None, rerun=state.rerun, rerun_here=state.rerun_here,
                     record_kind=rec.kind)
    if state.state == "missing":
        known = regs.proj.registry.profiles.get(name)
        if known and profile not in known:  # a scale of another paper (no PROFILES: unknown)
            st.verdict, st.reason = "unchecked", (f"its analysis '{name}' has no profile '{profile}' (its "
                                                  f"profiles: {', '.join(sorted(known))}): not judged here")
            return st
        st.reason = f"{state.reason}; run: litrec run {ref} --profile {profile}"
        return st
    if state.state == "modified":
        st.verdict, st.reason = "modified", state.reason
        return st
    result = state.result or {}
    st.provenance = provenance(result)
    path = result_path(results_dir, name, profile)
    st.result = path.as_posix()
    signed, by = signature_state(path, Path(results_dir).resolve().parent)
    st.provenance["signature"] = signed  # signed, unsigned or bad (`litrec.results.signing`)
    if by:
        st.provenance["signer" if signed == "signed" else "signature_problem"] = by
    st.seeds = seed_metrics(result)[1]
    try:
        got = judge(expect, result, lambda o: metric_at(results_dir, name, profile, o.metric))
    except MissingMetric as exc:
        if not state.current:  # an older result need not hold a metric the claim names now
            st.verdict, st.reason, st.other_machine = "stale", state.reason, state.other_machine
            return st
        st.verdict = "error"
        st.reason = (f"{metric_at(results_dir, name, profile, None)}: the result of '{name}' "
                     f"has no metric {exc.args[0]!r}; rename the claim's metric, or rerun the "
                     "analysis with --force if it should have it")
        return st
    st.outcomes = got.outcomes
    for o, e in zip(st.outcomes, expect):
        o.registration = asdict(regs.of(rec.id, claim.id, name, profile, e))
    if regs.events is None:
        regs.events = Events(regs)
    st.events = regs.events.of(rec.id, claim.id, name, profile)
    st.seeds_after_looking = seeds_after_looking(st.events)
    st.how = how_judged(st.outcomes, st.events)
    flag_changed(st, ref, expect, judged, result)
    st.measured = {o.metric: o.measured for o in st.outcomes}
    spread = result.get("spread") or {}
    st.spread = {o.metric: spread[o.metric] for o in st.outcomes if o.metric in spread}
    if not state.current:
        st.verdict, st.reason, st.other_machine = "stale", state.reason, state.other_machine
        st.last_verdict = got.verdict if expect else "unchecked"
        return st
    if not expect:  # every expectation of this profile is an extension: nothing of the paper's
        st.verdict = "unchecked"
        st.reason = (f"every expectation of {ref} judged in {profile} is litrec's extension "
                     f"(row {ref}{EXTENSION}); none comes from the paper or its official code")
        return st
    st.verdict, st.reason = got.verdict, got.reason
    st.direction, st.seeds_needed = got.direction, got.seeds_needed
    st.through = through(st.events, st.verdict, profile) if not suffix else None
    if st.expectation_changed:
        _judge_stored(st, result, name, profile, ref, judged, bool(suffix))
    return st


def _judge_stored(st: ClaimStatus, result: dict, name: str, profile: str, ref: str, judged: list,
                  extension: bool) -> None:
    """A row whose expectations changed since the run (`judged`: the claim's in `profile` now),
    judged against the stored ones.

    Its verdict is `expectation changed` until the analysis reruns; `stored_verdict`
    is the verdict under the expectations stored with the result (`stored_outcomes`;
    None where the result kept only their text, or the claim was not checked then),
    `new_verdict` the one the new expectations (`outcomes`, each flagged where it
    changed) would give, shown beside it and binding on no one.
    """
    st.new_verdict = st.verdict
    exps = stored_expectations(result, ref)
    if exps:  # the row's share of them: the extensions' or the claim's own
        exps = row_share(exps, extension)
    if exps:
        try:
            then = judge(exps, result)
        except MissingMetric:
            st.stored_outcomes = []
        else:
            st.stored_outcomes, st.stored_verdict = then.outcomes, then.verdict
    under = (f"under the expectations stored with the result, {st.stored_verdict}"
             if st.stored_verdict else
             "the result kept no expectations it could be judged against again"
             if st.stored_expectations else "the claim was not checked when the analysis ran")
    st.verdict, st.direction, st.seeds_needed = "expectation changed", None, None
    st.reason = (f"the expectations changed after the run: {under}; under the new ones, "
                 f"{st.new_verdict}; until the analysis reruns (litrec run {name} --profile "
                 f"{profile} --force) neither is its verdict")


def flag_dependents(proj: Project, statuses: list[ClaimStatus]) -> None:
    """Records resting on a claim that is not reproduced: users, and theories they source."""
    for st in statuses:
        if st.verdict != "not reproduced":
            continue
        rid, _, cid = st.claim.partition("#")
        users = sorted({e.source for e in proj.edges
                        if e.target == rid and e.claim == cid and e.rel in ("uses", "supports")})
        theories = sorted({e.target for e in proj.edges
                           if e.source in users and e.rel == "source_of"})
        st.rests_on_it = users + [t for t in theories if t not in users]


def result_problems(statuses: list[ClaimStatus]) -> tuple[list[str], list[str]]:
    """The distinct errors (a damaged or incomparable result) and warnings behind the verdicts."""
    errors = [s.reason for s in statuses if s.verdict in ("error", "modified") and s.reason]
    warnings = [w for s in statuses for w in s.warnings]
    return list(dict.fromkeys(errors)), list(dict.fromkeys(warnings))


__all__ = ["BEHIND", "EXTENSION", "VERDICTS", "ClaimStatus", "base_claim", "claim_rows",
           "claim_statuses", "expectation_record", "flag_dependents", "folder_scales", "headline", "is_extension",
           "judge", "judged_in", "metric_at", "project_scales", "provenance", "result_problems", "scales_of",
           "seed_metrics", "stored_expectations", "with_scales"]
