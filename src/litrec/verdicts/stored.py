"""What a result stored of its claims' expectations, and today's expectations against it.

A result stores, per claim, the expectations it was judged against when it ran
(`expectation_record`: their text, their data and a hash): pre-registration in
the result itself. A claim's row is *expectation changed* when one of its
criteria (`Expectation.criterion`: what is judged, without its note, source and
the numbers shown beside it) is not among those stored, or a stored one is no
longer the claim's (`flag_changed`); it is then judged against the stored ones
(`judge_stored`), the new verdict shown beside, until the analysis reruns.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from litrec.records.criteria import criterion
from litrec.util.canonical import canonical_digest, canonical_json
from litrec.verdicts.judge import MissingMetric, claim_verdict, evaluate

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


def judge_stored(st: Status, result: dict, seeds: list[dict], noise: dict, name: str,
                 profile: str, ref: str, extension: bool, ext_keys: set[str]) -> None:
    """A claim whose expectations changed since the run: judged against the stored ones.

    Its verdict is `expectation changed` until the analysis reruns; `stored_verdict`
    is the verdict under the expectations stored with the result (`stored_outcomes`;
    None where the result kept only their text, or the claim was not checked then),
    `new_verdict` the one the new expectations (`outcomes`, each flagged where it
    changed) would give, shown beside it and binding on no one.
    """
    st.new_verdict = st.verdict
    exps = stored_expectations(result, ref)
    if exps is not None:  # the row's share of them: the extensions' or the claim's own
        exps = [e for e in exps if (criterion_key(e.criterion()) in ext_keys) == extension]
    if exps:
        try:
            st.stored_outcomes = [evaluate(e, seeds, noise) for e in exps]
        except MissingMetric:
            st.stored_outcomes = []
        if st.stored_outcomes:
            st.stored_verdict = claim_verdict(st.stored_outcomes, lambda o: o.metric)[0]
    under = (f"under the expectations stored with the result, {st.stored_verdict}"
             if st.stored_verdict else
             "the result kept no expectations it could be judged against again"
             if st.stored_expectations else "the claim was not checked when the analysis ran")
    st.verdict, st.direction, st.seeds_needed = "expectation changed", None, None
    st.reason = (f"the expectations changed after the run: {under}; under the new ones, "
                 f"{st.new_verdict}; until the analysis reruns (litrec run {name} --profile "
                 f"{profile} --force) neither is its verdict")


def flag_changed(st: Status, ref: str, expect: list, judged: list, result: dict) -> None:
    """Flag expectations that differ from those the result was judged against when it ran.

    What is compared is each expectation's criterion (`Expectation.criterion`): a note
    reworded or a source cited changes no judgement. A row changed when one of its
    criteria is not among those stored, or a stored one is no longer among the claim's.
    """
    if not isinstance(result.get("expectations"), dict):
        return  # a result from before litrec stored expectations: nothing to compare
    stored = result["expectations"].get(ref)
    data = stored.get("data") if isinstance(stored, dict) else None
    mine = [criterion_key(e.criterion()) for e in expect]
    was = list(stored.get("text") or []) if isinstance(stored, dict) else []
    whole = len(expect) == len(judged)  # the row is the whole claim: outcomes pair with `was`
    if isinstance(data, list) and all(isinstance(d, dict) for d in data):
        kept = Counter(criterion_key(criterion(d)) for d in data)
        if Counter(mine) <= kept and kept <= Counter(criterion_key(e.criterion()) for e in judged):
            return
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
