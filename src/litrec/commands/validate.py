"""`litrec validate`: check every record, link and claim; report all problems at once."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from litrec.commands.common import (
    EXIT_INVALID,
    EXIT_OK,
    format_arg,
    need_dir,
    records_args,
)
from litrec.records.validate import check_collection


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("validate", help="check every record, link and claim; report all problems",
                       description="Check every record, link and claim; report all problems at once "
                       "as path:line:col: message. Exit 0 when valid, 1 when any record is invalid.")
    records_args(p)
    p.add_argument("--results", type=Path, default=None, metavar="DIR",
                   help="the results folder whose files must be as litrec wrote them "
                   "(default: results beside the records folder, when there is one)")
    format_arg(p)
    p.add_argument("--quiet", action="store_true", help="print errors only, not warnings or notes")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="also print every information note (partial records, known by reference)")
    p.add_argument("--strict", action="store_true",
                   help="warnings count as errors (a suspect link, a file that is not a record): "
                   "exit 1")


QUIET_CODES = ("partial", "unreviewed")  # notes of a state the owner chose: printed with --verbose only


def _reviews(args, results: Path, proj) -> list:
    """Suspect links, when the project keeps a review file (reviews.yaml): a warning each at the
    link, an information note for each link never reviewed; empty without the file or with
    records that have errors (they are reported first)."""
    from litrec.records.suspect import link_reviews, read_reviews, reviews_path

    path = reviews_path(args.records)
    if not path.exists() or proj.errors:
        return []
    from litrec.util.diagnostics import Diagnostic, PathDisplay, format_field
    from litrec.records.load import load_project
    from litrec.records.yamlsafe import LazyRoot, locate

    stored, problem = read_reviews(path)
    display = PathDisplay()
    if problem is not None:
        proj.diagnostics.append(Diagnostic(display(path), 1, 1, "", problem, "reviews", "warning"))
        return []
    full = load_project(args.records, args.analysis)
    links = link_reviews(full, results, reviews=stored)
    strict = " (an error with --strict)" if not args.strict else ""
    for r in links:
        if r.state == "reviewed":
            continue
        file = full.paths[r.holder]
        line, col = locate(LazyRoot(str(file)), r.loc)
        if r.state == "suspect":
            msg = (f"suspect: {r.record} rests on {r.target} ({r.rel}), which moved since "
                   f"{r.record} was last reviewed: {'; '.join(r.moved)}. Read it again, then "
                   f"`litrec review {r.record}`{strict}")
            severity = "error" if args.strict else "warning"
        else:
            msg = (f"{r.record} rests on {r.target} ({r.rel}) and was never reviewed against it; "
                   f"`litrec review {r.record}` records what it rests on now")
            severity = "info"
        proj.diagnostics.append(Diagnostic(display(file), line, col, format_field(r.loc), msg,
                                           r.state, severity, record=r.record))
    return links


def _as_error(d):
    import dataclasses

    return dataclasses.replace(d, severity="error")


def run(args) -> int:
    """Validate and print every problem; exit 1 when any record is invalid."""
    need_dir(args.records, "records")
    if args.analysis is not None:  # named: it must be there (without, a records-only repository may lack it)
        need_dir(args.analysis, "analysis")
    proj = check_collection(args.records, args.analysis, use_cache=args.cache)
    if proj.cache_note:
        print(f"litrec validate: the cache is not used: {proj.cache_note}", file=sys.stderr)
    results = args.results or args.records.resolve().parent / "results"
    if results.is_dir():  # only then is the results' code loaded
        from litrec.util.diagnostics import PathDisplay
        from litrec.verdicts.ledger import history_problems
        from litrec.runs.state import modified_results

        proj.diagnostics.extend(modified_results(results, PathDisplay()))
        proj.diagnostics.extend(history_problems(results, PathDisplay()))
    if args.strict:
        proj.diagnostics = [_as_error(d) if d.severity == "warning" else d
                            for d in proj.diagnostics]
    links = _reviews(args, results, proj)
    errors = sorted(proj.errors, key=lambda d: (d.path, d.line, d.col))
    if args.format == "json":
        out = {
            "valid": not errors,
            "records": proj.records,
            "files": proj.files,
            "errors": [d.to_json() for d in errors],
            "info": [d.to_json() for d in proj.diagnostics if d.severity != "error"],
            "suspect": [r.to_json() for r in links if r.state == "suspect"],
            "reviews": [r.to_json() for r in links],
        }
        print(json.dumps(out, indent=2, default=str))
    else:
        for d in errors:
            print(d.format())
        hidden = 0
        if not args.quiet:
            for d in proj.diagnostics:
                if d.severity == "error":
                    continue
                if d.code in QUIET_CODES and not args.verbose:
                    hidden += 1
                    continue
                print(d.format())
        n_info = len(proj.diagnostics) - len(errors)
        verdict = "valid" if not errors else f"{len(errors)} error{'s' * (len(errors) != 1)}"
        shown = f" ({hidden} shown with --verbose)" if hidden else ""
        print(f"checked {proj.files} files, {proj.records} valid records, "
              f"{proj.edges} links: {verdict}; {n_info} note{'s' * (n_info != 1)}{shown}",
              file=sys.stderr)
    return EXIT_OK if not errors else EXIT_INVALID
