"""An SSH key pair for the signing tests, made by ssh-keygen (the caller skips where it is missing)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def keypair(folder: Path, who: str) -> Path:
    """A throwaway ed25519 key without a passphrase, `folder/id` (and `id.pub`), commented `who`."""
    folder.mkdir(parents=True, exist_ok=True)
    key = folder / "id"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", who, "-f", str(key)],
                   check=True)
    return key
