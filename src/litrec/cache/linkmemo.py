"""The suspect-link check of a `litrec validate`, kept for the next one.

`litrec validate` of a project with a review file (`reviews.yaml`) tells, for
each link a record rests on, whether it is reviewed, suspect (and what moved)
or never reviewed (`litrec.verdicts.suspect`). That answer is a pure function of
the record files, the review file and the claims' verdicts at the `paper`
profile, which depend on what a no-op run's verdicts at that profile depend on
(`litrec.cache.runmemo`): every file of records/, analysis/ and results/ (by
content hash, and by size, times and inode besides), the installed packages,
the interpreter and the numerics environment, litrec's own source, the commit
checked out and the working folder (messages name paths); and the data files
the judged results' analyses declare (`DATA`).

So it is kept in `.litrec-cache/validate/links.bin` (`litrec.cache.slots.Slot`) under
a key the caller makes of all of that (`litrec.verdicts.report`: the run memo's
key for `paper` and the SHA-256 of the review file's bytes); the declared data
files are kept with the answer, with their hashes, and matched again by the
caller's `data_now` before it is used. A warm validate then neither parses a
record nor judges a claim for the check. The answer is kept only when the key
worked out again after the check is the key made before it (an input edited
while the check read it, even one put back, leaves nothing kept). `--no-cache`
and `LITREC_NO_CACHE=1` never read or write it.

The cache is a service below its users: this module imports none of litrec's
other packages; the key and what the data patterns match now come from the caller.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from litrec.cache.slots import Slot, data_unchanged, named

SUBDIR = "validate"
NAME = "links"


@dataclass(frozen=True)
class Answer:
    """Every link's review (a dict each: `LinkReview`'s fields, and where the link is written:
    `file`, `line`, `col`) and the data files the judged results declare."""

    links: list
    data_patterns: list      # the DATA entries of the analyses whose results were judged
    data_files: dict         # what they matched: path inside the project -> SHA-256

    def ok(self) -> bool:
        """Whether every field has the type a check wrote (a damaged entry may not)."""
        return (isinstance(self.links, list) and all(isinstance(r, dict) for r in self.links)
                and isinstance(self.data_patterns, list)
                and all(isinstance(p, str) for p in self.data_patterns)
                and isinstance(self.data_files, dict))


def _slot(root: Path) -> Slot:
    return Slot(Path(root), SUBDIR, NAME)


def recall(root: Path, key: str | None, data_now: Callable[[list[str]], dict]) -> Answer | None:
    """The answer kept under `key` in the project `root`, or None (none kept, another key,
    damaged, a declared data file changed: `data_now(patterns)` gives what the patterns match
    now, path inside the project -> SHA-256, and raises ValueError where they cannot be read)."""
    if not key:
        return None
    answer = named(Answer, _slot(root).read(key))
    if answer is None or not answer.ok():
        return None
    return answer if data_unchanged(answer.data_patterns, answer.data_files, data_now) else None


def keep(root: Path, key: str | None, answer: Answer, again: Callable[[], str | None]) -> None:
    """Keep `answer` under `key`; silent when it cannot. `again()` works the key out anew: the
    answer is kept only when it is still `key` (no input changed while the check read them)."""
    if key and again() == key:
        _slot(root).write(key, answer)
