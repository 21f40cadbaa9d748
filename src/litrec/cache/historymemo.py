"""What a file's committed versions say, kept per commit: git history never changes under a commit.

`litrec.verdicts.registration` reads every committed version of a record file
(the expectations of each claim, version by version) and of a result (when it
started, which metrics it held) to tell whether an expectation was committed
before the first result it judges. Reading them costs a git process per file
and a parse per version; the answer depends only on the commit checked out
(which fixes the history below it), the file's path and the litrec code that
reads it. So each answer is a `litrec.cache.slots.Slot` of its own,
`.litrec-cache/history/NAME.bin`, keyed on those three: a status at the same
commit reads nothing from git, and a new commit or a new litrec reads afresh.
What is not committed (the working tree, the ledger) is read every time, by the
caller, never from here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from litrec.cache.slots import Slot, litrec_closure, litrec_code_hash

FOLDER = "history"
_READER: list[str] = []


def reader_hash() -> str:
    """A hash of the litrec modules whose code reads the history: a new litrec, new answers."""
    if not _READER:
        _READER.append(litrec_code_hash(litrec_closure((
            "verdicts/registration", "verdicts/judgements", "records/criteria", "records/expectation",
            "cache/historymemo"))))
    return _READER[0]


def committed(root: Path, head: str | None, what: str, compute: Callable[[], Any]) -> Any:
    """The answer `compute()` gives about the committed history of `what` (a kind and a path) at
    commit `head`, kept in the project at `root`; computed afresh where there is no commit."""
    if head is None:
        return compute()
    slot = Slot(Path(root).resolve(), FOLDER, hashlib.blake2b(what.encode(), digest_size=16).hexdigest())
    key = f"{what} {head} {reader_hash()}"
    value = slot.read(key)
    if value is None:
        value = compute()
        slot.write(key, value)
    return value
