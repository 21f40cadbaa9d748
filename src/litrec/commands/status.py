"""`litrec status`: every claim's verdict from the stored results, without running anything."""

from __future__ import annotations

import json
import sys

from litrec.commands.common import (
    format_arg,
    load_valid_project,
    profile_arg,
    records_args,
    results_arg,
)
from litrec.commands.table import print_table
from litrec.state import check_profile
from litrec.verdicts import BEHIND, claim_statuses, result_problems


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("status", help="one row per claim: verdict, measured vs expected",
                       description="Show every claim's verdict from the stored results, without "
                       "running anything.")
    profile_arg(p, "which profile's results to judge (default: paper)")
    results_arg(p)
    p.add_argument("--check-current", action="store_true",
                   help="exit 1 when any claim's result is stale, missing, modified or in error, "
                   "or its expectations changed since the run (for CI)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="every outcome under its claim: per-seed values, interval, evaluation "
                   "noise, expectations changed since the run")
    records_args(p)
    format_arg(p)


def run(args) -> int:
    """Print the verdicts; with --check-current exit 1 when a result is behind."""
    proj = load_valid_project(args)
    if proj is None:
        return 1
    check_profile(proj.registry, args.results, args.profile)
    statuses = claim_statuses(proj, args.results, args.profile)
    if args.format == "json":
        print(json.dumps([s.row() for s in statuses], indent=2, default=str))
    else:
        print_table(statuses, args.profile, args.verbose)
    errors, warnings = result_problems(statuses)
    for w in warnings:
        print(f"litrec status: warning: {w}", file=sys.stderr)
    if args.check_current:
        behind = [s for s in statuses if s.verdict in BEHIND]
        for s in behind:
            print(f"litrec status: {s.claim} is {s.verdict.replace('_', ' ')}: {s.reason}",
                  file=sys.stderr)
        return 1 if behind else 0
    for e in errors:  # a result that cannot be judged is bad input: said once, exit 1
        print(f"litrec status: error: {e}", file=sys.stderr)
    return 1 if errors else 0
