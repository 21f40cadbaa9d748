"""What an expectation judges, apart from how it is written, and the rows of a claim.

Plain data and names only (no models), so that what a kept answer prints needs none.
"""

from __future__ import annotations

# What is left out of an expectation's criterion: its prose (`note`), where it comes from
# (`source`) and the numbers shown beside it (`paper`, `official`). Rewording a note or
# citing a source never reopens a judged result.
PROSE = ("note", "source", "paper", "official")

# A claim's extension row: litrec's own expectations (`source: {kind: extension}`), judged and
# shown beside the claim as `RECORD#CLAIM+ext`, never in the claim's own verdict.
EXTENSION = "+ext"


def criterion(data: dict) -> dict:
    """An expectation's stored data (`model_dump(mode="json")`) without `PROSE`: what is judged,
    and in which row (`row: extension` for litrec's own): a source relabelled to or from
    `extension` moves the expectation between the claim's verdict and its extension row, so it
    changes the criterion, though the rest of `source` is prose (a precondition stays in the
    claim's row whatever its source: `litrec.verdicts.rows.is_extension`)."""
    out = {k: v for k, v in data.items() if k not in PROSE}
    source = data.get("source")
    if isinstance(source, dict) and source.get("kind") == "extension" and not data.get("precondition"):
        out["row"] = "extension"
    return out


def base_claim(ref: str) -> str:
    """The claim a row belongs to: `A#P3` for `A#P3+ext` and for `A#P3`."""
    return ref.removesuffix(EXTENSION)
