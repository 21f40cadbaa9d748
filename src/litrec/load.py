"""Load a record collection, resolve its links, and validate it as a whole.

`load_project` never raises for bad input: every problem becomes a
`Diagnostic`, and valid records are kept so later checks still run. Parsing
is `litrec.discover`, schema errors are taught by `litrec.explain`, and the
rules between records are `litrec.checks`.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from litrec.checks import (
    check_acyclic,
    check_anthology,
    check_claims,
    check_supersedes,
    resolve_links,
)
from litrec.confine import project_root
from litrec.diagnostics import Diagnostic
from litrec.discover import id_position, parse_all, scan_records
from litrec.explain import check_id, validate_record
from litrec.project import Project
from litrec.registry import load_registry


def default_analysis_dir(records_dir: Path) -> Path:
    """`analysis/` beside the records folder."""
    return records_dir.resolve().parent / "analysis"


def load_project(records_dir: Path, analysis_dir: Path | None = None) -> Project:
    """Load, link and check a collection; never raises for bad input (see the module docstring)."""
    records_dir = Path(records_dir)
    proj = Project(records_dir, Path(analysis_dir) if analysis_dir else default_analysis_dir(records_dir))
    diags = proj.diagnostics
    raw_ids: dict[str, list[Path]] = defaultdict(list)
    unreadable: set[str] = set()
    files, skipped = scan_records(records_dir)
    for path, message, code, severity in skipped:
        diags.append(Diagnostic(proj.display(path), 1, 1, "", message, code, severity))
    proj.files = len(files)
    top = project_root(records_dir)
    for path, data, root, problem in parse_all(files, top):
        shown = proj.display(path)
        if problem is not None:
            line, col, message, code, field = problem
            diags.append(Diagnostic(shown, line, col, field, message, code))
            unreadable.add(path.stem)  # links to it are not reported again: it is reported here
            continue
        rid = data.get("id")
        if isinstance(rid, str):
            raw_ids[rid.strip()].append(path)
        rec = validate_record(data, root, shown, diags)
        if rec is None:
            continue
        check_id(rec, path, root, shown, diags)
        if rec.id in proj.records:
            continue  # duplicate, reported below
        proj.records[rec.id] = rec
        proj.paths[rec.id] = path
        proj.roots[rec.id] = root

    for rid, paths in raw_ids.items():
        if len(paths) > 1:
            first = proj.display(paths[0])
            for p in paths[1:]:
                diags.append(Diagnostic(
                    proj.display(p), *id_position(p, top), "id",
                    f"duplicate id '{rid}', already used by {first}; give each record its own id",
                    "duplicate-id", record=rid))

    proj.registry = load_registry(proj.analysis_dir, diags, proj.display)
    known = set(raw_ids) | unreadable
    resolve_links(proj, known)
    check_claims(proj)
    check_acyclic(proj)
    check_supersedes(proj)
    check_anthology(proj)
    for rid in sorted(proj.records):
        rec = proj.records[rid]
        if rec.partial:
            src = f" (named in {rec.known_from})" if rec.known_from else ""
            diags.append(Diagnostic(
                proj.display(proj.paths[rid]), 1, 1, "",
                f"{rid} is a partial record: known by reference{src}, content held elsewhere",
                "partial", "info", rid))
    return proj
