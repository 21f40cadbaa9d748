"""`litrec diff [REV [REV2]] [--profile P [--profile Q]]`: what changed between stored results."""

from __future__ import annotations

import json
import sys

from litrec.commands.common import profile_name, records_args, results_arg


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("diff", help="what changed between the stored results of two commits or "
                       "two profiles",
                       description="Compare the stored results of two commits (git show of "
                       "results/<analysis>/<profile>.json) or of two profiles: every claim whose "
                       "verdict, expectations or deciding numbers (mean and interval) differ, each "
                       "side judged against the expectations its result stored when it ran, and "
                       "every expectation edited since the new side's run (old → new criterion). "
                       "A side that cannot be judged says why. "
                       "`litrec diff` compares HEAD with the working tree; `litrec diff REV` REV "
                       "with the working tree; `litrec diff REV REV2` two commits; `--profile A "
                       "--profile B` two profiles of the working tree (or of REV). Nothing runs. "
                       "Exit 0 whether or not anything changed, 1 when the records have errors, "
                       "2 for a revision that is not a commit. A number that changed is shown with its change "
                       "(new − old) and that change in percent of the old value.")
    p.add_argument("revs", nargs="*", metavar="REV",
                   help="a commit, branch or tag (HEAD~1, main); two for two commits")
    p.add_argument("--profile", dest="profiles", action="append", type=profile_name,
                   metavar="PROFILE", help="the profile compared (default: the project's first "
                   "scale, that of the committed results); give it twice to compare two profiles")
    p.add_argument("--all", action="store_true", help="list every checked claim, changed or not")
    results_arg(p)
    records_args(p)
    p.add_argument("--format", choices=("text", "json", "csv", "md"), default="text",
                   help="output format (default: text): json, the comparison as data, each "
                   "claim's metrics with old, new, change and percent; csv (RFC 4180) or md, a "
                   "row per metric that changed (with --all, every metric both sides measured): "
                   "claim, verdict, metric, old, new, change, change %%")


def run(args) -> int:
    """Print what changed (`litrec.verdicts.diff.compare`); exit 0 whether or not anything did."""
    from litrec.verdicts.diff import compare, notes

    found = compare(args.records, args.analysis, args.results, args.revs, args.profiles,
                    only_changed=not args.all)
    if args.format == "json":
        print(json.dumps(found.to_json(), indent=2, default=str, ensure_ascii=False))
        return 0
    if args.format in ("csv", "md"):
        from litrec.util.safetext import raw_stream
        from litrec.util.tables import csv_text, markdown_table
        from litrec.verdicts.change import DIFF_TABLE, metric_table

        rows = metric_table(found.diffs, raw=args.format == "csv", every=args.all)
        raw_stream(sys.stdout).write(csv_text(DIFF_TABLE, rows) if args.format == "csv" else
                                     markdown_table(DIFF_TABLE, rows, (False,) * 3 + (True,) * 4))
        return 0
    for d in found.diffs:
        verdict = (d.new.verdict if d.old.verdict == d.new.verdict
                   else f"{d.old.verdict} → {d.new.verdict}")
        print(f"{d.claim}  {verdict}")
        for change in d.changes:
            if not change.startswith("verdict: "):
                print(f"    {change}")
        for note in notes(d):  # each side's reason: missing, judged against today's expectations
            print(f"    {note}")
    print(f"{found.changed} of {found.checked} checked claims changed from {found.old.label} to "
          f"{found.new.label}")
    for line in found.not_current():  # never a verdict of a result not rerun read as current
        print(line)
    for ref, events in found.events.items():  # what moved in the protocol between the sides
        print(f"{ref}: {len(events)} event{'s' * (len(events) != 1)} of its protocol between the sides")
        for e in events:
            print(f"    {e['text']}")
    return 0
