"""`litrec review ID ...`: record what each record rests on now, clearing its suspect links."""

from __future__ import annotations

import json

from litrec.commands.common import format_arg, records_args, results_arg
from litrec.records.newrecord import display


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("review", help="mark a record's links reviewed: clears its suspect links",
                       description="Record, in reviews.yaml beside the records folder, what each "
                       "named record rests on now (the statement and verdict of every claim it "
                       "uses, the content of every record it reads or has as a source). `litrec "
                       "validate` then marks a link suspect when its target moves (the project's "
                       "first validate records every link as it stands; commit reviews.yaml). "
                       "Exit 1 when the records have errors, 2 for an unknown id.")
    p.add_argument("ids", nargs="+", metavar="ID", help="the records reviewed (NOTE-621 ...)")
    records_args(p)
    results_arg(p)
    format_arg(p)


def run(args) -> int:
    """Write the review file (`litrec.verdicts.suspect.review_records`); exit 2 for an id that is
    not a record."""
    from litrec.verdicts.suspect import review_records

    path, counts = review_records(args.records, args.analysis, args.results, args.ids)
    if args.format == "json":
        print(json.dumps({"reviews": display(path), "reviewed": counts}, indent=2))
    else:
        for rid, n in counts.items():
            what = f"{n} link{'s' * (n != 1)} it rests on" if n else "nothing it rests on"
            print(f"reviewed {rid}: {what}, as they stand now ({display(path)})")
    return 0
