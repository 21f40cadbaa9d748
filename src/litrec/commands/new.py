"""`litrec new KIND [ID]`: write a new record's skeleton into its kind's folder;
`litrec new analysis NAME`: a new analysis, registered, with its test."""

from __future__ import annotations

import difflib
import json
import sys
from pathlib import Path

from litrec.commands.common import format_arg, need_dir
from litrec.records import newclaim
from litrec.runs import scaffold as scaffold_analysis
from litrec.util.errors import UsageError
from litrec.records.kinds import KIND, KINDS
from litrec.records.scaffold import (
    choose_id,
    display,
    existing_ids,
    next_id,
    record_path,
    skeleton,
    write_new,
    write_replace,
)


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
                   help="literature, note, theory, decision, work, anthology, analysis, or claim")
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
    """Write the skeleton; exit 1 when the id exists."""
    title = " ".join(args.title.split()) if args.title else None
    if args.kind == "analysis":
        return new_analysis(args, title)
    if args.kind == "claim":
        return new_claim(args, title)
    if args.kind in newclaim.PREFIX or args.kind.rstrip("s") in newclaim.PREFIX:
        kind = args.kind.rstrip("s")
        raise UsageError(f"a {kind} is a claim inside a record, not a record of its own: "
                         f"litrec new claim RECORD --kind {kind} appends one to a literature "
                         "record (or a note, or a theory)")
    if args.kind not in KINDS:
        close = difflib.get_close_matches(args.kind, [*KINDS, "analysis"], n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        raise UsageError(f"unknown kind '{args.kind}'; {hint}kinds: {', '.join(KINDS)}, analysis")
    records = args.records
    need_dir(records, "records")
    ids = existing_ids(records)
    try:
        rid = choose_id(args.kind, args.id, title, ids)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    path = record_path(records, args.kind, rid)
    if rid in ids or path.exists():
        where = display(ids.get(rid, path))
        hint = (f"; the next free {args.kind} id is {next_id(args.kind, ids)}"
                if KIND[args.kind].prefix else "")
        print(f"litrec new: {rid} already exists: {where}{hint}", file=sys.stderr)
        return 1
    text = skeleton(args.kind, rid, title, path, records)
    try:
        write_new(path, text)
    except FileExistsError:  # created since we looked
        print(f"litrec new: {rid} already exists: {display(path)}", file=sys.stderr)
        return 1
    if args.format == "json":
        print(json.dumps({"id": rid, "kind": args.kind, "path": display(path)}, indent=2))
    else:
        print(f"created {display(path)}")
    return 0


def new_claim(args, title: str | None) -> int:
    """Append a claim to a record; exit 1 when the record does not exist."""
    if not args.id:
        raise UsageError("give the record that holds the claim: litrec new claim ARXIV-2212.07677")
    need_dir(args.records, "records")
    ids = existing_ids(args.records)
    path = ids.get(args.id)
    if path is None:
        close = difflib.get_close_matches(args.id, sorted(ids), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        print(f"litrec new: no record '{args.id}'{hint}", file=sys.stderr)
        return 1
    new = newclaim.plan_claim(args.id, path, args.claim_kind, args.claim_id, title)
    write_replace(path, new.text)
    if args.format == "json":
        print(json.dumps({"claim": new.ref, "kind": args.claim_kind, "path": display(path)},
                         indent=2))
    else:
        print(f"added {new.ref} ({args.claim_kind}) to {display(path)}")
    return 0


def new_analysis(args, title: str | None) -> int:
    """Write a new analysis, its registry entry and its test; exit 1 when the name is taken."""
    if not args.id:
        raise UsageError(f"give the analysis's name: {scaffold_analysis.NAME_RULE}")
    need_dir(args.analysis, "analysis")
    try:
        new = scaffold_analysis.plan(args.id, args.analysis, title)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    taken = scaffold_analysis.existing(new)
    if taken:
        print(f"litrec new: {taken}; choose another name", file=sys.stderr)
        return 1
    try:
        written = scaffold_analysis.write(new)
    except FileExistsError as exc:  # created since we looked
        print(f"litrec new: {display(Path(exc.filename))} exists; choose another name", file=sys.stderr)
        return 1
    if args.format == "json":
        print(json.dumps({"analysis": new.name, "module": new.module,
                          "files": [display(p) for p in written]}, indent=2))
    else:
        for path in written[:-1]:
            print(f"created {display(path)}")
        print(f"registered {new.name} in {display(new.registry_path)}")
    return 0
