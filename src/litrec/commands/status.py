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
from litrec.runs.state import check_profile
from litrec.verdicts.claims import BEHIND, claim_statuses, result_problems, with_scales


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("status", help="every claim's verdict: measured beside expected",
                       description="Show every claim's verdict from the stored results, without "
                       "running anything: at most two lines per claim, cut to the terminal's "
                       "width (the verdict and the deciding number beside its expectation; then, "
                       "for anything but reproduced, the reason). Exit 0 whatever the verdicts; 1 "
                       "when the records have errors, a result is damaged or cannot be judged, or a "
                       "signature is bad (litrec sign).")
    profile_arg(p, "which profile's results to judge (default: paper)")
    results_arg(p)
    p.add_argument("--check-current", action="store_true",
                   help="exit 1 when any claim's result is stale, missing, modified or in error, "
                   "its expectations changed since the run, or its signature is bad (for CI)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="every outcome under its claim, wrapped to the terminal's width: both "
                   "sides' per-seed values, the interval, the evaluation noise, the reason for "
                   "every mark (error verdicts too), expectations changed since the run")
    records_args(p)
    format_arg(p)


def run(args) -> int:
    """Print the verdicts; with --check-current exit 1 when a result is behind."""
    proj = load_valid_project(args)
    if proj is None:
        return 1
    check_profile(proj.registry, args.results, args.profile)
    statuses = with_scales(proj, args.results, claim_statuses(proj, args.results, args.profile),
                           args.profile)
    if args.format == "json":
        print(json.dumps([s.row() for s in statuses], indent=2, default=str))
    else:
        print_table(statuses, args.profile, args.verbose)
    errors, warnings = result_problems(statuses)
    for w in warnings:
        print(f"litrec status: warning: {w}", file=sys.stderr)
    bad = bad_signatures(statuses, args.results, args.profile)
    for b in bad:
        print(f"litrec status: error: {b}", file=sys.stderr)
    if args.check_current:
        behind = [s for s in statuses if s.verdict in BEHIND]
        for s in behind:
            print(f"litrec status: {s.claim} is {s.verdict.replace('_', ' ')}: {s.reason}",
                  file=sys.stderr)
        return 1 if behind or bad else 0
    for e in errors:  # a result that cannot be judged is bad input: said once, exit 1
        print(f"litrec status: error: {e}", file=sys.stderr)
    return 1 if errors or bad else 0


def _by_result(statuses) -> dict[str, dict]:
    """The provenance of each analysis's result, once per analysis."""
    return {s.analysis: s.provenance for s in statuses if s.analysis and "signature" in s.provenance}


def bad_signatures(statuses, results, profile: str) -> list[str]:
    """A located line for each result whose signature does not verify."""
    from litrec.runs.results import result_path

    return [f"{result_path(results, name, profile)}.sig: bad signature: {p.get('signature_problem')}; "
            f"re-sign it (litrec sign {name} --profile {profile}) if the result is yours as it is, "
            "else rerun the analysis"
            for name, p in sorted(_by_result(statuses).items()) if p["signature"] == "bad"]
