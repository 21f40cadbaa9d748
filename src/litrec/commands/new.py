"""`litrec new KIND [ID]`: write a new record's skeleton into its kind's folder;
`litrec new analysis NAME`: a new analysis, registered, with its test."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from litrec.commands.common import format_arg
from litrec.records import newclaim
from litrec.records.kinds import KINDS
from litrec.records.newrecord import display, new_record
from litrec.runs import newanalysis
from litrec.util.errors import NotCreated, UsageError


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("new", help="write a new record's skeleton, or a new analysis",
                       description="Write a skeleton record that passes `litrec validate`. Without an "
                       "ID, numbered kinds take the next free number and a work takes its id from "
                       "--title. `litrec new analysis NAME` writes analysis/<module>.py from the "
                       "analysis contract, registers it in analysis/registry.yaml and writes its "
                       "test, tests/analyses/test_<module>.py. `litrec new claim RECORD` appends a claim "
                       "(a proposition, finding, observation...) to a literature record, a note or "
                       "a theory, keeping the file's other content and comments. Exit 1 when the "
                       "id or name exists, 2 for a malformed one.")
    p.add_argument("kind", metavar="KIND",
                   help=f"{', '.join(KINDS)}, analysis, or claim")
    p.add_argument("id", nargs="?", metavar="ID",
                   help="the record id (default: the next free one), the analysis's name, or for "
                   "a claim the record that holds it")
    p.add_argument("--kind", dest="claim_kind", default="proposition",
                   choices=list(newclaim.PREFIX), metavar="CLAIM_KIND",
                   help="for `new claim`: proposition (default), finding, observation, definition "
                   "or conjecture")
    p.add_argument("--claim-id", default=None, metavar="CID",
                   help="for `new claim`: the claim's id (default: the next free one of its kind, "
                   "P4 after P3)")
    p.add_argument("--title", default=None, metavar="T", help="the record's or analysis's title")
    p.add_argument("--records", type=Path, default=Path("records"), metavar="DIR",
                   help="the records folder (default: records)")
    p.add_argument("--analysis", type=Path, default=Path("analysis"), metavar="DIR",
                   help="the analysis folder, for `new analysis` (default: analysis)")
    format_arg(p)


def run(args) -> int:
    """Write the skeleton (`litrec.records.newrecord.new_record`, `litrec.records.newclaim.new_claim`,
    `litrec.runs.newanalysis.new_analysis`); exit 1 when the id exists."""
    title = " ".join(args.title.split()) if args.title else None
    if args.kind in newclaim.PREFIX or args.kind.rstrip("s") in newclaim.PREFIX:
        kind = args.kind.rstrip("s")
        raise UsageError(f"a {kind} is a claim inside a record, not a record of its own: "
                         f"litrec new claim RECORD --kind {kind} appends one to a literature "
                         "record (or a note, or a theory)")
    try:
        if args.kind == "analysis":
            new, written = newanalysis.new_analysis(args.analysis, args.id, title)
            out = {"analysis": new.name, "module": new.module,
                   "files": [display(p) for p in written]}
            lines = [f"created {display(p)}" for p in written[:-1]]
            lines.append(f"registered {new.name} in {display(new.registry_path)}")
        elif args.kind == "claim":
            claim, path = newclaim.new_claim(args.records, args.id, args.claim_kind, args.claim_id,
                                             title)
            out = {"claim": claim.ref, "kind": args.claim_kind, "path": display(path)}
            lines = [f"added {claim.ref} ({args.claim_kind}) to {display(path)}"]
        else:
            rid, path = new_record(args.records, args.kind, args.id, title)
            out = {"id": rid, "kind": args.kind, "path": display(path)}
            lines = [f"created {display(path)}"]
    except NotCreated as exc:
        print(f"litrec new: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(out, indent=2) if args.format == "json" else "\n".join(lines))
    return 0
