"""`litrec review ID ...`: record what each record rests on now, clearing its suspect links."""

from __future__ import annotations

import difflib
import json

from litrec.commands.common import format_arg, load_valid_project, records_args, results_arg
from litrec.util.errors import UsageError
from litrec.records.scaffold import display


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("review", help="mark a record's links reviewed: clears its suspect links",
                       description="Record, in reviews.yaml beside the records folder, what each "
                       "named record rests on now (the statement and verdict of every claim it "
                       "uses, the content of every record it reads or has as a source). `litrec "
                       "validate` then marks a link suspect when its target moves. Exit 1 when "
                       "the records have errors, 2 for an unknown id.")
    p.add_argument("ids", nargs="+", metavar="ID", help="the records reviewed (NOTE-621 ...)")
    records_args(p)
    results_arg(p)
    format_arg(p)


def run(args) -> int:
    """Write the review file; exit 2 for an id that is not a record."""
    proj = load_valid_project(args)
    if proj is None:
        return 1
    for rid in args.ids:
        if rid not in proj.records:
            close = difflib.get_close_matches(rid, sorted(proj.records), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise UsageError(f"no record '{rid}'{hint}")
    from litrec.records.suspect import review

    path, counts = review(proj, args.results, list(dict.fromkeys(args.ids)))
    if args.format == "json":
        print(json.dumps({"reviews": display(path), "reviewed": counts}, indent=2))
    else:
        for rid, n in counts.items():
            what = f"{n} link{'s' * (n != 1)} it rests on" if n else "nothing it rests on"
            print(f"reviewed {rid}: {what}, as they stand now ({display(path)})")
    return 0
