"""What a result stored of its claims' expectations, and today's expectations against it.

A result stores, per claim, the expectations it was judged against when it ran
(`expectation_record`: their text, their data and a hash): pre-registration in
the result itself. A claim's row is *expectation changed* when one of its
criteria (`Expectation.criterion`: what is judged, without its note, source and
the numbers shown beside it) is not among those stored, or a stored one is no
longer the claim's (`flag_changed`); it is then judged against the stored ones
(`litrec.verdicts.claims`, with `litrec.verdicts.rows.judge`), the new verdict shown
beside, until the analysis reruns.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from litrec.records.criteria import criterion
from litrec.util.canonical import canonical_digest, canonical_json

if TYPE_CHECKING:
    from litrec.records.expectation import Expectation

Status = Any  # a `litrec.verdicts.claims.ClaimStatus` (not imported: it imports this module)


def judged_in(expect, profile: str | None) -> list:
    """The expectations judged in `profile` (those without `profiles`, and those naming it)."""
    return [e for e in expect if profile is None or e.applies(profile)]


def expectation_record(expect, profile: str | None = None) -> dict:
    """What a result stores of a claim's expectations judged in `profile` (every one when
    None): their text and a hash of their data."""
    expect = judged_in(expect, profile)
    data = [e.model_dump(mode="json") for e in expect]
    return {"text": [e.describe() for e in expect], "hash": canonical_digest(data), "data": data}


def criterion_key(crit: dict) -> str:
    """A criterion as one comparable string."""
    return canonical_json(crit)


def stored_expectations(result: dict, claim: str) -> list[Expectation] | None:
    """The expectations a result stored for `claim` when it ran; None where it kept only their text."""
    from litrec.records.expectation import Expectation  # the records' models, when judged again

    stored = (result.get("expectations") or {}).get(claim)
    if not isinstance(stored, dict):
        return None
    data = stored.get("data")
    if not isinstance(data, list):
        return None
    if canonical_digest(data) != stored.get("hash"):
        return None
    try:
        return [Expectation.model_validate(d) for d in data]
    except ValueError:  # written by a litrec whose expectations differ from this one's
        return None


def flag_changed(st: Status, ref: str, expect: list, judged: list, result: dict) -> None:
    """Flag expectations that differ from those the result was judged against when it ran.

    What is compared is each expectation's criterion (`Expectation.criterion`): a note
    reworded or a source cited changes no judgement. A row changed when one of its
    criteria is not among those stored for it, or one stored for it is no longer among the
    row's: the claim's own row and its extension row (`st.extension_of`) each against its own
    share of what was stored.
    """
    if not isinstance(result.get("expectations"), dict):
        return  # a result from before litrec stored expectations: nothing to compare
    stored = result["expectations"].get(ref)
    data = stored.get("data") if isinstance(stored, dict) else None
    mine = [criterion_key(e.criterion()) for e in expect]
    was = list(stored.get("text") or []) if isinstance(stored, dict) else []
    whole = len(expect) == len(judged)  # the row is the whole claim: outcomes pair with `was`
    if isinstance(data, list) and all(isinstance(d, dict) for d in data):
        # the row's share of what was stored, each by its own row: an extension edited or
        # removed since changes the `+ext` row, never the claim's own (`rows.row_share`)
        ext = st.extension_of is not None
        share = [i for i, d in enumerate(data) if (criterion(d).get("row") == "extension") == ext]
        kept = Counter(criterion_key(criterion(data[i])) for i in share)
        if Counter(mine) == kept:
            return
        if len(was) == len(data):  # their text, in order: the row's own, paired in order
            was, whole = [was[i] for i in share], True
        changed = [i for i, k in enumerate(mine) if k not in kept]
    else:  # stored without their data (or not at all): compared as a whole, then by text
        if isinstance(stored, dict) and stored.get("hash") == expectation_record(judged)["hash"]:
            return
        changed = [i for i, o in enumerate(st.outcomes)
                   if (was[i] if whole and i < len(was) else None) != o.expectation] if whole \
            else [i for i, o in enumerate(st.outcomes) if o.expectation not in was]
    st.expectation_changed, st.stored_expectations = True, was
    for i in changed or range(len(st.outcomes)):  # none by criterion or text: one was removed
        st.outcomes[i].expectation_changed = True
        st.outcomes[i].stored_expectation = (was[i] if i < len(was) else None) if whole else (
            st.outcomes[i].expectation if st.outcomes[i].expectation in was else None)
