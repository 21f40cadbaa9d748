"""The baseline of a link added after the first one: a record or link new to the review file.

The project's first `litrec validate` records what every record rests on
(`litrec.verdicts.suspect.record_baseline`). A record added later (a paper's note that
uses its new claim, as site/add-a-paper.md adds one), or a link added to a record, has
no entry in `reviews.yaml`: no target state to compare with, so it could never be
suspect. `baseline_new_links` gives each such link its entry as its target stands now,
the first time `validate` sees it, so that from then on a move of its target makes it
suspect. Entries already there are never changed (only `litrec review ID` renews them).

The rules of the first baseline hold: the file is read and written under the project's
review lock (`litrec.verdicts.reviewfile.locked_reviews`); a file that cannot be read is
never rewritten (that would lose every other record's reviews); a file the work tree
lacks is not made here (`record_baseline` and `lost_reviews` decide that).
"""

from __future__ import annotations

from pathlib import Path

from litrec.verdicts.fingerprints import Fingerprints
from litrec.verdicts.reading import Reading
from litrec.verdicts.reviewfile import locked_reviews
from litrec.verdicts.suspect import dump, read_reviews


def baseline_new_links(path: Path, reading: Reading) -> dict[str, int] | None:
    """Record in the review file `path` what each link of `reading` without an entry there rests
    on now: `{record: links recorded}` (empty when every link has its entry), or None when the
    file is not there or cannot be read (nothing written). `OSError` when it cannot be written."""
    from litrec.util.atomic import replace_file

    with locked_reviews(path):
        if not path.exists():
            return None
        reviews, problem = read_reviews(path)
        if problem is not None:
            return None
        prints = Fingerprints(reading)
        added: dict[str, int] = {}
        for d in reading.deps:
            entries = reviews.setdefault(d.record, {})
            if d.target not in entries:
                entries[d.target] = prints.of(d.target)
                added[d.record] = added.get(d.record, 0) + 1
        if added:
            replace_file(path, dump(reviews).encode("utf-8"))
    return added


def said(added: dict[str, int], where: str) -> str:
    """The line `validate` prints for the links just recorded."""
    n_records, n_links = len(added), sum(added.values())
    names = ", ".join(sorted(added)[:3]) + (", ..." if n_records > 3 else "")
    return (f"new links without a review baseline: recorded what {n_records} "
            f"record{'s' * (n_records != 1)} ({names}) rest{'s' * (n_records == 1)} on now "
            f"({n_links} link{'s' * (n_links != 1)}) in {where}; commit it: a link whose target "
            "moves from now on is suspect")
