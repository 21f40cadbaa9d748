"""`litrec validate`: check every record, link and claim; report all problems at once."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from litrec.commands.common import EXIT_INVALID, EXIT_OK, format_arg, records_args


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


def run(args) -> int:
    """Validate (`litrec.verdicts.report.validation_report`) and print every problem; exit 1 when
    any record is invalid."""
    from litrec.verdicts.report import validation_report

    report = validation_report(args.records, args.analysis, args.results, strict=args.strict,
                               use_cache=args.cache)
    proj, links, errors = report.checked, report.links, report.errors
    if proj.cache_note:
        print(f"litrec validate: the cache is not used: {proj.cache_note}", file=sys.stderr)
    if report.baseline:
        print(f"litrec validate: {report.baseline}", file=sys.stderr)
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
        n_warn = sum(d.severity == "warning" for d in proj.diagnostics)
        n_info = len(proj.diagnostics) - len(errors) - n_warn
        verdict = "valid" if not errors else f"{len(errors)} error{'s' * (len(errors) != 1)}"
        warned = f"{n_warn} warning{'s' * (n_warn != 1)}; " if n_warn else ""
        shown = f" ({hidden} shown with --verbose)" if hidden else ""
        print(f"checked {proj.files} files, {proj.records} valid records, "
              f"{proj.edges} links: {verdict}; {warned}{n_info} note{'s' * (n_info != 1)}{shown}",
              file=sys.stderr)
    return EXIT_OK if not errors else EXIT_INVALID
