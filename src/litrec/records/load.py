"""Load a record collection for a command: `Project.load` (`litrec.records.project`), and the
check every command that acts on the records makes first.

`load_project` never raises for bad input: every problem becomes a `Diagnostic`, and valid
records are kept so later checks still run. `load_valid_project` is the preamble of a command
that acts on the records: a records folder that is there, and no record invalid.
"""

from __future__ import annotations

from pathlib import Path

from litrec.records.project import Project
from litrec.util.confine import need_dir
from litrec.util.errors import InvalidRecords


def load_project(records_dir: Path, analysis_dir: Path | None = None) -> Project:
    """`Project.load`: load, link and check a collection; never raises for bad input."""
    return Project.load(records_dir, analysis_dir)


def load_valid_project(records_dir: Path, analysis_dir: Path | None = None) -> Project:
    """The collection, loaded as `Project.load` does, for a command that acts on the records:
    `UsageError` when `records_dir` is not a folder, `InvalidRecords` (every error) when any
    record is invalid."""
    need_dir(records_dir, "records")
    proj = Project.load(records_dir, analysis_dir)
    if proj.errors:
        raise InvalidRecords(proj.errors)
    return proj
