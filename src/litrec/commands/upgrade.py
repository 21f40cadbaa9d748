"""`litrec upgrade`: bring records written for an older format to the present one, in place."""

from __future__ import annotations

import sys
from pathlib import Path

from litrec.commands.common import EXIT_INVALID, EXIT_OK


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("upgrade", help="rewrite records of an older format in place (TODO placeholders)",
                       description="Add, in place, the mechanical part of a format change to every "
                       "record that needs it: a source for each expectation of a paper's claim "
                       "that has none, and the fields a paper or official source lacks (quote, "
                       "threshold), each as the placeholder TODO that `litrec validate` lists as a "
                       "to-do warning. Comments and layout are kept; a record that needs no "
                       "change is not written. Exit 1 when a file could not be upgraded (its "
                       "YAML unreadable, a link out of the project).")
    p.add_argument("--records", type=Path, default=Path("records"), metavar="DIR",
                   help="the records folder (default: records)")
    p.add_argument("--dry-run", action="store_true",
                   help="print the changes as a diff; write nothing")


def run(args) -> int:
    """Upgrade (`litrec.records.upgrade.upgrade_records`) and say what changed, file by file."""
    from litrec.records.newrecord import display
    from litrec.records.upgrade import upgrade_records

    done = upgrade_records(args.records, dry_run=args.dry_run)
    changed = [f for f in done if f.changes]
    for f in done:
        shown = display(f.path)
        if f.problem is not None:
            print(f"{shown}: not upgraded: {f.problem}", file=sys.stderr)
            continue
        if args.dry_run:
            print(f.diff(shown), end="")
            continue
        n = len(f.changes)
        print(f"upgraded {shown}: {n} change{'s' * (n != 1)}")
        for c in f.changes:
            print(f"  {shown}:{c.line}: {c.field}: added {c.added}")
    n = sum(len(f.changes) for f in changed)
    if not changed:
        why = (": every record is in the present format" if not any(f.problem for f in done)
               else " (the files above were not read)")
        print(f"litrec upgrade: nothing to upgrade{why}", file=sys.stderr)
    else:
        did = "would make" if args.dry_run else "made"
        print(f"litrec upgrade: {did} {n} change{'s' * (n != 1)} in {len(changed)} "
              f"file{'s' * (len(changed) != 1)}; fill in each TODO (litrec validate lists them "
              "as to-do warnings)" + (" (dry run: nothing written)" if args.dry_run else ""),
              file=sys.stderr)
    return EXIT_INVALID if any(f.problem for f in done) else EXIT_OK
