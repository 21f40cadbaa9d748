"""What the kept answers of `litrec.cache` (the run memo, the suspect-link memo) are keyed on
and checked against, worked out from the analyses' inputs model: `memo_key` for a no-op
run's answer, `data_now` for what the declared data patterns match now."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def memo_key(records: Path, analysis: Path, results: Path, profile: str, targets: list[str],
             any_machine: bool = False, known: dict[str, tuple] | None = None) -> str | None:
    """The key of a no-op run's kept answer (`litrec.cache.runmemo.inputs_key`), with what
    every result shares worked out here: the interpreter, the numerics environment variables
    and the instruction set (`litrec.analyses.inputs.environment`), the source digest of
    every editable install (`litrec.analyses.packages.editable_digests`), and the allowed
    signers, which decide whether a signed result reads signed or bad (`litrec.util.signers.signers_key`),
    and the value of every environment variable a module of the analysis folder declares in ENV
    (`litrec.analyses.environ.declared_in_folder`). `known`: the keys of the record files read
    in this process, by path inside `records` (`litrec.cache.runmemo.inputs_key`)."""
    from litrec.analyses.environ import declared_in_folder
    from litrec.analyses.inputs import environment
    from litrec.analyses.packages import editable_digests
    from litrec.cache import runmemo
    from litrec.util.signers import signers_key

    declared = declared_in_folder(analysis)  # beside the others only where declared: keys as before
    return runmemo.inputs_key(records, analysis, results, profile, targets,
                              [environment(), editable_digests(), signers_key(Path(records).resolve().parent),
                               *([declared] if declared else [])],
                              any_machine, known)


def data_now(project: Path) -> Callable[[list[str]], dict]:
    """What the declared data patterns match now (`litrec.analyses.datafiles.data_files`), for the
    kept answers of `litrec.cache` (run memo, suspect links); ValueError where a pattern cannot
    be read."""
    from litrec.analyses.datafiles import data_files

    def now(patterns: list[str]) -> dict:
        files, problems = data_files(project, patterns)
        if problems:
            raise ValueError("; ".join(map(str, problems)))
        return files
    return now
