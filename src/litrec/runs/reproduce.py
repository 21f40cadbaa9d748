"""`litrec run` below the command layer: from the folders and options to the verdicts.

`reproduce` is what the command calls (as DVC's `CmdRun` calls `repo.reproduce`), with
one `litrec.runs.options.RunOptions` the command built from its arguments:
it answers from the run memo when nothing changed (`litrec.cache.runmemo`), else
starts the executor's workers early (`litrec.runs.executors.prestart`), loads the
project, plans, runs what is stale (`litrec.runs.runner`), judges every claim and
keeps the answer of a run that had nothing to run. The command parses, shows
progress through the events it hands in, prints the outcome and picks the
exit code.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from contextlib import AbstractContextManager as ContextManager
from dataclasses import dataclass, field
from pathlib import Path

from litrec.analyses.memo import data_now, memo_key
from litrec.runs import interrupt
from litrec.runs.options import RunOptions


@dataclass
class Reproduction:
    """What a run did and found (`reproduce`)."""

    statuses: list = field(default_factory=list)   # a ClaimStatus per claim, in record order
    ran: list[str] = field(default_factory=list)
    current: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    ran_any: bool = False
    without_profile: list[str] = field(default_factory=list)  # analyses without the run's profile
    profile: str = ""                                # the profile judged (the one chosen where none was asked)


# The run memo's name for "no --profile": the answer of a run that asked for none is kept under
# it, so a no-op `litrec run` never loads the registry to choose; what it chose is in the answer.
SMALLEST = "(the smallest scale)"


def _quiet(profile: str) -> ContextManager:
    return contextlib.nullcontext()


def reproduce(options: RunOptions, *,
              showing: Callable[[str], ContextManager] = _quiet) -> Reproduction:
    """Rerun what is stale (everything, with `options.force`) and judge every claim.

    `options` is the run's options, worked out once by the command (`RunOptions.of`), its
    `ExecutorSpec` with them: it is read here, by the plan and by the runner, never built
    again. `options.any_machine` leaves alone a result stale only because another CPU computed
    it (`litrec.runs.plan.plan_run`).
    `options.profile` None runs the project's smallest scale (`litrec.verdicts.status.first_scale`),
    chosen only when the run memo has no answer (the memo keys what it depends on).
    `showing(profile)` gives a context manager that yields the `litrec.runs.plan.Events` of the
    run, entered only when something runs (the command's progress display).
    `InvalidRecords` when a record is invalid (nothing runs); `RunOptions.of` has checked that
    the records folder is one (`UsageError`).
    """
    with interrupt.handling():  # Ctrl-C or SIGTERM from here on: Interrupted (130, 143)
        return _reproduce(options, showing)


def _key(o: RunOptions, asked: str | None) -> str | None:
    """The run memo's key of these options (`litrec.analyses.memo.memo_key`), for the profile
    `asked` (None: `SMALLEST`; every file of the analysis folder, which decides it, is keyed)."""
    return memo_key(o.records, o.analysis, o.results, asked or SMALLEST, list(o.targets), o.any_machine)


def _reproduce(o: RunOptions, showing) -> Reproduction:
    from litrec.cache import runmemo
    from litrec.verdicts.claims import ClaimStatus

    key = None if o.force else _key(o, o.profile)
    kept = runmemo.recall(o.records, o.profile or SMALLEST, key, data_now(Path(o.records).resolve().parent))
    try:
        statuses = [ClaimStatus.from_row(r) for r in kept.claims] if kept else None
    except (TypeError, ValueError):  # rows of another shape: never trusted, worked out again
        statuses = None
    if statuses is not None and kept is not None:  # (statuses: from what was kept)
        return Reproduction(statuses, [], kept.current, without_profile=kept.without_profile,
                       profile=kept.profile or o.profile or "")
    from litrec.runs.executors import prestart  # something may run: workers start now

    early = prestart(o.executor, o.analysis, o.targets)
    try:
        return _full(o, showing, key, early)
    finally:
        if early is not None:
            early.discard()  # closed unless its points were sent


def _full(o: RunOptions, showing, key: str | None, early) -> Reproduction:
    """Load, plan, run what is stale, judge; keep the answer of a run with nothing to run."""
    from litrec.cache import runmemo
    from litrec.runs.plan import Events, plan_run, run_plan
    from litrec.verdicts.claims import claim_statuses, with_scales
    from litrec.verdicts.registration import Registrations
    from litrec.verdicts.status import first_scale, judged_project

    asked = o.profile
    if o.profile is None:
        o = dataclasses.replace(o, profile=first_scale(o.records, o.analysis))
    assert o.profile is not None

    proj = judged_project(o.records, o.analysis, o.results, o.profile)
    plan = plan_run(proj, o)
    failed: list[str] = []
    if plan.todo:
        with showing(o.profile) as events:
            failed = run_plan(proj, plan, o, events if events is not None else Events(), early=early)
    regs = Registrations(proj, o.results)  # git history read once, for every scale
    statuses = with_scales(proj, o.results, claim_statuses(proj, o.results, o.profile, plan.claims,
                                                           plan.states, regs), o.profile, regs)
    if not plan.todo and key is not None:
        inputs = [st.inputs for st in plan.states.values() if st.inputs is not None]
        answer = runmemo.Answer(plan.current, [s.row() for s in statuses],
                                sorted({p for i in inputs for p in i.patterns}),
                                {f: d for i in inputs for f, d in i.data.items()}, plan.without_profile,
                                o.profile)
        runmemo.keep(o.records, asked or SMALLEST, key, answer, again=lambda: _key(o, asked))
    ran = [n for n, _ in plan.todo if n not in failed]
    return Reproduction(statuses, ran, plan.current, failed, bool(plan.todo), plan.without_profile, o.profile)
