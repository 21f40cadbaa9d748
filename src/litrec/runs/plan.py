"""Planning and carrying out a run: which analyses are stale, and running them in turn.

`plan_run` decides what a `litrec run` will compute (every analysis whose result is
not current, or all of them with `--force`); `run_plan` locks each results folder,
sends the points to one executor and writes each result whole with
`litrec.runs.runner`, telling its caller what happens through `Events` (first, where the
stored timings of what will run add up to more than a minute, about how long: `estimate`). Both read the
run's `litrec.runs.options.RunOptions` (folders, profile, targets, the executor's spec).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from litrec.analyses.inputs import Inputs, result_inputs
from litrec.records.project import Project
from litrec.results import ledger
from litrec.results.state import ResultState, result_state, result_states
from litrec.results.store import locked, write_error_log
from litrec.runs import interrupt
from litrec.runs.options import ExecutorSpec, RunOptions
from litrec.runs.points import lay_out_remotely
from litrec.runs.runner import Job, PointFailed, finish, keep_partials, mark_started, prepare, submit, unmark_failed
from litrec.runs.targets import resolve_targets
from litrec.util.errors import AnalysisExited, InputsChanged, ResultsLocked, ResultsUnwritable, RunError
from litrec.verdicts.claims import claim_statuses
from litrec.verdicts.elsewhere import duration_words

if TYPE_CHECKING:  # the executors' machinery is imported only once a point is sent
    from litrec.runs.executors import Executor


@dataclasses.dataclass
class Plan:
    """What a run will do: the analyses to run (with why) and the states of the others."""

    todo: list[tuple[str, str]]
    states: dict[str, ResultState]
    claims: set[str] | None
    without_profile: list[str] = dataclasses.field(default_factory=list)  # not run: no such profile

    @property
    def current(self) -> list[str]:
        """The analyses left alone because their results are current."""
        done = {n for n, _ in self.todo}
        return [n for n, st in self.states.items() if n not in done and st.current]


def plan_run(proj: Project, options: RunOptions) -> Plan:
    """Decide which analyses to run: those whose results are not current (all, with
    `options.force`). With `options.any_machine` (what `litrec run` asks unless
    `--rerun-other-machine`), a result stale only because it was computed on another CPU is
    left as it is (still shown stale, never re-stamped), unless a rerun of its present inputs
    is under way on this CPU (`ResultState.rerun_here`): that one goes on. Run for every
    analysis (no `options.targets`), one whose PROFILES lack the profile is not run
    (`without_profile`): `--profile paper_full` runs the analyses that have one; named as a
    target, it fails saying so."""
    profile, targets, force = options.chosen_profile, list(options.targets), options.force
    names, claims = resolve_targets(proj, targets)
    declared = proj.registry.profiles if proj.registry is not None else {}
    without = [] if targets else [n for n in names
                                  if (has := declared.get(n)) is not None and profile not in has]
    states = result_states(proj.registry, options.results, [n for n in names if n not in without], profile)
    todo = []
    for name, st in states.items():
        kept = options.any_machine and st.other_machine and not st.rerun_here
        if (st.current or kept) and not force:
            continue
        why = {"current": "forced", "missing": "no result"}.get(st.state, st.reason or st.state)
        todo.append((name, why))
    return Plan(todo, states, claims, without)


class Events:
    """What a run tells its caller as it goes; the command layer prints it. Defaults: silence."""

    def executor(self, n_points: int, n_analyses: int, where: str) -> None:
        """Points are being sent to an executor."""

    def estimated(self, seconds: float, unknown: list[str]) -> None:
        """Before anything runs, when the stored timings of what will run add up to more than
        a minute (`estimate`): about how long, and the analyses with no timing stored."""

    def started(self, name: str, why: str, n_points: int, kept: int = 0) -> Callable | None:
        """An analysis starts (`kept` of its points kept from an interrupted run, not run
        again); may return a `progress(done, total, description)` callback."""
        return None

    def finished(self, name: str, payload: dict) -> None:
        """An analysis finished and its result was written."""

    def failed(self, name: str, message: str, log: Path | None) -> None:
        """An analysis failed; its previous result is kept and its traceback is in `log`
        (None: there is no traceback to keep)."""

    def interrupted(self, name: str) -> None:
        """The run was interrupted while this analysis ran."""

    def warned(self, name: str, message: str) -> None:
        """Something of this analysis was mended on the way, and the user should know (a torn
        last line dropped from its ledger)."""


def run_plan(proj: Project, plan_: Plan, options: RunOptions, events: Events,
             early=None) -> list[str]:
    """Run every analysis of the plan and write its result; return the names that failed.

    Where points may go to workers (`options.executor`, the run's one `ExecutorSpec`), the
    server they fork from starts first (`executors.warm`; `early`: what `executors.prestart`
    started); `options.compile_cache` False runs without JAX's compile cache, and
    `options.force` from scratch (no kept points, no checkpoints).

    Each analysis's results folder is checked and locked before anything is
    computed (ResultsUnwritable when one cannot be written). SIGINT and SIGTERM
    stop the run (`interrupt.Interrupted`), stopping the workers and leaving every
    result whole. Afterwards `plan_.states` holds the new state of each analysis that ran.
    """
    from litrec.runs.executors import warm  # not on a no-op run's path

    results_dir, profile, spec = options.results, options.chosen_profile, options.executor
    failed: list[str] = []

    def fail(name: str, exc: BaseException, log: bool = True) -> None:
        failed.append(name)
        path = write_error_log(results_dir, name, profile, traceback.format_exc()) if log else None
        what = str(exc) if isinstance(exc, PointFailed) else f"{type(exc).__name__}: {exc}"
        events.failed(name, what, path)

    with interrupt.handling(), contextlib.ExitStack() as locks:
        prepared: dict[str, Job] = {}
        fps = {name: fp for name, _ in plan_.todo
               if (fp := _inputs(proj, plan_.states[name], options.force)) is not None}
        early = warm(spec, any(fp.uses_jax for fp in fps.values()), early) if fps else early
        if early is not None:
            locks.callback(early.discard)  # closed on the way out unless its points were sent
        for name, _ in plan_.todo:  # every folder checked before any work, then the inputs
            try:
                locks.enter_context(locked(results_dir, name))
            except ResultsLocked as exc:
                fail(name, exc, log=False)
                continue
            if name not in fps:  # its stored result is damaged: replaced only when asked
                fail(name, RunError(f"analysis '{name}': its stored result is damaged; rerun: litrec run "
                                    f"{name} --profile {profile} --force"), log=False)
            elif fps[name].problems:
                fail(name, InputsChanged(f"analysis '{name}': " + "; ".join(fps[name].problems)),
                     log=False)
        executor, layouts = lay_out_remotely(proj, [n for n, _ in plan_.todo if n not in failed],
                                             profile, spec, early)
        try:
            for name, _ in plan_.todo:
                if name in failed:
                    continue
                try:
                    lay = interrupt.result(layouts[name]) if name in layouts else None
                    prepared[name] = prepare(proj, name, fps[name], options, lay,
                                             executor.size() if executor is not None and name in layouts
                                             else 1)
                    if not options.force:
                        keep_partials(prepared[name], results_dir)
                    mark_started(prepared[name], results_dir)
                except Exception as exc:  # a bad profile or SWEEP: say so, go on
                    fail(name, exc)
            seconds, unknown = estimate(prepared, plan_.states,
                                        executor.size() if executor is not None else spec.workers, spec)
            if seconds > ESTIMATE_FROM:
                events.estimated(seconds, unknown)
        except BaseException:
            if executor is not None:
                executor.close(wait=False)
            raise
        _run_prepared(proj, plan_, prepared, options, events, fail, early, executor)
    return failed


ESTIMATE_FROM = 60.0  # seconds: a run the stored timings say is shorter gets no estimate


def point_progress_words(label: str, done: int, total: int, elapsed: float, kept: int = 0) -> str:
    """`prop3 [paper_full] 3/8 points, 41 min elapsed, about 27 min left`: a line per point
    finished, for a log; what is left at the pace of the points run in this sitting (`kept`
    of the `done` were kept from an interrupted run, not run again)."""
    ran = done - kept
    left = f", about {duration_words(elapsed / ran * (total - done))} left" if ran > 0 and done < total else ""
    return f"{label} {done}/{total} points, {duration_words(elapsed)} elapsed{left}"


def estimate(prepared: dict[str, Job], states: dict[str, ResultState], workers: int,
             spec: ExecutorSpec) -> tuple[float, list[str]]:
    """About how many seconds the prepared jobs take, from the stored timings of their last
    runs (`stored_seconds`; the points a job keeps from an interrupted run left out), and the
    analyses with no timing stored (no result yet), in the plan's order."""
    total, unknown = 0.0, []
    for name, job in prepared.items():
        stored = states[name].result if name in states else None
        seconds = stored_seconds(job, stored, workers if spec.sends(len(job.points)) else 1)
        if seconds is None:
            unknown.append(name)
        else:
            total += seconds
    return total, unknown


def _seconds(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0


def stored_seconds(job: Job, stored: dict | None, workers: int) -> float | None:
    """How long `job` takes from its stored result's timings: where each point recorded its own
    time (one point per grid entry, as the job's), the points left to run summed and shared by
    `workers`; else the result's wall time, in proportion to the points left. None where the
    result stored no time."""
    if not isinstance(stored, dict) or not job.points:
        return None
    todo = [i for i in range(len(job.points)) if i not in job.kept]
    points = stored.get("points")
    if job.points[0].seeds is None and isinstance(points, list) and len(points) == len(job.points) \
            and all(isinstance(p, dict) and _seconds(p.get("wall_time_s")) for p in points):
        return sum(points[i]["wall_time_s"] for i in todo) / max(1, min(workers, len(todo)))
    wall: Any = stored.get("wall_time_s")
    return wall * len(todo) / len(job.points) if _seconds(wall) else None


def _inputs(proj: Project, state: ResultState, force: bool) -> Inputs | None:
    """The inputs a run of the analysis computes from: its state's. Where its stored result is
    damaged (it does not read: the state holds none), worked out now with `force`, which replaces
    the result; else None, and the damaged file is left as it is."""
    if state.inputs is not None:
        return state.inputs
    if not force:
        return None
    if state.name not in proj.registry.entries:
        raise RunError(f"analysis '{state.name}' is not in the registry")  # a plan names only its entries
    return result_inputs(proj.registry, state.name, state.profile)


def _run_prepared(proj, plan_, prepared, options: RunOptions, events, fail, early=None,
                  executor: Executor | None = None) -> None:
    """Send the prepared jobs to an executor (the one given, or one of `options.executor`
    started now), or run them here, and write their results; the executor is closed at the end."""
    from litrec.runs.executors import start_executor  # not on a no-op run's path

    results_dir, profile, spec = options.results, options.chosen_profile, options.executor
    sent = [j for j in prepared.values() if spec.sends(len(j.points))]
    try:
        if sent:
            n_points = sum(len(j.points) for j in sent)
            if executor is None:
                executor = early.take() if early is not None else start_executor(spec, n_points)
            events.executor(n_points, len(sent), executor.describe())
            with executor.holding():  # a free worker chooses among every job's points
                for job in sent:
                    submit(job, executor)
        for name, why in plan_.todo:
            interrupt.check()
            if name not in prepared:
                continue
            job = prepared[name]
            progress = events.started(name, why, len(job.points), len(job.kept))
            try:
                payload = finish(job, results_dir, executor, progress)
            except Exception as exc:  # an analysis bug: say so, keep the old result, go on
                unmark_failed(job, results_dir)
                fail(name, exc)
                continue
            except BaseException as exc:  # sys.exit in an analysis is a failure, Ctrl-C a stop
                why_stopped = interrupt.stray(exc)
                if why_stopped is None:
                    events.interrupted(name)
                    raise
                unmark_failed(job, results_dir)
                fail(name, AnalysisExited(why_stopped))
                continue
            plan_.states[name] = result_state(proj.registry, results_dir, name, profile,
                                              fp=job.fp)
            try:
                with interrupt.deferred():  # a Ctrl-C waits until the judgement is recorded
                    ledger.record(proj, results_dir, name, profile, plan_.states[name],
                                  job.expectations,
                                  claim_statuses(proj, results_dir, profile,
                                                 only=set(job.expectations),
                                                 states={name: plan_.states[name]}),
                                  warn=functools.partial(events.warned, name))
            except OSError as exc:  # the result is written; its judgement could not be kept
                fail(name, ResultsUnwritable(f"cannot append to the ledger of '{name}' "
                                             f"({exc.strerror or exc}): the result is written, "
                                             "its judgement is not recorded"))
            events.finished(name, payload)
            interrupt.check()  # a Ctrl-C held back while the result was written
    except BaseException:
        if executor is not None:
            executor.close(wait=False)  # stop the workers now: none is left running
            executor = None
        raise
    finally:
        if executor is not None:
            executor.close()

