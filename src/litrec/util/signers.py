"""Whose signatures count: the allowed-signers file configured for a project.

`LITREC_ALLOWED_SIGNERS`, else git's `gpg.ssh.allowedSignersFile` (ssh-keygen's
ALLOWED SIGNERS format), `~` expanded and a relative path read from the project.
`litrec.results.signing` checks each signature against it, and the run memo
(`litrec.analyses.memo`) keys a no-op run's answer on it (`signers_key`): a signer
removed from the file turns *signed* into *bad signature* on the next run, kept
answer or not.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from litrec.util import git


def config_path(path: str, root: Path) -> Path:
    """A configured path: `~` expanded, a relative one read from the project at `root`."""
    p = Path(os.path.expanduser(path))
    return p if p.is_absolute() else root / p


def allowed_signers(root: Path) -> Path | None:
    """The allowed-signers file, where one is configured."""
    value = os.environ.get("LITREC_ALLOWED_SIGNERS") or git.config(root, "gpg.ssh.allowedSignersFile")
    return config_path(value, root) if value else None


def signers_key(root: Path) -> list[str | None]:
    """What a signature's state rests on beside the signed files: the allowed-signers file
    configured (or None), the SHA-256 of its bytes (None when it cannot be read) and the
    ssh-keygen that checks; for the key of a kept answer."""
    allowed = allowed_signers(root)
    digest = None
    if allowed is not None:
        try:
            digest = hashlib.sha256(allowed.read_bytes()).hexdigest()
        except OSError:
            pass
    return [None if allowed is None else str(allowed), digest, shutil.which("ssh-keygen")]
