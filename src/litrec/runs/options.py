"""What `litrec run` was asked to do, as one value: `RunOptions`, built once by the command.

The command turns its parsed arguments into a `RunOptions` (`RunOptions.of`) and hands it to
`litrec.runs.reproduce.reproduce`; the memo key, the plan (`litrec.runs.plan.plan_run`), the
running of the plan and the runner's jobs read the fields they need from it, by name, instead
of a list of positions each. Where the points go is the `ExecutorSpec` it holds, worked out
once too (`--jobs` missing: one worker per usable core).

Both are frozen: no stage changes what an earlier one read. This module imports nothing of the
executors themselves, so a run answered from the run memo (`litrec.cache.runmemo`) starts no
process pool and imports none of its machinery.

The profile's name is checked where it is parsed (`litrec.commands.common.profile_name`:
lower-case letters, digits and '_'), and whether an analysis defines it or a result has it
once, where the project is loaded for judging (`litrec.verdicts.status.judged_project`).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from litrec.util.confine import need_dir
from litrec.util.cores import usable_cores


def default_jobs() -> int:
    """One worker per usable core (`litrec.util.cores`)."""
    return usable_cores()


@dataclasses.dataclass(frozen=True)
class ExecutorSpec:
    """Where the points of a run go: the executor's kind, its workers (`--jobs`, else one per
    CPU: worked out once, in `of`) and the dask scheduler to use (None: litrec starts one).
    The command builds it once, inside its `RunOptions`; the runner, the layout and the
    warm-up read it, and `litrec.runs.executors.start_executor` starts its executor."""

    kind: str = "local"
    workers: int = 1
    scheduler: str | None = None

    @classmethod
    def of(cls, kind: str = "local", jobs: int | None = None,
           scheduler: str | None = None) -> ExecutorSpec:
        """The spec of the options as given (`jobs` None: one worker per CPU)."""
        return cls(kind, jobs or default_jobs(), scheduler)

    @property
    def parallel(self) -> bool:
        """Whether any analysis's points may go to workers (`sends`, for one of several points):
        on dask always, locally with several workers."""
        return self.sends(2)

    def sends(self, n_points: int) -> bool:
        """The one rule of whether an analysis's points go to workers: on dask every
        analysis's; on the local executor those of an analysis of several points, when
        there are several workers (an analysis of one point runs in litrec's process)."""
        return self.kind == "dask" or (n_points > 1 and self.workers > 1)


@dataclasses.dataclass(frozen=True, kw_only=True)
class RunOptions:
    """Everything a `litrec run` was asked, worked out: its folders, profile, targets, where
    its points go, and how it runs. Passed down whole; each stage reads what it needs."""

    records: Path                    # the records folder (--records), as given
    analysis: Path                   # the analysis folder: --analysis, else beside the records
    results: Path                    # the results folder (--results)
    profile: str | None              # --profile; None: the project's smallest scale (`reproduce`)
    targets: tuple[str, ...] = ()    # claim refs, record ids or analysis names; () means all
    executor: ExecutorSpec = dataclasses.field(default_factory=ExecutorSpec.of)  # one per CPU
    force: bool = False              # rerun current results too, from scratch (--force)
    compile_cache: bool = True       # JAX's compile cache on (not --no-compile-cache)
    any_machine: bool = False        # leave alone a result stale only for another CPU (--any-machine)

    def __post_init__(self) -> None:
        object.__setattr__(self, "targets", tuple(self.targets))  # frozen through and through

    @property
    def chosen_profile(self) -> str:
        """The profile the plan and the runner run: chosen by `reproduce` before they start."""
        if self.profile is None:
            raise ValueError("no profile chosen: reproduce chooses the smallest scale before planning")
        return self.profile

    @classmethod
    def of(cls, *, records: Path, analysis: Path | None, results: Path, profile: str | None,
           targets=(), executor: ExecutorSpec | None = None, force: bool = False,
           compile_cache: bool = True, any_machine: bool = False) -> RunOptions:
        """The options as given worked out: `analysis` None is the `analysis` folder beside
        the records folder; `executor` None is the local executor, one worker per CPU.
        `UsageError` when `records` is not a folder."""
        need_dir(records, "records")  # before its parent is worked out
        return cls(records=Path(records),
                   analysis=Path(analysis) if analysis else Path(records).resolve().parent / "analysis",
                   results=Path(results), profile=profile, targets=tuple(targets),
                   executor=executor or ExecutorSpec.of(), force=force,
                   compile_cache=compile_cache, any_machine=any_machine)
