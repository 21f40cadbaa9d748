"""`litrec export bibtex|json|tex`: literature records as BibTeX, the whole graph as JSON, or\nevery claim's verdict and numbers as LaTeX macros."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from litrec.bibtex.write import bibtex_library, select_literature
from litrec.commands.common import (
    check_out,
    emit,
    load_valid_project,
    need_dir,
    profile_arg,
    records_args,
    results_arg,
    write_out,
)
from litrec.util.errors import UsageError
from litrec.runs.state import check_profile
from litrec.export import graph_document
from litrec.records.load import load_project


def add_parser(sub) -> None:
    """Declare the command, its two formats and their options."""
    p = sub.add_parser("export", help="write records as BibTeX, the graph as JSON, numbers as "
                       "LaTeX macros",
                       description="Write literature records as BibTeX, the whole record graph "
                       "(records, links both ways, claims with verdicts) as one JSON document, or "
                       "every claim's verdict and numbers as LaTeX macros.")
    what = p.add_subparsers(dest="export_format", metavar="FORMAT")
    q = what.add_parser("bibtex", help="BibTeX entries for literature records",
                        description="BibTeX entries for the literature records named (all of them "
                        "when none are).")
    q.add_argument("ids", nargs="*", metavar="ID", help="literature record ids (default: all)")
    q.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="write to FILE (default: standard output)")
    records_args(q)
    q = what.add_parser("json", help="the record graph as one JSON document (format litrec-graph)",
                        description="The whole record graph as one JSON document, "
                        "format litrec-graph version 2 (see site/export-format.md).")
    results_arg(q)
    profile_arg(q, "which profile's results give the verdicts (default: paper)")
    q.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="write to FILE (default: standard output)")
    records_args(q)
    q = what.add_parser("tex", help="LaTeX macros of every claim's verdict and numbers",
                        description="One LaTeX macro per claim's verdict and per number that "
                        "decides it (with its 95%% interval), named from the claim's id "
                        "(\\litrecARXIVTwoTwoOneTwoZeroSevenSixSevenSevenFOneVerdict), for a "
                        "manuscript to \\input; see site/manuscript.md. Exit 1 when two claims "
                        "would share a name or a result is damaged.")
    results_arg(q)
    profile_arg(q, "which profile's results give the numbers (default: paper)")
    q.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="write to FILE (default: standard output)")
    records_args(q)


def run(args) -> int:
    """Export in the format asked for."""
    if args.export_format == "bibtex":
        return _bibtex(args)
    if args.export_format == "json":
        return _json(args)
    if args.export_format == "tex":
        return _tex(args)
    raise UsageError("export needs a format: 'litrec export bibtex', 'litrec export json' or "
                     "'litrec export tex'")


def _tex(args) -> int:
    from litrec.tex import NameClash, tex_document

    proj = _judged_project(args)
    if proj is None:
        return 1
    try:
        text = tex_document(proj, args.results, args.profile)
    except NameClash as exc:
        print(f"litrec export: error: {exc}", file=sys.stderr)
        return 1
    n = text.count("\\newcommand")
    emit(text, args.out, f"{n} macros (profile {args.profile})", args.records)
    return 0


def _bibtex(args) -> int:
    need_dir(args.records, "records")
    if args.out:
        check_out(args.out, args.records)
    proj = load_project(args.records, args.analysis)
    chosen, problems = select_literature(proj, args.ids)
    for msg in problems:
        print(f"litrec export: {msg}", file=sys.stderr)
    if problems:
        return 1
    text = bibtex_library(chosen)
    if args.out:
        write_out(args.out, text, args.records)
        print(f"wrote {len(chosen)} entries to {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _judged_project(args):
    """The valid project whose claims an export judges (None: its errors were printed), once
    `--out` and the profile are known to be usable."""
    if args.out:
        check_out(args.out, args.records)
    proj = load_valid_project(args)
    if proj is not None:
        check_profile(proj.registry, args.results, args.profile)
    return proj


def _json(args) -> int:
    proj = _judged_project(args)
    if proj is None:
        return 1
    doc = graph_document(proj, args.results, args.profile)
    text = json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    verdicts: dict[str, int] = {}
    for c in doc["claims"]:
        if c["verdict"]:
            verdicts[c["verdict"]] = verdicts.get(c["verdict"], 0) + 1
    summary = ", ".join(f"{n} {v.replace('_', ' ')}" for v, n in sorted(verdicts.items()))
    emit(text, args.out, f"{len(doc['records'])} records, {len(doc['links'])} links, "
         f"{len(doc['claims'])} claims" + (f" ({summary}; profile {args.profile})" if summary else ""),
         args.records)
    errors = list(dict.fromkeys(c["reason"] for c in doc["claims"]
                                if c["verdict"] in ("error", "modified") and c["reason"]))
    for e in errors:  # a damaged result: in the document as an error verdict, and said here
        print(f"litrec export: error: {e}", file=sys.stderr)
    return 1 if errors else 0
