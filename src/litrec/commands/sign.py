"""`litrec sign`: sign stored results with the user's SSH key (`litrec.results.signing`)."""

from __future__ import annotations

import sys
from pathlib import Path

from litrec.commands.common import profile_arg, results_arg
from litrec.util.errors import UsageError


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("sign", help="sign stored results with your SSH key",
                       description="Sign each stored result of the profile (or the analyses "
                       "named) with an SSH key you hold, as git signs commits (ssh-keygen -Y "
                       "sign, namespace litrec-result); the signature is written beside the "
                       "result as <profile>.json.sig. A result whose seal is broken is not "
                       "signed, nor, without --force, one that holds points kept from an "
                       "earlier, interrupted sitting. `litrec status` then says signed, unsigned "
                       "or bad signature.")
    p.add_argument("analyses", nargs="*", metavar="ANALYSIS",
                   help="the analyses whose results to sign (default: every stored result)")
    profile_arg(p, "which profile's results to sign (default: the largest of the project's scales "
                "where any analysis has a result, else the first, as `litrec status`)")
    results_arg(p)
    p.add_argument("--key", type=Path, default=None, metavar="FILE",
                   help="the SSH private key (default: LITREC_SIGNING_KEY, else git config "
                   "user.signingkey)")
    p.add_argument("--force", action="store_true",
                   help="sign a result that holds points kept from an earlier sitting too: your "
                   "signature then vouches for them (their seal proves each file whole, not who "
                   "computed it); the kept points are named")


def run(args) -> int:
    """Sign the results (`litrec.results.signing.sign_results`); exit 1 when one is not signed (its
    seal broken, or points kept from an earlier sitting without --force)."""
    from litrec.results.signing import SigningError, sign_results
    from litrec.verdicts.status import headline_profile

    if args.profile is None:  # the analysis folder beside the results, as beside the records
        args.profile = headline_profile(Path(args.results).parent / "records", None, args.results)

    try:
        signed = sign_results(args.results, args.profile, args.analyses, args.key, args.force)
    except SigningError as exc:
        raise UsageError(f"litrec sign: {exc}") from None
    failed = 0
    for one in signed:
        if one.signature is None:
            print(f"litrec sign: {one.path}: not signed: {one.why}", file=sys.stderr)
            failed += 1
        else:
            print(one.signature)
            if one.vouches:
                print(f"  it vouches for {one.vouches}")
    return 1 if failed else 0
