"""`litrec sign`: sign stored results with the user's SSH key (`litrec.runs.signing`)."""

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
                       "signed. `litrec status` then says signed, unsigned or bad signature.")
    p.add_argument("analyses", nargs="*", metavar="ANALYSIS",
                   help="the analyses whose results to sign (default: every stored result)")
    profile_arg(p, "which profile's results to sign (default: paper)")
    results_arg(p)
    p.add_argument("--key", type=Path, default=None, metavar="FILE",
                   help="the SSH private key (default: LITREC_SIGNING_KEY, else git config "
                   "user.signingkey)")


def run(args) -> int:
    """Sign the results; exit 1 when one cannot be signed."""
    from litrec.util.errors import DamagedResult
    from litrec.runs.results import read_result, result_path
    from litrec.runs.seal import broken_seal
    from litrec.runs.signing import SigningError, sign_file, signing_key

    results = Path(args.results)
    names = args.analyses or sorted(p.parent.name for p in results.glob(f"*/{args.profile}.json"))
    if not names:
        raise UsageError(f"no {args.profile} results in '{results}' to sign")
    try:
        key = signing_key(results.resolve().parent, args.key)
    except SigningError as exc:
        raise UsageError(f"litrec sign: {exc}") from None
    failed = 0
    for name in names:
        path = result_path(results, name, args.profile)
        try:
            result = read_result(results, name, args.profile)
        except DamagedResult as exc:
            result, why = None, f"damaged ({exc})"
        else:
            why = f"no {args.profile} result for '{name}'" if result is None else \
                broken_seal(result, results / name)
        if why:
            print(f"litrec sign: {path}: not signed: {why}", file=sys.stderr)
            failed += 1
            continue
        try:
            print(sign_file(path, key))
        except (SigningError, OSError) as exc:
            print(f"litrec sign: {path}: not signed: {exc}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0
