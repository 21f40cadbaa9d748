"""`litrec export bibtex|json|tex`: literature records as BibTeX, the whole graph as JSON, or
every claim's verdict and numbers as LaTeX macros."""

from __future__ import annotations

import sys
from pathlib import Path

from litrec.commands.common import check_out, emit, need_dir, profile_arg, records_args, results_arg, write_out
from litrec.util.errors import UsageError

JUDGING_FORMATS = {  # the formats that judge claims: their help, description, and what --profile picks
    "json": ("the record graph as one JSON document (format litrec-graph)",
             "The whole record graph as one JSON document, format litrec-graph version 2 (see "
             "site/export-format.md).", "verdicts"),
    "tex": ("LaTeX macros of every claim's verdict and numbers",
            "One LaTeX macro per claim's verdict and per number that decides it (with its 95%% "
            "interval), named from the claim's record, its local id and the profile "
            "(\\litrecOswaldFOnePaperVerdict: site/manuscript.md), for a manuscript to \\input. "
            "Numbers are \\ensuremath{...}: they work in text and in maths. Exit 1, writing "
            "nothing, for whatever `litrec status` exits 1 for (a result damaged or that cannot "
            "be judged, a bad signature), said in its words, or when two claims would share a "
            "name.", "numbers"),
}


def add_parser(sub) -> None:
    """Declare the command, its formats and their options."""
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
    _out_arg(q)
    records_args(q)
    for name, (help_text, description, gives) in JUDGING_FORMATS.items():
        q = what.add_parser(name, help=help_text, description=description)
        results_arg(q)
        profile_arg(q, f"which profile's results give the {gives} (default: the largest of the "
                    "project's scales where any analysis has a result, else the first, as `litrec status`)")
        q.add_argument("--require-signed", action="store_true",
                       help="exit 1 when a result is unsigned, as for a bad signature (as "
                       "`litrec status --require-signed`)")
        _out_arg(q)
        records_args(q)


def _out_arg(q) -> None:
    q.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="write to FILE, where no file or one litrec wrote is (default: "
                   "standard output)")


def run(args) -> int:
    """Export in the format asked for (each below the command: `litrec.bibtex.write.export_bibtex`,
    `litrec.export.document.graph_export`, `litrec.export.tex.tex_export`)."""
    if args.export_format not in ("bibtex", *JUDGING_FORMATS):
        raise UsageError("export needs a format: 'litrec export bibtex', 'litrec export json' or "
                         "'litrec export tex'")
    if args.export_format == "bibtex":
        need_dir(args.records, "records")  # before --out, as the other formats' load does after it
    if args.out:
        check_out(args.out, args.records)
    if args.export_format != "bibtex" and args.profile is None:
        from litrec.verdicts.status import headline_profile

        args.profile = headline_profile(args.records, args.analysis, args.results)
    return {"bibtex": _bibtex, "json": _json, "tex": _tex}[args.export_format](args)


def _bibtex(args) -> int:
    from litrec.bibtex.write import export_bibtex

    text, n, problems = export_bibtex(args.records, args.analysis, args.ids)
    for msg in problems:
        print(f"litrec export: {msg}", file=sys.stderr)
    if problems:
        return 1
    if args.out:
        write_out(args.out, text, args.records)
        print(f"wrote {n} entries to {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _json(args) -> int:
    from litrec.export.document import graph_export

    found = graph_export(args.records, args.analysis, args.results, args.profile,
                         args.require_signed)
    emit(found.text, args.out, found.summary(), args.records)
    for e in found.errors:  # what status exits 1 for: in the document as verdicts, and said here
        print(f"litrec export: error: {e}", file=sys.stderr)
    return 1 if found.errors else 0


def _tex(args) -> int:
    from litrec.export.tex import tex_export

    found = tex_export(args.records, args.analysis, args.results, args.profile,
                       args.require_signed)
    for e in found.refusals:  # what status exits 1 for, in its words: no file written
        print(f"litrec export: error: {e}", file=sys.stderr)
    if found.text is None:
        print("litrec export: no macros written: a manuscript never prints a verdict that "
              "`litrec status` refuses", file=sys.stderr)
        return 1
    for note in found.notes:
        print(f"litrec export: note: {note}", file=sys.stderr)
    emit(found.text, args.out, f"{found.count} macros (profile {args.profile})", args.records)
    return 0
