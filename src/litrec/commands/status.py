"""`litrec status`: every claim's verdict from the stored results, without running anything."""

from __future__ import annotations

import json
import re
import sys

from litrec.commands.common import console, other_cpu_note, profile_arg, records_args, results_arg


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("status", help="every claim's verdict: measured beside expected",
                       description="Show every claim's verdict from the stored results, without "
                       "running anything: the summary first (each paper's claims counted apart from your own, "
                       "a line per scale), then a row per claim (the verdict and the deciding number beside "
                       "its expectation, never cut; then, for anything but reproduced, the reason on "
                       "a line, ending in … where it is longer (--verbose gives it whole), and how "
                       "it was judged where not pre-registered (post hoc, events), never cut), wrapped "
                       "to the terminal's width, piped or not; then, once per scale, a note on results computed "
                       "on another CPU. --format table, csv or md: a row per "
                       "claim and scale instead, with the verdict and the mean and n of each metric "
                       "its expectations read. Exit 0 whatever the verdicts; 1 "
                       "when the records have errors, a result is damaged or cannot be judged, or a "
                       "signature is bad (litrec sign).")
    profile_arg(p, "which profile's results to judge (default: the largest of the project's "
                "scales, the paper's own, where any analysis has a result at it, else the first; "
                "see Scales in site/writing-analyses.md)")
    results_arg(p)
    p.add_argument("--check-current", action="store_true",
                   help="exit 1 when any claim's result is stale, missing, modified or in error, "
                   "its expectations changed since the run, or its signature is bad (for CI)")
    p.add_argument("--any-machine", action="store_true",
                   help="with --check-current: a result computed on a CPU with other features "
                   "or with another number of usable cores, everything else unchanged, passes "
                   "(CI on runners unlike the machine the results were computed on); it stays "
                   "stale here and is not judged")
    p.add_argument("--under-way", action="store_true",
                   help="with --check-current: a stale or missing result whose rerun of the present "
                   "inputs is under way passes (the rerun's finished points or training checkpoints "
                   "are in results/ANALYSIS/PROFILE.partial/, marked with the inputs it computes "
                   "from: a run of hours committed part by part); it stays stale and is not judged")
    p.add_argument("--require-signed", action="store_true",
                   help="exit 1 when a result is unsigned (no .sig beside it), as for a bad "
                   "signature: where results must be signed, a deleted signature is not a pass")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="each claim's whole reason and every outcome under its claim, wrapped "
                   "to the terminal's width: both "
                   "sides' per-seed values, the interval, the evaluation noise, the reason for "
                   "every mark (error verdicts too), expectations changed since the run")
    records_args(p)
    p.add_argument("--format", choices=("text", "json", "table", "csv", "md"), default="text",
                   help="output format (default: text): json, the rows as data; table, csv or md, "
                   "a row per claim and scale (claim, scale, verdict, each metric its expectations "
                   "read as mean and n): a terminal table cut to the width with …, CSV (RFC 4180, "
                   "a column per metric and its n) for spreadsheets, a Markdown table")


# a command a note names (`litrec run --profile paper --rerun-other-machine`), up to the first
# word that is no argument of it (`(about 1 s, ...)`)
COMMAND = re.compile(r"litrec(?: [^\s();,]+)+")
UNBROKEN = "\xa0"  # not a space to textwrap: the words it joins stay on one line


def whole_commands(wrap, text: str, width: int) -> list[str]:
    """`text` wrapped by `wrap` (`litrec.verdicts.terminal.wrap`) to `width`, its continuation lines
    indented by 4, never breaking a command it names across two lines where the command fits on
    one: a hint is copied from the terminal as it stands."""
    held = COMMAND.sub(lambda m: m.group(0).replace(" ", UNBROKEN), text)
    return [line.replace(UNBROKEN, " ") for line in wrap(held, width, 0, 4)]


def run(args) -> int:
    """Print the verdicts (`litrec.verdicts.status.status`); with --check-current exit 1 when a
    result is behind."""
    from litrec.util.safetext import raw_stream  # the grid's cells are made safe one by one: CSV's CRLF stays
    from litrec.verdicts.claims import scales_of
    from litrec.verdicts.grid import GRID_FORMATS, grid_text, scale_rows
    from litrec.verdicts.status import headline_profile, rerun_under_way, status

    args.profile = args.profile or headline_profile(args.records, args.analysis, args.results)
    found = status(args.records, args.analysis, args.results, args.profile, args.require_signed)
    if args.format == "json":
        print(json.dumps([{**s.row(), "suspect": found.suspects.get(s.claim, [])}
                          for s in found.statuses], indent=2, default=str))
    elif args.format in GRID_FORMATS:  # every claim at every scale, numbers beside
        rows = scale_rows(found.scales, args.profile, scales_of(found.statuses))
        raw_stream(sys.stdout).write(grid_text(rows, args.format, max(console().width, 40)))
    else:
        from litrec.verdicts.elsewhere import said_once
        from litrec.verdicts.terminal import print_table, wrap  # rich: text output only

        # the summary first, then the rows; another machine's results: said once per scale
        # after the rows, not under each claim
        print_table(said_once(found.statuses) if found.elsewhere else found.statuses, args.profile,
                    args.verbose, found.suspects, summary_first=True)
        for kept in found.elsewhere:
            words = ("" if kept.profile == args.profile else f"at {kept.profile}: ") + kept.words()
            print("\n".join(whole_commands(wrap, words, max(console().width, 40))))
    for w in found.warnings:
        print(f"litrec status: warning: {w}", file=sys.stderr)
    for b in found.bad_signatures:
        print(f"litrec status: error: {b}", file=sys.stderr)
    if args.check_current:
        elsewhere = found.other_machine if args.any_machine else []
        going = rerun_under_way(found.behind, args.any_machine) if args.under_way else []
        behind = [s for s in found.behind if s not in elsewhere and s not in going]
        for s in behind:
            changed = ("; its expectations also changed since the run" if s.expectation_changed
                       and s.verdict != "expectation changed" else "")
            print(f"litrec status: {s.claim} is {s.verdict.replace('_', ' ')}: {s.reason}{changed}",
                  file=sys.stderr)
        if elsewhere:
            print(other_cpu_note("status", [s.claim for s in elsewhere],
                                 " (their inputs otherwise unchanged; not judged here)"),
                  file=sys.stderr)
        if going:
            print(f"litrec status: note: {len(going)} claim{'s' * (len(going) != 1)} rest on results "
                  "whose rerun of the present inputs is under way (stale until it ends; not judged): "
                  + ", ".join(s.claim for s in going), file=sys.stderr)
        return 1 if behind or found.bad_signatures else 0
    for e in found.errors:  # a result that cannot be judged is bad input: said once, exit 1
        print(f"litrec status: error: {e}", file=sys.stderr)
    return 1 if found.refusals else 0
