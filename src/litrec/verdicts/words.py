"""The words for states, in one place: every surface (status, run, JSON, the site, export) says
the same word for the same state.

A verdict, a result's state, an outcome's decision and a link's review state
each have one word and one line saying what it means. The words are the
command line's (`missing`, not "not run"; `unchecked`, not "no analysis yet"):
the site shows the same word in its badge, and the meaning beside or under it.
A state this table does not know yet (a new one added elsewhere) is shown by
its own name with underscores as spaces, so no surface ever drops it.
"""

from __future__ import annotations

# verdict -> what it means, in the order summaries count them
VERDICT_MEANING = {
    "reproduced": "every expectation holds on its whole interval",
    "not reproduced": "an expectation fails on its whole interval",
    "inconclusive": "nothing fails, but an interval straddles its threshold",
    "expectation changed": "the claim's expectations changed since the run judged them",
    "unchecked": "the claim names no analysis yet",
    "stale": "the code, profile or package versions changed since the run",
    "missing": "no result for this profile yet",
    "modified": "the result file is not what litrec wrote",
    "error": "the result lacks a metric the claim names, or a comparison is refused",
}

# a stored result's state (litrec.results.state) -> what it means
RESULT_MEANING = {
    "current": "its code, profile and package versions are those it ran with",
    "stale": "the code, profile or package versions changed since the run",
    "missing": "no result for this profile yet",
    "modified": "the result file is not what litrec wrote",
}

# one expectation's decision -> (mark, what it means)
DECISIONS = {
    "holds": ("✓", "holds on its whole interval"),
    "fails": ("✗", "fails on its whole interval"),
    "inconclusive": ("?", "its interval straddles the threshold"),
    "refused": ("!", "cannot be judged (a comparison that makes no sense)"),
}

# a link to a claim or record, against what it was last reviewed against
REVIEW_MEANING = {
    "reviewed": "what it rests on is as it was when last reviewed",
    "suspect": "what it rests on changed since it was last reviewed",
    "unreviewed": "never reviewed: `litrec review ID` records what it rests on now",
}

# the terminal's colour of each state (rich style names); the site has its own CSS
STYLE = {"reproduced": "green", "not reproduced": "red", "inconclusive": "yellow",
         "expectation changed": "yellow",
         "stale": "yellow", "missing": "dim", "unchecked": "dim", "modified": "red",
         "error": "red", "suspect": "yellow", "current": "green"}

# the site's older names for the same states: read, never written
_ALIASES = {"not_run": "missing", "not run": "missing", "no analysis yet": "unchecked"}


def word(state: str) -> str:
    """The one word every surface shows for `state` (`not_run` -> `missing`)."""
    state = _ALIASES.get(state, state)
    return state.replace("_", " ")


def meaning(state: str) -> str:
    """What `state` means, in a line (empty for a state this table does not know)."""
    state = _ALIASES.get(state, state)
    return (VERDICT_MEANING.get(state) or RESULT_MEANING.get(state)
            or REVIEW_MEANING.get(state) or DECISIONS.get(state, ("", ""))[1])


# whose an expectation's threshold is (`Source.threshold`) -> how every surface says it
THRESHOLD_WORDS = {"paper": "the paper's", "official": "the official code's", "litrec": "litrec's"}


def threshold_words(source: dict | None) -> str:
    """Whose the threshold is, as a source written out says it (`Source`, dumped):
    `threshold: the paper's`, `threshold: the official code's`, `threshold: litrec's (why)`;
    an extension's is litrec's unless it says otherwise, and its reason stands for the
    threshold's when the extension gives none (shown beside it already, so not repeated).
    Empty without a source; `threshold: whose not said` for one written before the field."""
    if not source:
        return ""
    origin = source.get("threshold") or ("litrec" if source.get("kind") == "extension" else None)
    if origin is None:
        return "threshold: whose not said"
    text = f"threshold: {THRESHOLD_WORDS.get(origin, origin)}"
    why = source.get("threshold_reason")
    return f"{text} ({why})" if why else text


def mark(decision: str) -> str:
    """The mark of an outcome's decision (✓ ✗ ? !), a blank for one not known."""
    return DECISIONS.get(decision, (" ", ""))[0]
