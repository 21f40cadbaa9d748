"""`litrec site build|serve`: the published site, generated from the records and results."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from litrec.commands.common import check_out, need_dir, profile_arg, records_args, results_arg
from litrec.site.build import build_site
from litrec.site.serve import serve_site
from litrec.util.errors import UsageError


def add_parser(sub) -> None:
    """Declare the command, its two actions and their options."""
    p = sub.add_parser("site", help="build or serve the published site (MkDocs Material)",
                       description="Generate a page per record, claim dashboard, anthology, analyses "
                       "and graph from the records and results/, then build with mkdocs --strict.")
    site = p.add_subparsers(dest="site_command", metavar="ACTION")
    for action, text in (("build", "generate the pages and build the HTML site (mkdocs build --strict)"),
                         ("serve", "serve the site locally, regenerating it when records or results change")):
        q = site.add_parser(action, help=text, description=text[0].upper() + text[1:] + ".")
        records_args(q)
        results_arg(q)
        profile_arg(q, "which profile's results the pages lead with (default: the largest of the "
                    "project's scales, the paper's own, where any analysis has a result at it, "
                    "else the first); the other scales are shown beside each verdict")
        if action == "build":
            q.add_argument("--out", type=Path, default=Path("public"), metavar="DIR",
                           help="where the HTML site goes (default: public)")
        else:
            q.add_argument("--host", default="127.0.0.1", metavar="HOST",
                           help="the address to serve on (default: 127.0.0.1, this machine only)")
            q.add_argument("--port", type=port_number, default=8000, metavar="PORT",
                           help="the port to serve on (default: 8000)")
            q.add_argument("--verbose", "-v", action="store_true",
                           help="also print MkDocs' notes about the nav (pages not in it), "
                           "which it repeats at every rebuild")


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 1 to 65535."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number from 1 to 65535, found '{text}'")
    return int(text)


def run(args) -> int:
    """Build (or serve) the site; exit 1 when the records have errors or a file was refused."""
    if args.site_command is None:
        raise UsageError("site needs an action: 'litrec site build' or 'litrec site serve'")
    need_dir(args.records, "records")
    from litrec.verdicts.status import headline_profile

    args.profile = args.profile or headline_profile(args.records, args.analysis, args.results)
    if args.site_command == "serve":
        serve_site(args.records, args.analysis, args.results, args.profile, host=args.host,
                   port=args.port, verbose=args.verbose)
        return 0
    check_out(args.out, args.records, folder=True)
    try:
        report = build_site(args.records, args.analysis, args.results, args.out, args.profile)
    except PermissionError as exc:
        raise UsageError(f"cannot write '{exc.filename}' ({exc.strerror}); check --out "
                         f"'{args.out}' and the build folder") from None
    print(f"generated {report.pages} pages and {report.figures} figures from {report.records} "
          f"records in {report.generate_s:.1f} s; mkdocs build --strict: {report.mkdocs_s:.1f} s, "
          "no warnings", file=sys.stderr)
    for w in report.result_warnings:
        print(f"litrec site: warning: {w}", file=sys.stderr)
    for e in report.result_errors:  # shown on the analysis's page as damaged, and said here
        print(f"litrec site: error: {e}", file=sys.stderr)
    if report.errors:
        n = len(report.errors)
        print(f"litrec site: the records have {n} error{'s' * (n != 1)} (listed on the home page; "
              "a record that fails its schema is left out); see `litrec validate`", file=sys.stderr)
    for line in report.refused:
        print(f"litrec site: {line}", file=sys.stderr)
    built = report.out or args.out.resolve()  # build_site names the folder it built
    print(f"site built: {built / 'index.html'}")
    return 1 if report.errors or report.refused or report.result_errors else 0
