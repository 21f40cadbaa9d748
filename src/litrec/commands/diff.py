"""`litrec diff [REV [REV2]] [--profile P [--profile Q]]`: what changed between stored results."""

from __future__ import annotations

import json

from litrec.commands.common import (
    format_arg,
    load_valid_project,
    profile_name,
    records_args,
    results_arg,
)
from litrec.util.errors import UsageError


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("diff", help="what changed between the stored results of two commits or "
                       "two profiles",
                       description="Compare the stored results of two commits (git show of "
                       "results/<analysis>/<profile>.json) or of two profiles: every claim whose "
                       "verdict, expectations or deciding numbers (mean and interval) differ, each "
                       "side judged against the expectations its result stored when it ran. "
                       "`litrec diff` compares HEAD with the working tree; `litrec diff REV` REV "
                       "with the working tree; `litrec diff REV REV2` two commits; `--profile A "
                       "--profile B` two profiles of the working tree (or of REV). Nothing runs. "
                       "Exit 0 whether or not anything changed, 1 when the records have errors, "
                       "2 for a revision that is not a commit.")
    p.add_argument("revs", nargs="*", metavar="REV",
                   help="a commit, branch or tag (HEAD~1, main); two for two commits")
    p.add_argument("--profile", dest="profiles", action="append", type=profile_name,
                   metavar="PROFILE", help="the profile compared (default: paper); give it twice "
                   "to compare two profiles")
    p.add_argument("--all", action="store_true", help="list every checked claim, changed or not")
    results_arg(p)
    records_args(p)
    format_arg(p)


def sides(revs: list[str], profiles: list[str] | None):
    """The two sides (old, new) that `revs` and `profiles` name."""
    from litrec.verdicts.diff import Side

    profiles = profiles or ["paper"]
    if len(revs) > 2 or len(profiles) > 2:
        raise UsageError("litrec diff compares two sides: at most two revisions and two profiles")
    if len(profiles) == 2:
        if len(revs) > 1:
            raise UsageError("give one revision (or none) to compare two profiles")
        rev = revs[0] if revs else None
        return Side(rev, profiles[0]), Side(rev, profiles[1])
    if len(revs) == 2:
        return Side(revs[0], profiles[0]), Side(revs[1], profiles[0])
    return Side(revs[0] if revs else "HEAD", profiles[0]), Side(None, profiles[0])


def run(args) -> int:
    """Print what changed; exit 0 whether or not anything did."""
    from litrec.verdicts.diff import as_json, check_rev, diff

    old, new = sides(args.revs, args.profiles)
    for side in (old, new):
        if side.rev is not None:
            check_rev(args.results, side.rev)
    proj = load_valid_project(args)
    if proj is None:
        return 1
    diffs = diff(proj, args.results, old, new, only_changed=not args.all)
    if args.format == "json":
        print(json.dumps(as_json(old, new, diffs), indent=2, default=str, ensure_ascii=False))
        return 0
    for d in diffs:
        verdict = (d.new.verdict if d.old.verdict == d.new.verdict
                   else f"{d.old.verdict} → {d.new.verdict}")
        print(f"{d.claim}  {verdict}")
        for change in d.changes:
            if not change.startswith("verdict: "):
                print(f"    {change}")
    n = sum(bool(d.changes) for d in diffs)
    total = len([c for _, c in proj.claims() if c.check is not None])
    print(f"{n} of {total} checked claims changed from {old.label} to {new.label}")
    return 0
