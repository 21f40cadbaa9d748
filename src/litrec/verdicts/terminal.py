"""The claims table that `litrec run` and `litrec status` print: a row per claim, wrapped.

A claim's row holds the claim, its verdict and the number that decided it
beside its expectation (the outcome the judge marked as deciding:
`litrec.verdicts.judge.mark_deciding`); for anything but *reproduced* a reason
follows, indented (the reason, its verdict at the other scale, and the records
that rest on a claim not reproduced), led by `suspect: ...` where a link into or
out of the claim moved since it was last reviewed, on one line, cut with `…` where
it is longer (`reason_lines`: a command it names is never cut; `--verbose` gives
the whole reason, wrapped). A verdict, a count or an expectation is never lost to
the terminal's width, piped or not: the number is shortened first (its `n=`, then
its interval) so that it stays on the claim's line; what still does not fit is
wrapped, each continuation line indented. A summary line follows (`litrec status` puts
it first, before the rows), wrapped the same way: each paper's claims counted apart from the
owner's own (`litrec.verdicts.summary`). `--verbose` adds every outcome under its claim: both
sides' per-seed values, the interval, the evaluation noise, the reason for every
mark, and an expectation that changed since the run. The state words are `litrec.verdicts.words`'.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from litrec.util.console import console
from litrec.util.formatting import fmt, shorten
from litrec.verdicts.claims import ClaimStatus, scales_of
from litrec.verdicts.judge import JUDGED_VERDICTS, Outcome, deciding, leaning
from litrec.verdicts.status import by_result
from litrec.verdicts.summary import tally_statuses, tally_words
from litrec.verdicts.words import STYLE, mark, threshold_words, word

# the verdicts shown with the number that decided them (stale: the last run's, not judged)
WITH_NUMBERS = (*JUDGED_VERDICTS, "stale")
VERDICT_WIDTH = 14  # `not reproduced`; the column is as wide as the longest verdict shown


def _value(o: Outcome, interval: bool = True, n: bool = True) -> str:
    """`0.2051` for one seed; `0.2051 [0.2043, 0.2059] n=3` over seeds."""
    if interval and o.interval and o.n > 1:
        text = f"{fmt(o.measured, True)} [{fmt(o.interval[0], True)}, {fmt(o.interval[1], True)}]"
        return text + (f" n={o.n}" if n else "")
    return fmt(o.measured, True)


def _expected(o: Outcome) -> str:
    """The expectation without its metric's name when it starts with it: `< 0.1 × loss_gd`."""
    text = o.expectation
    return text[len(o.metric) + 1:] if text.startswith(o.metric + " ") else text


def _number_forms(s: ClaimStatus) -> list[str]:
    """The deciding number beside its expectation, from the most detailed form to the shortest."""
    o = deciding(s.outcomes)
    if o is None or s.verdict not in WITH_NUMBERS:
        return []
    forms = [f"{o.metric} {_value(o, i, n)}, expected {_expected(o)}"
             for i, n in ((True, True), (True, False), (False, False))]
    if o.judged and s.verdict in ("not reproduced", "inconclusive") and not o.precondition:
        j = o.judged
        forms.insert(0, f"{j['quantity']} = {fmt(j['mean'], True)} [{fmt(j['interval'][0], True)}, "
                        f"{fmt(j['interval'][1], True)}], expected {o.expectation}")
    return list(dict.fromkeys(forms))


PROBLEMS = ("not reproduced", "inconclusive", "expectation changed", "stale", "missing",
            "modified", "error")


def reason(s: ClaimStatus) -> str:
    """Why the claim is not *reproduced*, in a line (empty when it is, at every scale, and every
    criterion was registered before its result): its verdict at another scale where it differs,
    and the criteria committed after the result they judge (`post hoc`)."""
    return "; ".join(p for p in (why_not(s), how_marks(s)) if p)


def how_marks(s: ClaimStatus) -> str:
    """How the verdict was reached where it was not pre-registered: the criteria committed after
    the result they judge (`post hoc`) and the events after a look; never cut on a row."""
    late = ([f"post hoc: {s.post_hoc[0]}"] if len(s.post_hoc) == 1 else
            [f"post hoc: {len(s.post_hoc)} of its {len(s.outcomes)} criteria, committed after the "
             f"claim was first judged"] if s.post_hoc else [])
    return "; ".join(late + event_words(s))


def why_not(s: ClaimStatus) -> str:
    """`reason` less `how_marks`: the verdicts at other scales and why this one is not reproduced."""
    others = [f"at {scale}: {word(v)}" for scale, v in (s.verdicts or {}).items()
              if scale != s.profile and v and v != s.verdict and v != "missing"]
    if s.verdict == "reproduced" and not s.expectation_changed:
        return "; ".join(others)
    text = s.reason or ""
    if not text and s.verdict == "not reproduced":
        failed = [o.expectation for o in s.outcomes if o.decision == "fails"]
        text = "fails on its whole interval: " + "; ".join(failed)
    if s.verdict == "stale" and s.outcomes:
        text = f"{text}; the last run's numbers, not judged"
    if s.expectation_changed and "expectation" not in s.verdict:
        text += "; expectation changed after the run"
    if s.rests_on_it:
        text += f"; rests on it: {', '.join(s.rests_on_it)}"
    return "; ".join([*others, text.strip("; ")]).strip("; ")


EVENTS_SHOWN = 3  # events named in a claim's row; `--verbose` lists every one


def event_words(s: ClaimStatus) -> list[str]:
    """How the verdict was reached where something moved after a look (`litrec.verdicts.events`):
    the line saying how an event changed the verdict, the optional-stopping mark, the events."""
    out = [s.through] if s.through else []
    if s.seeds_after_looking:
        out.append("seeds added after looking (optional stopping)")
    shown = [e["short"] for e in s.events[:EVENTS_SHOWN]]
    if shown:
        more = len(s.events) - len(shown)
        out.append(f"event{'s' * (len(s.events) > 1)}: " + "; ".join(shown)
                   + (f"; and {more} more (--verbose)" if more > 0 else ""))
    return out


def _scale_counts(statuses: list[ClaimStatus], verdict_of) -> str:
    """`5 claims of ARXIV-2212.07677: 4 reproduced, 1 stale; 3 extensions beside them: ...; 1
    claim of your own: 1 reproduced`: each paper's claims apart from the owner's
    (`litrec.verdicts.summary`), the extension rows beside their claims."""
    return tally_words(tally_statuses(statuses, verdict_of))


def summary_lines(statuses: list[ClaimStatus], profile: str,
                  suspects: dict[str, list[str]] | None = None) -> list[str]:
    """The summary, the paper's own scale first where it has results: a line per scale, then
    the signatures, then the suspect claims counted as warnings; `summary_line` joins them."""
    lines = {profile: f"{_scale_counts(statuses, lambda s: s.verdict)} (profile {profile})"}
    scales = scales_of(statuses)  # the project's, smallest first, the last the paper's own
    for scale in scales:  # another scale where some claim has a result: all missing says nothing
        if scale == profile or all(s.verdicts.get(scale) in (None, "missing") for s in statuses):
            continue
        lines[scale] = f"at {scale}: {_scale_counts(statuses, lambda s, sc=scale: s.verdicts.get(sc))}"
    judged = [sc for sc in lines if sc != profile and any(
        s.verdicts.get(sc) not in (None, "missing") for s in statuses)]
    own = scales[-1] if scales else None
    if judged and own in judged:  # the paper's own scale has results: it leads
        lines = {own: lines[own].replace(f"at {own}:", f"at {own}, the paper's own scale:", 1),
                 **{k: v for k, v in lines.items() if k != own}}
    elif profile == own:
        lines[profile] = lines[profile].replace(f"(profile {profile})",
                                                f"(profile {profile}, the paper's own scale)")
    out = list(lines.values())
    seen = [p["signature"] for p in by_result(statuses).values()]
    if any(v != "unsigned" for v in seen):
        words = {"signed": "signed", "unsigned": "unsigned", "bad": "bad signature"}
        out.append("results: " + ", ".join(f"{seen.count(v)} {w}" for v, w in words.items()
                                           if seen.count(v)))
    n = sum(1 for s in statuses if (suspects or {}).get(s.claim))
    if n:
        out.append(f"{n} warning{'s' * (n != 1)}: {n} claim{'s' * (n != 1)} suspect, a link into "
                   "or out of each moved since it was last reviewed (litrec validate names the "
                   "links; litrec review ID clears them)")
    return out


def summary_line(statuses: list[ClaimStatus], profile: str) -> str:
    """The summary in one line: `5 claims of ARXIV-2212.07677: 4 reproduced, 1 inconclusive; 1
    claim of your own: 1 reproduced (profile paper); at paper_full: ...`."""
    return "; ".join(summary_lines(statuses, profile))


def claim_lines(s: ClaimStatus, width: int, claim_width: int, verdict_width: int = VERDICT_WIDTH,
                suspect: Sequence[str] = (), whole: bool = False) -> list[tuple[str, str, str]]:
    """One claim's lines as `(head, verdict, rest)`, each at most `width` characters (a word
    longer than a line is broken, never dropped): the claim's line, the number's continuation
    lines (`_continued`), then the reason (indented by 4), led by why the claim is suspect
    where a link into or out of it is (`suspect`): each link and the reason on a line of its
    own, cut with `…` (`reason_lines`), or with `whole` (`--verbose`) all of it, one text,
    its continuations indented by 6."""
    head = f"{s.claim:<{claim_width}}  "
    verdict = f"{word(s.verdict):<{verdict_width}}"
    column = len(head) + len(verdict) + 2  # where the number starts
    room = width - column
    forms = _number_forms(s)
    items = [f"suspect: {w}" for w in suspect] + ([why_not(s)] if why_not(s) else [])
    marks = how_marks(s)  # how the verdict was reached: on a line of its own, never cut
    if whole:
        items = ["; ".join(items + ([marks] if marks else []))] if items or marks else []
    elif marks:
        items.append(marks)
    if forms:  # the most detailed form that fits beside the verdict (or, narrow, under it)
        text = next((f for f in forms if len(f) <= room), None) or next(
            (f for f in forms if room < 30 and len(f) <= width - 6), forms[-1])
    else:  # no numbers: the reason's first parts on the claim's line, the rest under it
        parts = items[0].split("; ") if items and (whole or items[0] != marks) else []
        k = 0
        while k < len(parts) and len("; ".join(parts[:k + 1])) <= room:
            k += 1
        text = "; ".join(parts[:k]) + (";" if 0 < k < len(parts) else "")
        items = [left for left in ["; ".join(parts[k:]), *items[1:]] if left]
    body = _continued(text, width, column)
    first = body[0][column:]
    lines = [(head, verdict if first else verdict.rstrip(), "  " + first if first else "")]
    lines += [("", "", ln) for ln in body[1:]]
    for why in items:
        whole_line = whole or why == marks
        lines += [("", "", ln) for ln in (wrap(why, width, 4, 6) if whole_line else reason_lines(why, width))]
    return lines


def reason_lines(why: str, width: int) -> list[str]:
    """The reason at indent 4 on one line of `width`: whole where it fits, else cut, ending in
    `…` (`--verbose` gives it whole). A part (`; `) that names a command (`litrec ...`) is never
    cut: what comes before it is, on a line of its own where the command does not fit beside
    it, and the command follows whole (wrapped if it must be), then `…` where more was left."""
    room = width - 4
    if len(why) <= room:
        return ["    " + why]
    parts = why.split("; ")
    c = next((i for i, part in enumerate(parts) if "litrec " in part), None)
    if c is None:
        return ["    " + shorten(why, room)]
    head, command = "; ".join(parts[:c]), parts[c] + ("; …" if c + 1 < len(parts) else "")
    if head and len(head) + 2 + len(command) <= room:
        return [f"    {head}; {command}"]
    return (["    " + (f"{head};" if len(head) < room else shorten(head, room))] if head else []) \
        + wrap(command, width, 4, 6)


def _continued(text: str, width: int, column: int) -> list[str]:
    """`text` from `column` on, in lines of at most `width` (the first line holds `column`
    spaces first). What does not fit breaks before its expectation (`expected ...` on a line
    of its own) and each part wraps; continuation lines sit under the number where the column
    leaves room, else the whole text starts on the next line, indented by 6."""
    room = width - column
    if not text or len(text) <= room:
        return [" " * column + text]
    if room < 30:  # a narrow column: the number starts under the claim
        return [" " * column] + _parts(text, width, 6)
    return _parts(text, width, column)


def _parts(text: str, width: int, column: int) -> list[str]:
    """`text` at `column`, on one line where it fits, else broken before `expected` and wrapped."""
    if len(text) <= width - column or ", expected " not in text:
        return wrap(text, width, column, column)
    measured, expected = text.split(", expected ", 1)
    return wrap(measured + ",", width, column, column) + wrap("expected " + expected, width,
                                                               column, column)


def print_table(statuses: list[ClaimStatus], profile: str, verbose: bool = False,
                suspects: dict[str, list[str]] | None = None, summary_first: bool = False) -> None:
    """A row per claim, wrapped to the width, then the summary (with `summary_first`, as
    `litrec status` has it, the summary before the rows); with `verbose`, every outcome under
    its claim; `suspects`: the claims marked suspect, with why."""
    out = console()
    width = max(out.width, 40)
    if summary_first:
        _print_summary(out, statuses, profile, suspects, width)
    claim_width = max((len(s.claim) for s in statuses), default=5)
    verdict_width = max((len(word(s.verdict)) for s in statuses), default=VERDICT_WIDTH)
    claim_width = min(claim_width, max(width - verdict_width - 24, 8))
    for s in statuses:
        for head, verdict, rest in claim_lines(s, width, claim_width, verdict_width,
                                               (suspects or {}).get(s.claim, ()), verbose):
            line = Text(head)
            if verdict:
                line.append(verdict, style=STYLE.get(s.verdict) or None)
            line.append(rest)
            out.print(line, no_wrap=True, overflow="ignore", crop=False, highlight=False)
        if verbose:
            _outcomes(out, s, width)
    if not summary_first:
        _print_summary(out, statuses, profile, suspects, width)


def _print_summary(out, statuses: list[ClaimStatus], profile: str,
                   suspects: dict[str, list[str]] | None, width: int) -> None:
    """The summary lines (`summary_lines`), wrapped, never cut; the lines after the first indented."""
    for i, summary in enumerate(summary_lines(statuses, profile, suspects)):
        for text in wrap(summary, width, 2 * (i > 0), 4):
            out.print(text, markup=False, highlight=False, no_wrap=True, crop=False)


def _outcomes(out, s: ClaimStatus, width: int) -> None:
    """Every outcome under its claim, wrapped to the width with a hanging indent."""
    def say(text: str) -> None:
        for line in wrap(text, width, 4, 8):
            out.print(line, markup=False, highlight=False, no_wrap=True, overflow="ellipsis")

    if s.seeds:
        say(f"seeds: {', '.join(map(str, s.seeds))}")
    kept = s.provenance.get("kept")
    if isinstance(kept, dict) and kept.get("summary"):  # evidence with its origin, not trust
        say(str(kept["summary"]))
    if s.provenance.get("hermetic") is True:  # litrec.runs.sandbox
        say("hermetic: each point ran in a sandbox of its declared inputs")
    elif s.provenance.get("hermetic") is False:
        say("not hermetic on this machine: the audit hook alone watched what it read")
    if not s.outcomes:
        for text in s.expected:  # no result to judge them on yet
            say(f"  {text}: not judged ({word(s.verdict)})")
    for o in s.outcomes:
        say(outcome_text(o))
        if o.expectation_changed:
            say(f"  expectation changed after the run: was {o.stored_expectation or '(none)'}, "
                f"now {o.expectation}")
    if s.how and not s.events:
        say(f"how it was judged: {s.how}")
    for e in s.events:
        say(f"event: {e['text']}")


def outcome_text(o: Outcome) -> str:
    """One outcome in full: mark, expectation, value, both sides per seed, and why its mark."""
    text = f"{mark(o.decision)} {o.expectation}: {_value(o)}"
    if o.interval and o.n > 1:
        text += f" ({o.method})"
    if o.values and o.n > 1:
        text += f"; {o.metric} per seed {fmt(o.values, True)}"
    if o.ref_values:
        text += f"; {o.ref or 'the other side'} per seed {fmt(o.ref_values, True)}"
    if o.noise is not None:
        text += f"; evaluation noise ±{fmt(o.noise, True)}"
    if o.judged:
        j = o.judged
        text += (f"; judged on {j['quantity']} = {fmt(j['mean'], True)} "
                 f"[{fmt(j['interval'][0], True)}, {fmt(j['interval'][1], True)}]")
    if o.decision == "inconclusive":
        text += f"; {o.direction}: {leaning(o)}"
    whole = " on its whole interval" if o.n > 1 else ""
    why = o.reason or {"holds": f"holds{whole}", "fails": f"fails{whole}"}.get(o.decision)
    if why:
        text += f"; {why}"
    if o.source:
        text += f"; source: {source_words(o.source)}"
    if o.registration:
        text += f"; {registration_words(o.registration)}"
    return text


def source_words(src: dict) -> str:
    """Where an expectation comes from and whose its threshold is, in a line: `paper, §4,
    Figure 5: “the trained ...”; threshold: litrec's (a 5% tolerance)`."""
    return f"{_where_from(src)}; {threshold_words(src)}"


def _where_from(src: dict) -> str:
    kind = src.get("kind")
    if kind == "paper":
        said = src.get("quote") and f"“{src['quote']}”" or src.get("states") or ""
        number = f" ({fmt(src['number'], True)})" if src.get("number") is not None else ""
        return f"paper, {src.get('where')}: {said}{number}".rstrip(": ")
    if kind == "official":
        number = f" ({fmt(src['number'], True)})" if src.get("number") is not None else ""
        return f"official code, {official_place(src)}{number}"
    return f"litrec's extension: {src.get('reason')}"


def official_place(src: dict) -> str:
    """`src/train.py:307` for a line, `notebook.ipynb, cell 6, line 18` for a cell."""
    line = str(src.get("line"))
    return f"{src.get('file')}:{line}" if line[:1].isdigit() else f"{src.get('file')}, {line}"


def registration_words(reg: dict) -> str:
    """`pre-registered (committed 2026-12-02 16:36 in ea0de770, first result 2026-12-02 16:16)`."""
    state = reg.get("state")
    if state in ("uncommitted", "unknown"):
        return {"uncommitted": "uncommitted: commit it before the run that judges it",
                "unknown": "registration unknown (no git history)"}[state]
    when = lambda t: (t or "")[:16].replace("T", " ")  # noqa: E731
    first = f", first judged {when(reg.get('first_result'))}" if reg.get("first_result") \
        else ", its claim not judged yet"
    if state == "post hoc" and reg.get("seen"):
        first = f", after {reg['seen']} {reg.get('why') or ''}".rstrip()
    late = f"; {reg['contradiction']}" if reg.get("contradiction") else ""
    return (f"{state.upper() if state == 'post hoc' else state} (committed "
            f"{when(reg.get('committed'))} in {(reg.get('commit') or '')[:8]}{first}){late}")


def wrap(text: str, width: int, indent: int = 4, hang: int = 6) -> list[str]:
    """`text` in lines of at most `width`, the first indented by `indent`, the rest by `hang`."""
    import textwrap

    return textwrap.wrap(text, width=max(width, indent + 20), initial_indent=" " * indent,
                         subsequent_indent=" " * hang, break_long_words=True,
                         break_on_hyphens=False) or [" " * indent]
