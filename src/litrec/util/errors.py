"""The errors litrec reports: one message each, never a traceback.

Stage modules raise these; the command layer (`litrec.commands`) prints the
message and turns the class into an exit code: a `UsageError` (the command
line asks for something that cannot be) exits 2, any other `LitrecError`
(the input is bad, or the work failed) exits 1.
"""

from __future__ import annotations


class LitrecError(Exception):
    """A problem litrec reports as one message (exit 1)."""

    exit_code = 1


class UsageError(LitrecError):
    """Bad use of a command: an option, target or folder that cannot be (exit 2)."""

    exit_code = 2


class TargetError(UsageError):
    """A run target names no claim, record or analysis."""


class ProfileError(UsageError):
    """A --profile no analysis defines and no stored result has."""


class ExecutorError(UsageError):
    """The executor cannot start: `distributed` missing, a scheduler out of reach."""


class InputError(LitrecError):
    """The input itself is bad: a file litrec cannot read or accept."""


class DamagedResult(InputError):
    """A result file exists but cannot be read as a result; the message says why."""


class SiteError(LitrecError):
    """The site cannot be built as asked (a clash of pages, an output folder not litrec's)."""


class RunError(LitrecError):
    """An analysis cannot run as declared."""


class SweepError(RunError):
    """A point cannot run as declared: no such profile, a bad SWEEP, a worker that differs."""


class ContractError(RunError):
    """An analysis module does not provide what the analysis contract asks."""


class Unconvertible(InputError):
    """A BibTeX entry that cannot become a literature record; the message says why."""


class EncodingProblem(InputError):
    """A file in a text encoding litrec cannot tell for certain; the message says which it expects."""


class AnalysisExited(RunError):
    """An analysis called sys.exit or raised KeyboardInterrupt itself: a failure, not a pass."""


class ResultsUnwritable(RunError):
    """The results folder cannot be written; found before computing, or what was computed is kept."""


class ResultsLocked(RunError):
    """Another litrec run holds an analysis's results (its lock file) at the moment."""


class InputsChanged(RunError):
    """An analysis's inputs are not known (a module loaded by a computed name, a declared data
    file missing) or changed between being hashed and being used; nothing is stored."""


class UndeclaredInput(RunError):
    """An analysis read a file or imported a module inside the project that its result's
    inputs do not hold (`litrec.analyses.observe`); nothing is stored."""


class InvalidRecords(InputError):
    """The records have errors (`diagnostics`, sorted by place): a command that acts on the
    records refuses them; the command layer prints each, then this message (exit 1)."""

    def __init__(self, diagnostics: list):
        self.diagnostics = sorted(diagnostics, key=lambda d: (d.path, d.line, d.col))
        n = len(self.diagnostics)
        super().__init__(f"the records have {n} error{'s' * (n != 1)}; fix them first "
                         "(litrec validate)")


class NotCreated(InputError):
    """`litrec new` cannot write what was asked: the id or name exists, or the record a claim
    is added to does not; the message says which (exit 1)."""
