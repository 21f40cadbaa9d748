"""Load a record collection, resolve its links, and validate it as a whole.

`load_project` never raises for bad input: every problem becomes a
`Diagnostic`, and valid records are kept so later checks still run. The
checking is `litrec.records.validate` (each file with `litrec.records.filecheck`, the rules
between records with `litrec.records.checks`); this adds the records' models, which
the commands that act on the records need.
"""

from __future__ import annotations

from pathlib import Path

from litrec.records.project import Project
from litrec.records.validate import check_collection, default_analysis_dir
from litrec.util.confine import need_dir
from litrec.util.errors import InvalidRecords


def load_project(records_dir: Path, analysis_dir: Path | None = None) -> Project:
    """Load, link and check a collection; never raises for bad input (see the module docstring)."""
    records_dir = Path(records_dir)
    checked = check_collection(records_dir, analysis_dir, use_cache=False, want_models=True)
    proj = Project(records_dir, Path(analysis_dir) if analysis_dir else default_analysis_dir(records_dir))
    proj.records = checked.models
    proj.paths = checked.paths
    proj.edges = checked.edge_list
    proj.registry = checked.registry
    proj.diagnostics = checked.diagnostics
    proj.files = checked.files
    return proj


def load_valid_project(records_dir: Path, analysis_dir: Path | None = None) -> Project:
    """The collection, loaded as `load_project` does, for a command that acts on the records:
    `UsageError` when `records_dir` is not a folder, `InvalidRecords` (every error) when any
    record is invalid."""
    need_dir(records_dir, "records")
    proj = load_project(records_dir, analysis_dir)
    if proj.errors:
        raise InvalidRecords(proj.errors)
    return proj
