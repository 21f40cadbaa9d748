"""`litrec run` below the command layer: from the folders and options to the verdicts.

`reproduce` is what the command calls (as DVC's `CmdRun` calls `repo.reproduce`):
it answers from the run memo when nothing changed (`litrec.cache.runmemo`), else
starts the executor's workers early (`litrec.runs.executors.prestart`), loads the
project, plans, runs what is stale (`litrec.runs.runner`), judges every claim and
keeps the answer of a run that had nothing to run. The command parses, shows
progress through the events it hands in, prints the outcome and picks the
exit code.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager as ContextManager
from dataclasses import dataclass, field
from pathlib import Path

from litrec.analyses.memo import data_now, memo_key
from litrec.runs import interrupt
from litrec.util.confine import need_dir


@dataclass
class Outcome:
    """What a run did and found."""

    statuses: list = field(default_factory=list)   # a ClaimStatus per claim, in record order
    ran: list[str] = field(default_factory=list)
    current: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    ran_any: bool = False
    without_profile: list[str] = field(default_factory=list)  # analyses without the run's profile


def reproduce(records: Path, analysis: Path | None, results: Path, profile: str,
              targets: list[str],
              executor: tuple[str, int | None, str | None] = ("local", None, None), *,
              force: bool = False, compile_cache: bool = True, any_machine: bool = False,
              showing: Callable[[], ContextManager] = contextlib.nullcontext) -> Outcome:
    """Rerun what is stale (everything, with `force`) and judge every claim.

    `executor` is (kind, jobs, scheduler) as given: the one `ExecutorSpec` is built from it
    once something may run (a run answered from the memo imports no executor code).
    `any_machine` leaves alone a result stale only because another CPU computed it
    (`litrec.runs.plan.plan_run`).
    `showing()` gives a context manager that yields the `litrec.runs.plan.Events` of the run,
    entered only when something runs (the command's progress display).
    `UsageError` when `records` is not a folder, `InvalidRecords` when a record is invalid
    (nothing runs).
    """
    with interrupt.handling():  # Ctrl-C or SIGTERM from here on: Interrupted (130, 143)
        return _reproduce(records, analysis, results, profile, targets, executor, force,
                          compile_cache, showing, any_machine)


def _reproduce(records, analysis, results, profile, targets, executor, force, compile_cache,
               showing, any_machine=False) -> Outcome:
    from litrec.cache import runmemo
    from litrec.verdicts.claims import ClaimStatus

    need_dir(records, "records")
    analysis = Path(analysis) if analysis else Path(records).resolve().parent / "analysis"
    key = None if force else memo_key(records, analysis, results, profile, targets, any_machine)
    kept = runmemo.recall(records, profile, key, data_now(Path(records).resolve().parent))
    try:
        statuses = [ClaimStatus.from_row(r) for r in kept.claims] if kept else None
    except (TypeError, ValueError):  # rows of another shape: never trusted, worked out again
        statuses = None
    if statuses is not None and kept is not None:  # (statuses: from what was kept)
        return Outcome(statuses, [], kept.current, without_profile=kept.without_profile)
    from litrec.runs.executors import ExecutorSpec, prestart  # something may run: workers start now

    spec = ExecutorSpec.of(*executor)
    early = prestart(spec, analysis)
    try:
        return _full(records, analysis, results, profile, targets, spec, force, compile_cache,
                     showing, key, early, any_machine)
    finally:
        if early is not None:
            early.discard()  # closed unless its points were sent


def _full(records, analysis, results, profile, targets, spec, force, compile_cache, showing,
          key, early, any_machine=False) -> Outcome:
    """Load, plan, run what is stale, judge; keep the answer of a run with nothing to run."""
    from litrec.cache import runmemo
    from litrec.runs.plan import plan_run, run_plan
    from litrec.verdicts.claims import claim_statuses, with_scales
    from litrec.verdicts.registration import Registrations
    from litrec.verdicts.status import judged_project

    proj = judged_project(records, analysis, results, profile)
    plan = plan_run(proj, results, profile, targets, force, any_machine)
    failed: list[str] = []
    if plan.todo:
        with showing() as events:
            failed = run_plan(proj, plan, results, profile, events, spec,
                              compile_cache=compile_cache, early=early)
    regs = Registrations(proj, results)  # git history read once, for every scale
    statuses = with_scales(proj, results, claim_statuses(proj, results, profile, plan.claims,
                                                         plan.states, regs), profile, regs)
    if not plan.todo and key is not None:
        inputs = [st.inputs for st in plan.states.values() if st.inputs is not None]
        answer = runmemo.Answer(plan.current, [s.row() for s in statuses],
                                sorted({p for i in inputs for p in i.patterns}),
                                {f: d for i in inputs for f, d in i.data.items()}, plan.without_profile)
        runmemo.keep(records, profile, key, answer,
                     again=lambda: memo_key(records, analysis, results, profile, targets, any_machine))
    ran = [n for n, _ in plan.todo if n not in failed]
    return Outcome(statuses, ran, plan.current, failed, bool(plan.todo), plan.without_profile)
