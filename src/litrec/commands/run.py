"""`litrec run`: rerun the analyses whose results are stale or missing, then judge every claim."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from litrec.commands.common import (
    console,
    format_arg,
    positive_int,
    profile_arg,
    records_args,
    results_arg,
    stdout_to_stderr,
)
from litrec.util.errors import UsageError
from litrec.util.safetext import safe_text
from litrec.verdicts.claims import ClaimStatus, result_problems


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("run", help="rerun stale analyses and give every claim a verdict",
                       description="Rerun the analyses whose results are stale (or missing) and "
                       "evaluate every claim's expectations. Exit 1 when a claim is not reproduced, "
                       "or its expectations changed since its result ran (a plain run does not "
                       "rerun a current result for that: --force does, and judges it); a claim's "
                       "extension row (REF+ext) never. A result stale only because another CPU "
                       "computed it is kept as it is unless --rerun-other-machine. Before a run "
                       "that the stored timings of the last runs say takes over a minute, one line "
                       "says about how long; on standard error piped to a file (a log, CI), a line "
                       "per point finished (time elapsed, about how long is left) replaces the "
                       "progress bar.")
    p.add_argument("targets", nargs="*", metavar="TARGET",
                   help="claim refs (ARXIV-2212.07677#P1), record ids or analysis names; none means all")
    profile_arg(p, "analysis profile: quick (seconds) or another one the analysis defines (default: "
                "the project's smallest scale, paper for the seed paper; see Scales in "
                "site/writing-analyses.md)")
    p.add_argument("--force", action="store_true", help="rerun even when the result is current, from scratch "
                   "(no kept seeds, no checkpoints)")
    p.add_argument("--allow-not-reproduced", action="store_true",
                   help="exit 0 even when a claim is not reproduced or its expectations changed "
                   "since the run (a smoke run of the quick profile, whose small settings need "
                   "not meet the paper's tolerances); a failing analysis still exits 1")
    results_arg(p)
    p.add_argument("--executor", choices=("local", "dask"), default="local",
                   help="where the points of sweeps run: local worker processes, or a "
                   "dask.distributed cluster (default: local)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="with --executor dask: the scheduler to use, e.g. tcp://host:8786 "
                   "(default: a LocalCluster on this machine)")
    p.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                   help="worker processes of the local executor or of the LocalCluster "
                   "(default: the number of CPUs)")
    p.add_argument("--rerun-other-machine", "--here", action="store_true",
                   help="recompute here a result computed on a CPU with other features or with "
                   "another number of usable cores, its inputs otherwise unchanged; without it "
                   "(or --force) such a result is kept as it is: its numbers stand, shown stale "
                   "and not judged, and one line names them with the command that recomputes "
                   "them and about how long that would take (their recorded run times)")
    p.add_argument("--any-machine", action="store_true",
                   help="keep a result computed on another machine as it is: the default, the "
                   "flag kept for the scripts that pass it (make site)")
    p.add_argument("--no-compile-cache", action="store_true",
                   help="compile JAX programs afresh, neither loading nor keeping them in "
                   ".litrec-cache/jax/ (LITREC_NO_CACHE=1 turns every cache of litrec off)")
    records_args(p)
    format_arg(p)


def _plain(text) -> str:
    """Text from an analysis or the records, shown as it is (not read as rich markup), made safe."""
    from rich.markup import escape

    return escape(safe_text(str(text)))


def _printed(profile: str, bar, plain: bool = False):
    """The run's progress on standard error: a line per analysis and a progress bar; `plain`
    (standard error is not a terminal: a log file, CI), a line per point finished instead of
    the bar, which would print only at the end."""
    import time

    from litrec.runs.plan import Events, point_progress_words
    from litrec.verdicts.elsewhere import duration_words

    class _Printed(Events):

        def __init__(self, profile: str, bar):
            self.profile, self.bar, self.out = profile, bar, bar.console if bar else console(True)
            self.task = None
            self.sent: float | None = None  # when points were sent to the executor

        def executor(self, n_points: int, n_analyses: int, where: str) -> None:
            self.sent = time.monotonic()
            self.out.print(_plain(f"{n_points} points of {n_analyses} "
                                  f"analys{'is' if n_analyses == 1 else 'es'} to {where}"))

        def estimated(self, seconds: float, unknown: list[str]) -> None:
            none = f"; none stored for {', '.join(unknown)}" if unknown else ""
            self.out.print(_plain(f"about {duration_words(seconds)} (from the stored timings of "
                                  f"the last runs{none})"))

        def started(self, name: str, why: str, n_points: int, kept: int = 0):
            label = _plain(f"{name} [{self.profile}]")
            self.task = task = self.bar.add_task(label, total=1.0)
            points = f" ({n_points} points)" if n_points > 1 else ""
            self.out.print(_plain(f"running {name} ({self.profile}): {why}{points}"))
            t0 = self.sent if self.sent is not None else time.monotonic()

            def progress(done, total, description=""):
                self.bar.update(task, completed=done / max(total, 1),
                                description=f"{label} {_plain(description)}".rstrip())
                if plain and n_points > 1:  # a line per point finished (an analysis's own steps: none)
                    self.out.print(_plain(point_progress_words(f"{name} [{self.profile}]", done, total,
                                                               time.monotonic() - t0, kept)))

            return progress

        def finished(self, name: str, payload: dict) -> None:
            self.bar.update(self.task, completed=1.0)
            self.out.print(f"  {_plain(name)}: {payload['wall_time_s']:.1f} s")
            if payload.get("hermetic") is False:  # litrec.runs.sandbox: the note says why
                why = next((n for n in payload.get("notes", []) if str(n).startswith("not hermetic")), "")
                self.out.print("[yellow]  " + _plain(why.partition(";")[0] or "not hermetic on this machine"))

        def failed(self, name: str, message: str, log: Path | None) -> None:
            where = f" (traceback in {log})" if log else ""
            self.out.print("[red]" + _plain(f"analysis {name} failed: {message}{where}; its previous "
                                            "result is kept"))

        def interrupted(self, name: str) -> None:
            self.out.print("[red]" + _plain(f"interrupted: {name}; its previous result is kept"))

        def warned(self, name: str, message: str) -> None:
            self.out.print("[yellow]" + _plain(f"warning: {name}: {message}"))

    return _Printed(profile, bar)


def run(args) -> int:
    """Parse, build the run's options once (`litrec.runs.options.RunOptions`), call
    `litrec.runs.reproduce.reproduce`, print the verdicts; exit 1 on a failure or a
    claim not reproduced. A run with nothing to run whose inputs are all as they were at the
    last such run prints that run's verdicts (`litrec.cache.runmemo`) without reading the records."""
    if args.scheduler and args.executor != "dask":
        raise UsageError("--scheduler names a dask scheduler; add --executor dask")
    if args.scheduler and args.jobs:
        raise UsageError("--jobs sizes the executor litrec starts; a cluster at --scheduler "
                         "has the workers it was given")
    if args.any_machine and args.rerun_other_machine:
        raise UsageError("--any-machine keeps the results of another machine, --rerun-other-machine "
                         "recomputes them: give one")
    from litrec.runs.options import ExecutorSpec, RunOptions
    from litrec.runs.reproduce import reproduce

    options = RunOptions.of(records=args.records, analysis=args.analysis, results=args.results,
                            profile=args.profile, targets=args.targets,
                            executor=ExecutorSpec.of(args.executor, args.jobs, args.scheduler),
                            force=args.force, compile_cache=not args.no_compile_cache,
                            any_machine=not args.rerun_other_machine)
    with stdout_to_stderr(args.format == "json"):  # standard output is for the JSON alone
        out = reproduce(options, showing=lambda profile: _showing(args, profile))
    args.profile = out.profile  # the one chosen where none was asked
    return _report(args, out.statuses, out.ran, out.current, out.failed, out.ran_any, out.without_profile)


@contextlib.contextmanager
def _showing(args, profile: str):
    """The run's progress on standard error (none with --format json): its events, with a bar
    on a terminal, else (a log file, CI) a plain line per point finished."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    out = console(stderr=True)
    plain = not out.is_terminal  # piped: plain lines, never a bar printed only at the end
    with Progress(TextColumn("{task.description}"), BarColumn(),
                  TextColumn("{task.percentage:>3.0f}%"), TimeElapsedColumn(),
                  console=out, transient=False, disable=args.format == "json" or plain) as bar:
        yield _printed(profile, bar, plain)


def _report(args, statuses: list[ClaimStatus], ran: list[str], current: list[str],
            failed: list[str], ran_any: bool, without_profile: Sequence[str] = ()) -> int:
    """Print the verdicts (and what ran) as the format asks; the exit code."""
    from litrec.verdicts.elsewhere import Elsewhere, said_once

    # results of another machine, kept as they are (not asked to rerun them): said once
    kept = None if args.rerun_other_machine or args.force else Elsewhere.of_statuses(args.profile, statuses)
    if args.format == "json":
        print(json.dumps({
            "profile": args.profile,
            "ran": ran,
            "current": current,
            "failed": failed,
            "without_profile": list(without_profile),
            "other_machine": list(kept.analyses) if kept else [],
            "claims": [s.row() for s in statuses],
        }, indent=2, default=str))
    else:
        if without_profile:
            print(f"litrec run: note: not run, no profile '{args.profile}' in their PROFILES: "
                  f"{', '.join(without_profile)}", file=sys.stderr)
        if not ran_any:
            print(_nothing_to_run(args.profile, current, kept), file=sys.stderr)
        from litrec.verdicts.terminal import print_table  # rich: text output only

        print_table(said_once(statuses) if kept else statuses, args.profile)
        if kept:
            print(f"litrec run: {kept.kept_words(tuple(args.targets))}", file=sys.stderr)
    errors, warnings = result_problems(statuses)
    for line in [f"warning: {w}" for w in warnings] + [f"error: {e}" for e in errors]:
        print(f"litrec run: {line}", file=sys.stderr)
    bad = [s for s in statuses if s.verdict in ("error", "modified")
           or (s.verdict in ("not reproduced", "expectation changed")
               and not args.allow_not_reproduced and s.extension_of is None)]  # `+ext`: beside it
    if args.format == "text":
        _why(statuses, args, failed)
    return 1 if bad or failed else 0


def _nothing_to_run(profile: str, current: list[str], kept) -> str:
    """`nothing to run: 3 analyses current for profile 'paper'`, and the results of another
    machine kept as they are, where there are some (never `0 analyses current` alone)."""
    now = f"{len(current)} analys{'is' if len(current) == 1 else 'es'} current"
    if kept is None:
        return f"nothing to run: {now} for profile '{profile}'"
    machine = "CPU" if kept.kinds == ("cpu",) else "machine"
    them = "it is" if len(kept.analyses) == 1 else "they are"
    return (f"nothing to run: {kept.count()} of another {machine} kept as {them}"
            f"{', ' + now if current else ''} for profile '{profile}'")


def _why(statuses, args, failed: list[str]) -> None:
    """One closing line naming what did not hold, and the command that shows why."""
    names = [s.claim for s in statuses if s.verdict in ("not reproduced", "inconclusive",
                                                         "error", "modified")]
    if failed:
        print(f"failed: {', '.join(failed)} (see the messages above)", file=sys.stderr)
    if names:
        print(f"not reproduced or undecided: {', '.join(names)}; why: litrec status --profile "
              f"{args.profile} --verbose", file=sys.stderr)
    changed = [s for s in statuses if s.verdict == "expectation changed"]
    if changed:  # a plain run reruns what is stale, not what is judged on changed expectations
        runs = sorted({f"litrec run {s.analysis} --profile {args.profile} --force" for s in changed})
        print(f"expectation changed, not judged: {', '.join(s.claim for s in changed)}; judge it "
              f"on a fresh run: {'; '.join(runs)}", file=sys.stderr)
