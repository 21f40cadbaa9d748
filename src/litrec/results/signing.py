"""Signed results: a signature made with a key the user holds, checked with git's SSH signing tools.

The seal (`litrec.results.seal`) is a hash anyone can recompute: it catches an edit
made by accident or by hand, not a forgery. A signature is what a forger
cannot make without the signer's private key. `litrec sign` signs a result's
JSON file (which holds the hashes of its figures and the head of its ledger as the run
found it) and the ledger's entries through the last that judges it (`signed_bytes`) with `ssh-keygen -Y sign`
under the namespace `litrec-result`, the tool git uses for SSH-signed commits,
and writes the signature beside it: `results/<analysis>/<profile>.json.sig`.

A result's signature is

- `unsigned`: no `.sig` file beside it;
- `signed`: the signature verifies against the file as it is now and, where an
  allowed-signers file is configured, its key is one of the allowed signers
  (the principal is named); without one, the key's fingerprint is named and
  only the file's integrity under that key is checked;
- `bad`: the signature does not verify (the result changed after it was
  signed, its seal recomputed or not), or its key is not an allowed signer.

Which key signs: `--key`, else `LITREC_SIGNING_KEY`, else git's
`user.signingkey` (a key file). Who may sign: `LITREC_ALLOWED_SIGNERS`, else
git's `gpg.ssh.allowedSignersFile` (the format of ssh-keygen's ALLOWED
SIGNERS). A rerun of the analysis removes the old signature with the old
result it signed.

A signature vouches for every number in the file, so a result built partly from
points kept from an earlier, interrupted sitting (`points[i].kept`,
`litrec.results.resume`) is signed only when asked (`litrec sign --force`): a kept
point's seal proves its file is whole, not who computed it. Without `--force`
the result is not signed and the message names the kept points, their sittings
and the two ways forward (`kept_refusal`); with it, `Signed.vouches` names them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from litrec.util import git
from litrec.util.signers import allowed_signers, config_path

NAMESPACE = "litrec-result"
STATES = ("signed", "unsigned", "bad")
TIMEOUT_S = 30


class SigningError(Exception):
    """Signing is not possible as configured; the message says why and what to do."""


def sig_path(result_file: Path) -> Path:
    """`results/a/paper.json.sig` beside `results/a/paper.json`."""
    return result_file.with_name(result_file.name + ".sig")


def unsign(result_file: Path) -> None:
    """Remove the signature of a result that is being replaced (it signed the old content)."""
    try:
        sig_path(result_file).unlink()
    except FileNotFoundError:
        pass


def signing_key(root: Path, given: Path | None = None) -> Path:
    """The private key to sign with (SigningError when none is configured or it is not a file)."""
    if given is not None:
        key, where = Path(given), "--key"
    elif os.environ.get("LITREC_SIGNING_KEY"):
        key, where = config_path(os.environ["LITREC_SIGNING_KEY"], root), "LITREC_SIGNING_KEY"
    else:
        value = git.config(root, "user.signingkey")
        if value is None:
            raise SigningError("no signing key: give --key FILE (an SSH private key), set "
                               "LITREC_SIGNING_KEY, or git config user.signingkey FILE")
        if value.startswith("key::"):
            raise SigningError("git's user.signingkey is a literal public key (key::...); give "
                               "the private key's file with --key or LITREC_SIGNING_KEY")
        key, where = config_path(value, root), "git config user.signingkey"
    if not key.is_file():
        raise SigningError(f"{where}: '{key}' is not a file; give an SSH private key "
                           "(ssh-keygen -t ed25519 makes one)")
    return key


def _keygen() -> str:
    found = shutil.which("ssh-keygen")
    if found is None:
        raise SigningError("ssh-keygen is not installed (OpenSSH 8.2 or later signs files); "
                           "install openssh-client")
    return found


def signed_bytes(result_file: Path) -> bytes:
    """What a result's signature covers: the result file's bytes, then its ledger's up to the
    last entry that judges it (`litrec.results.ledger.judged_through`), so the judgement
    recorded for a signed result cannot be rewritten without breaking its signature."""
    from litrec.results.ledger import judged_through
    from litrec.util import jsonread

    data = result_file.read_bytes()
    try:
        result = jsonread.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return data
    return data + judged_through(result_file, result)


def sign_file(result_file: Path, key: Path) -> Path:
    """Sign `result_file` and its judgement (`signed_bytes`) with `key`; the signature is
    written beside it. SigningError on failure."""
    data = signed_bytes(result_file)
    try:
        run = subprocess.run([_keygen(), "-Y", "sign", "-f", str(key), "-n", NAMESPACE, "-q"],
                             input=data, capture_output=True, timeout=TIMEOUT_S)
    except (OSError, subprocess.SubprocessError) as exc:
        raise SigningError(f"ssh-keygen could not sign: {exc}") from None
    if run.returncode != 0 or not run.stdout.startswith(b"-----BEGIN SSH SIGNATURE-----"):
        why = run.stderr.decode("utf-8", "replace").strip() or f"exit status {run.returncode}"
        raise SigningError(f"ssh-keygen -Y sign with '{key}' failed: {why}")
    from litrec.util.atomic import replace_file

    out = sig_path(result_file)
    replace_file(out, run.stdout)
    return out


class Signed(NamedTuple):
    """One result `litrec sign` was asked to sign: its signature, or why it has none; and,
    signed with `force`, the points kept from an earlier sitting that the signature vouches for."""

    path: Path
    signature: Path | None
    why: str | None = None
    vouches: str | None = None


def kept_refusal(name: str, profile: str, result: dict) -> str | None:
    """Why a result built partly from points kept from an earlier sitting is not signed without
    `--force` (None when it holds none), a line each: which points, from which sittings, what a
    kept point's seal proves, and the two ways forward."""
    from litrec.results.resume import kept_summary, point_unit

    summary = kept_summary(result)
    if summary is None:
        return None
    unit, n = point_unit(result), len(summary["points"])
    them = "it" if n == 1 else "them"
    return "\n  ".join([
        f"it holds {summary['summary']}, not computed by the run that wrote it:",
        *kept_lines(result),
        f"A kept {unit}'s seal proves its file is whole (not edited since it was kept), not who "
        f"computed it or on what machine; your signature would vouch for {them} as for the rest.",
        f"Recompute every {unit} in one sitting: litrec run --force {name} --profile {profile}",
        f"or vouch for the kept {unit}{'s' * (n != 1)} with your key: "
        f"litrec sign --force {name} --profile {profile}"])


def kept_lines(result: dict) -> list[str]:
    """`seed 0: commit 1a2b3c4d on h7, 2026-12-05T14:41:02+00:00`, a line per kept point."""
    from litrec.results.resume import kept_points, point_words, sitting_place

    return [f"{point_words(o)}: "
            f"{sitting_place(w) or 'kept before litrec recorded sittings: when and where unknown'}"
            for o, w in kept_points(result)]


def sign_results(results: Path, profile: str, analyses: list[str],
                 key: Path | None = None, force: bool = False) -> Iterator[Signed]:
    """`litrec sign` below the command: sign each stored result of `profile` (of `analyses`,
    or every one), one at a time as the caller takes them. A result that is missing, damaged
    or whose seal is broken is not signed, nor, without `force`, one that holds points kept
    from an earlier sitting (`kept_refusal`). `UsageError` when there is nothing to sign,
    `SigningError` when no key can be found (before signing any)."""
    from litrec.util.errors import UsageError

    results = Path(results)
    names = analyses or sorted(p.parent.name for p in results.glob(f"*/{profile}.json"))
    if not names:
        raise UsageError(f"no {profile} results in '{results}' to sign")
    return _sign_each(results, profile, names, signing_key(results.resolve().parent, key), force)


def _sign_each(results: Path, profile: str, names: list[str], key: Path,
               force: bool) -> Iterator[Signed]:
    from litrec.results.resume import kept_summary
    from litrec.results.seal import broken_seal
    from litrec.results.store import read_result, result_path
    from litrec.util.errors import DamagedResult

    for name in names:
        path = result_path(results, name, profile)
        why: str | None
        try:
            result = read_result(results, name, profile)
        except DamagedResult as exc:
            result, why = None, f"damaged ({exc})"
        else:
            why = (f"no {profile} result for '{name}'" if result is None else
                   broken_seal(result, results / name))
        if not why and not force:
            why = kept_refusal(name, profile, result or {})
        if why:
            yield Signed(path, None, why)
            continue
        held = kept_summary(result or {})
        try:
            yield Signed(path, sign_file(path, key), vouches="\n    ".join(
                [held["summary"] + ":", *kept_lines(result or {})]) if held else None)
        except (SigningError, OSError) as exc:
            yield Signed(path, None, str(exc))


_checked: dict[tuple, tuple[str, str | None]] = {}


def signature_state(result_file: Path, root: Path) -> tuple[str, str | None]:
    """(`signed`, `unsigned` or `bad`, who signed or why it is bad) of a stored result."""
    sig = sig_path(result_file)
    if not sig.is_file():
        return "unsigned", None
    try:
        a, b = os.stat(result_file), os.stat(sig)
        try:  # the judgement a signature covers is in the ledger beside it
            c = os.stat(result_file.with_name(result_file.stem + ".history.jsonl"))
            led: tuple = (c.st_mtime_ns, c.st_size, c.st_ino)
        except OSError:
            led = ()
        key = (str(result_file.resolve()), a.st_mtime_ns, a.st_size, b.st_mtime_ns, b.st_size,
               str(allowed_signers(root)), led)
    except OSError:
        key = None
    if key is not None and key in _checked:
        return _checked[key]
    answer = _check(result_file, sig, root)
    if key is not None:
        _checked[key] = answer
    return answer


def _check(result_file: Path, sig: Path, root: Path) -> tuple[str, str | None]:
    try:
        keygen = _keygen()
    except SigningError as exc:
        return "bad", f"cannot check the signature: {exc}"
    try:
        data = signed_bytes(result_file)
    except OSError as exc:
        return "bad", f"cannot read the result ({exc.strerror or exc})"
    allowed = allowed_signers(root)
    try:
        if allowed is not None:
            found = subprocess.run([keygen, "-Y", "find-principals", "-s", str(sig), "-f",
                                    str(allowed)], capture_output=True, text=True,
                                   timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
            principals = found.stdout.split() if found.returncode == 0 else []
            if not principals:
                return "bad", f"its key is not an allowed signer ({allowed})"
            for who in principals:
                ok = subprocess.run([keygen, "-Y", "verify", "-f", str(allowed), "-I", who,
                                     "-n", NAMESPACE, "-s", str(sig)], input=data,
                                    capture_output=True, timeout=TIMEOUT_S)
                if ok.returncode == 0:
                    return "signed", who
            return "bad", "the signature does not match the result and its judgement as they are now"
        ok = subprocess.run([keygen, "-Y", "check-novalidate", "-n", NAMESPACE, "-s", str(sig)],
                            input=data, capture_output=True, timeout=TIMEOUT_S)
    except (OSError, subprocess.SubprocessError) as exc:
        return "bad", f"cannot check the signature: {exc}"
    if ok.returncode != 0:
        return "bad", "the signature does not match the result and its judgement as they are now"
    text = (ok.stdout + ok.stderr).decode("utf-8", "replace")
    key = next((w for w in text.split() if w.startswith("SHA256:")), "an unlisted key")
    return "signed", f"{key} (no allowed-signers file: the key itself is not checked)"
