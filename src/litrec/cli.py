"""The `litrec` command line.

Exit codes: 0 success, 1 invalid input or a claim not reproduced, 2 usage error.
Commands import what they need lazily so that `litrec validate` and a no-op
`litrec run` stay fast (JAX is imported only when an analysis really runs).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from litrec import __version__

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad command-line use: reported as `litrec: error: ...` with exit 2."""


def _records_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--records", type=Path, default=Path("records"), metavar="DIR",
                   help="the records folder (default: records)")
    p.add_argument("--analysis", type=Path, default=None, metavar="DIR",
                   help="the analysis folder with registry.yaml (default: beside the records folder)")


def _profile_name(text: str) -> str:
    import re

    if not re.fullmatch(r"[a-z0-9][a-z0-9_]*", text):
        raise argparse.ArgumentTypeError(
            f"invalid profile name {text!r}: lower-case letters, digits and '_' (e.g. paper, quick)")
    return text


def _format_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="output format (default: text)")


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, found '{text}'")
    return n


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="litrec",
        description="Literature-linked analysis records: validate records, rerun the analyses "
        "behind their claims, and build the site.",
    )
    parser.add_argument("--version", action="version", version=f"litrec {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("validate", help="check every record, link and claim; report all problems",
                       description="Check every record, link and claim; report all problems at once "
                       "as path:line:col: message. Exit 0 when valid, 1 when any record is invalid.")
    _records_arg(p)
    _format_arg(p)
    p.add_argument("--quiet", action="store_true", help="print errors only, not information notes")

    p = sub.add_parser("schema", help="write a JSON Schema per record kind",
                       description="Write one JSON Schema per record kind (from the pydantic models) "
                       "for editors such as the YAML language server.")
    p.add_argument("--out", type=Path, default=Path("schema"), metavar="DIR",
                   help="output folder (default: schema)")

    p = sub.add_parser("run", help="rerun stale analyses and give every claim a verdict",
                       description="Rerun the analyses whose results are stale (or missing) and "
                       "evaluate every claim's expectations. Exit 1 when a claim is not reproduced.")
    p.add_argument("targets", nargs="*", metavar="TARGET",
                   help="claim refs (ARXIV-2212.07677#P1), record ids or analysis names; none means all")
    p.add_argument("--profile", type=_profile_name, default="paper", metavar="PROFILE",
                   help="analysis profile: paper (default: the paper's settings, what the site "
                   "shows), quick (seconds), or another one the analysis defines")
    p.add_argument("--force", action="store_true", help="rerun even when the result is current")
    p.add_argument("--allow-not-reproduced", action="store_true",
                   help="exit 0 even when a claim is not reproduced (a smoke run of the quick "
                   "profile, whose small settings need not meet the paper's tolerances); a "
                   "failing analysis still exits 1")
    p.add_argument("--results", type=Path, default=Path("results"), metavar="DIR",
                   help="results folder (default: results)")
    p.add_argument("--executor", choices=("local", "dask"), default="local",
                   help="where the points of sweeps run: local worker processes, or a "
                   "dask.distributed cluster (default: local)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="with --executor dask: the scheduler to use, e.g. tcp://host:8786 "
                   "(default: a LocalCluster on this machine)")
    p.add_argument("--jobs", type=_positive_int, default=None, metavar="N",
                   help="worker processes of the local executor or of the LocalCluster "
                   "(default: the number of CPUs)")
    _records_arg(p)
    _format_arg(p)

    p = sub.add_parser("status", help="one row per claim: verdict, measured vs expected",
                       description="Show every claim's verdict from the stored results, without "
                       "running anything.")
    p.add_argument("--profile", type=_profile_name, default="paper", metavar="PROFILE",
                   help="which profile's results to judge (default: paper)")
    p.add_argument("--results", type=Path, default=Path("results"), metavar="DIR",
                   help="results folder (default: results)")
    p.add_argument("--check-current", action="store_true",
                   help="exit 1 when any claim's result is stale or missing (for CI)")
    _records_arg(p)
    _format_arg(p)

    p = sub.add_parser("site", help="build or serve the published site (MkDocs Material)",
                       description="Generate a page per record, claim dashboard, anthology, analyses "
                       "and graph from the records and results/, then build with mkdocs --strict.")
    site = p.add_subparsers(dest="site_command", metavar="ACTION")
    for action, text in (("build", "generate the pages and build the HTML site (mkdocs build --strict)"),
                         ("serve", "serve the site locally, regenerating it when records or results change")):
        q = site.add_parser(action, help=text, description=text[0].upper() + text[1:] + ".")
        _records_arg(q)
        q.add_argument("--results", type=Path, default=Path("results"), metavar="DIR",
                       help="results folder (default: results)")
        q.add_argument("--profile", type=_profile_name, default="paper", metavar="PROFILE",
                       help="which profile's results the pages show (default: paper)")
        if action == "build":
            q.add_argument("--out", type=Path, default=Path("public"), metavar="DIR",
                           help="where the HTML site goes (default: public)")
    _add_record_tools(sub)
    return parser


def _add_record_tools(sub) -> None:
    """`new`, `export`, `import` and `graph`: records in and out (scaffold, bibtex, export)."""
    p = sub.add_parser("new", help="write a new record's skeleton into its kind's folder",
                       description="Write a skeleton record that passes `litrec validate`. Without an "
                       "ID, numbered kinds take the next free number and a work takes its id from "
                       "--title. Exit 1 when the id exists.")
    p.add_argument("kind", metavar="KIND",
                   help="literature, note, theory, decision, work or anthology")
    p.add_argument("id", nargs="?", metavar="ID", help="the record id (default: the next free one)")
    p.add_argument("--title", default=None, metavar="T", help="the record's title")
    p.add_argument("--records", type=Path, default=Path("records"), metavar="DIR",
                   help="the records folder (default: records)")
    _format_arg(p)

    p = sub.add_parser("export", help="write records as BibTeX or the whole graph as JSON",
                       description="Write literature records as BibTeX, or the whole record graph "
                       "(records, links both ways, claims with verdicts) as one JSON document.")
    what = p.add_subparsers(dest="export_format", metavar="FORMAT")
    q = what.add_parser("bibtex", help="BibTeX entries for literature records",
                        description="BibTeX entries for the literature records named (all of them "
                        "when none are).")
    q.add_argument("ids", nargs="*", metavar="ID", help="literature record ids (default: all)")
    q.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="write to FILE (default: standard output)")
    _records_arg(q)
    q = what.add_parser("json", help="the record graph as one JSON document (format litrec-graph)",
                        description="The whole record graph as one JSON document, "
                        "format litrec-graph version 1 (see site/export-format.md).")
    q.add_argument("--results", type=Path, default=Path("results"), metavar="DIR",
                   help="results folder (default: results)")
    q.add_argument("--profile", type=_profile_name, default="paper", metavar="PROFILE",
                   help="which profile's results give the verdicts (default: paper)")
    q.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="write to FILE (default: standard output)")
    _records_arg(q)

    p = sub.add_parser("import", help="create literature records from a BibTeX file",
                       description="Create literature records from BibTeX entries.")
    what = p.add_subparsers(dest="import_format", metavar="FORMAT")
    q = what.add_parser("bibtex", help="a literature record per entry of a .bib file",
                        description="Create a literature record per entry, its id from the entry's "
                        "arXiv number or else its DOI. Every entry that cannot be converted is "
                        "reported with its line; exit 1 if any.")
    q.add_argument("file", metavar="FILE", help="the .bib file ('-' for standard input)")
    q.add_argument("--force", action="store_true",
                   help="update the citation fields of records that exist (the rest is kept)")
    q.add_argument("--dry-run", action="store_true", help="report what would be written; write nothing")
    q.add_argument("--records", type=Path, default=Path("records"), metavar="DIR",
                   help="the records folder (default: records)")
    _format_arg(q)

    p = sub.add_parser("graph", help="print the link graph (Graphviz dot, Mermaid or JSON)",
                       description="Print every record and typed link as a Graphviz (dot) or "
                       "Mermaid graph, or as JSON nodes and edges.")
    p.add_argument("--format", choices=("dot", "mermaid", "json"), default="dot",
                   help="output format (default: dot)")
    p.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="write to FILE (default: standard output)")
    _records_arg(p)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return COMMANDS[args.command](args)
    except UsageError as exc:
        print(f"litrec: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("litrec: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`litrec export json | head`): not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def load_valid_project(args):
    """The project named by --records/--analysis, or None after printing its errors.

    Commands that act on the records (run, status, export, ...) refuse invalid
    ones: every error is printed, as `litrec validate` would, with one line saying so.
    """
    from litrec.project import load_project

    _need_dir(args.records, "records")
    proj = load_project(args.records, args.analysis)
    if proj.errors:
        for d in sorted(proj.errors, key=lambda d: (d.path, d.line, d.col)):
            print(d.format(), file=sys.stderr)
        n = len(proj.errors)
        print(f"litrec {args.command}: the records have {n} error{'s' * (n != 1)}; fix them first "
              "(litrec validate)", file=sys.stderr)
        return None
    return proj


def _need_dir(path: Path, what: str) -> None:
    if not path.is_dir():
        raise UsageError(f"{what} folder '{path}' does not exist")


def cmd_validate(args) -> int:
    from litrec.project import load_project

    _need_dir(args.records, "records")
    proj = load_project(args.records, args.analysis)
    errors = sorted(proj.errors, key=lambda d: (d.path, d.line, d.col))
    if args.format == "json":
        out = {
            "valid": not errors,
            "records": len(proj.records),
            "files": proj.files,
            "errors": [d.to_json() for d in errors],
            "info": [d.to_json() for d in proj.diagnostics if d.severity != "error"],
        }
        print(json.dumps(out, indent=2, default=str))
    else:
        for d in errors:
            print(d.format())
        if not args.quiet:
            for d in proj.diagnostics:
                if d.severity != "error":
                    print(d.format())
        n_info = len(proj.diagnostics) - len(errors)
        verdict = "valid" if not errors else f"{len(errors)} error{'s' * (len(errors) != 1)}"
        print(f"checked {proj.files} files, {len(proj.records)} valid records, "
              f"{len(proj.edges)} links: {verdict}; {n_info} note{'s' * (n_info != 1)}",
              file=sys.stderr)
    return EXIT_OK if not errors else EXIT_INVALID


def cmd_schema(args) -> int:
    from litrec.schema import write_schemas

    for path in write_schemas(args.out):
        print(path)
    return EXIT_OK


def cmd_run(args) -> int:
    from litrec.runner import cmd_run as run

    return run(args)


def cmd_status(args) -> int:
    from litrec.report import cmd_status as status

    return status(args)


def cmd_site(args) -> int:
    from litrec.site import cmd_site as site

    return site(args)


def cmd_new(args) -> int:
    from litrec.scaffold import cmd_new as new

    return new(args)


def cmd_export(args) -> int:
    if args.export_format == "bibtex":
        from litrec.bibtex import cmd_export as export
    elif args.export_format == "json":
        from litrec.export import cmd_export_json as export
    else:
        raise UsageError("export needs a format: 'litrec export bibtex' or 'litrec export json'")
    return export(args)


def cmd_import(args) -> int:
    if args.import_format != "bibtex":
        raise UsageError("import needs a format: 'litrec import bibtex FILE'")
    from litrec.bibtex import cmd_import as import_

    return import_(args)


def cmd_graph(args) -> int:
    from litrec.export import cmd_graph as graph

    return graph(args)


COMMANDS = {
    "validate": cmd_validate,
    "schema": cmd_schema,
    "run": cmd_run,
    "status": cmd_status,
    "site": cmd_site,
    "new": cmd_new,
    "export": cmd_export,
    "import": cmd_import,
    "graph": cmd_graph,
}
