"""`litrec export tex`: every claim's verdict and numbers as LaTeX macros for a manuscript.

A manuscript `\\input`s the file and writes `\\litrecOswaldFOnePaperVerdict` where it states the
claim, so the number in the PDF is the number in the results.

Names (site/manuscript.md). A TeX control word is letters only. A macro's name is
`litrec`, the claim, the profile, then what it holds: `\\litrecOswaldFOnePaperFullLossTrained`.

- The claim is its record's tag and its local id spelt: `ARXIV-2212.07677#F1` ->
  `OswaldFOne`. A literature record's tag is its first author's family name (`Johannes
  von Oswald` -> `Oswald`; `Sacramento, João` -> `Sacramento`, accents dropped); any other
  record's, or one without authors, is its id spelt (`NOTE-621` -> `NoteSixTwoOne`).
  Spelling keeps each run of letters with its first letter upper-cased, writes each digit
  as its English word (`2` -> `Two`) and drops the punctuation (`-`, `.`, `#`, `_`, `+`).
  A claim's extension row (`<ref>+ext`) ends in `Ext`.
- Two claims whose short names would be one (two papers by one first author, each with
  an `F1`) both take their long name instead, the whole id spelt as written
  (`ARXIVTwoTwoOneTwoZeroSevenSixSevenSevenFOne`), and the export says so; a name never
  silently means another claim. Two claims whose long names would be one too (ids that
  differ only in punctuation) are refused (`NameClash`), naming both.
- The profile is spelt the same way with each part capitalised (`paper_full` ->
  `PaperFull`), so the files of two profiles can be `\\input` side by side.

Per claim and profile (`\\litrec<C><P>` below):

- `<C><P>Verdict`: the verdict, in litrec's words (`reproduced`, `not reproduced`, ...);
- `<C><P>Metric`, `<C><P>Value`, `<C><P>Expected`: the deciding outcome's metric (the one
  the judge marked: `litrec.verdicts.judge.mark_deciding`, as every surface names it),
  its value with its 95% interval over seeds, and its expectation (`≈ loss_gd (±0.01 rel)`,
  written with TeX's own symbols; ending ` (post hoc)` when it was committed after the
  first result it judges);
- `<C><P>Source`: where that expectation comes from (`paper, §4, Figure 5`, `official
  code, FILE, line N`, `litrec's extension`);
- `<C><P>Registration`: how the verdict was reached (`litrec.verdicts.events.how_judged`):
  `pre-registered` only when every criterion's present form was committed before the claim was
  first judged (at any scale) and no event of its protocol applies; else `post hoc: k of n
  criteria` and each event (`loosened: x < 0.05 → x < 0.1`, `settings changed at paper_full
  (steps)`, `seeds added after looking at paper_full (5 → 8)`, a criterion `moved to the
  extension row after it failed`);
- `<C><P>Events`: how many events; `<C><P>Through`, where an event changed the verdict, the
  line that says so (`reproduced after the experiment changed (steps); before: inconclusive at
  paper_full`);
- per metric its expectations name, `<C><P><Metric>` (value with interval),
  `<C><P><Metric>Mean`, `...Low`, `...High`, `...N` (`ood.max_rel_gap` -> `OodMaxRelGap`).

Counts at the profile, each paper's claims apart from the owner's own (`litrec.verdicts.summary`;
`\\litrec<G><P>` below), `<G>` being `Papers` (every paper's claims together), `Own` (the
claims of the owner's notes, theories, ...) or a paper's tag (`Oswald`; its id spelt where two
papers share a tag or the tag is a group's, `paper_names`):

- `<G><P>Claims`: how many claims; `<G><P><Verdict>`: how many have each verdict, every verdict
  defined, 0 included (`\\litrecPapersPaperReproduced`, `\\litrecOwnPaperNotReproduced`);
- `<G><P>Extensions`, `<G><P>Ext<Verdict>`: the same for their extension rows, beside them.

A number is one `\\ensuremath{...}` (`\\ensuremath{0.2067}`, `\\ensuremath{4.441\\times10^{-16}}`,
`\\ensuremath{0.2067\\ [0.2031, 0.2104]}`), so it works in running text and inside `$...$`
alike. Every string from the records, in a value or a `%` comment, passes through one escaper
(`litrec.export.texescape.escape`): one line, no control character, TeX's specials as text.
No file is written where `litrec status` would exit 1 (a damaged result, one that
cannot be judged, a bad signature: `litrec.verdicts.status.Status.refusals`). Nothing is
computed here: the values are the stored results' (`litrec.verdicts.claims`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from litrec.export.texescape import comment, escape
from litrec.util.errors import LitrecError
from litrec.util.formatting import fmt
from litrec.verdicts.events import how_judged
from litrec.verdicts.judge import deciding

if TYPE_CHECKING:
    from litrec.records.project import Project
    from litrec.verdicts.claims import ClaimStatus

DIGITS = ("Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine")
PREFIX = "litrec"


class NameClash(LitrecError):
    """Two claims (or metrics) would be given the same macro name."""


def spell(text: str, capitalise_parts: bool = False) -> str:
    """`text` as letters only: letter runs kept (first letter upper-cased), digits as words."""
    out = []
    for run in re.findall(r"[A-Za-z]+|\d", text):
        if run.isdigit():
            out.append(DIGITS[int(run)])
        else:
            out.append(run[0].upper() + (run[1:].lower() if capitalise_parts else run[1:]))
    return "".join(out)


def claim_name(ref: str) -> str:
    """A claim's long name, its whole id spelt as written: `ARXIV-2212.07677#F1` ->
    `ARXIVTwoTwoOneTwoZeroSevenSixSevenSevenFOne` (a claim whose short name another shares)."""
    return spell(ref)


def family_name(author: str) -> str:
    """An author's family name in ASCII letters: `Johannes von Oswald` -> `Oswald`,
    `Sacramento, João` -> `Sacramento`; empty when there are no letters."""
    name = author.split(",")[0] if "," in author else (author.split() or [""])[-1]
    letters = "".join(c for c in unicodedata.normalize("NFKD", name) if c.isascii() and c.isalpha())
    return letters[:1].upper() + letters[1:]


def record_tag(rec) -> str:
    """The record part of a short name: a literature record's first author's family name
    (`Oswald`), else the id spelt with each part capitalised (`NOTE-621` -> `NoteSixTwoOne`)."""
    authors = getattr(rec, "authors", None) or []
    tag = family_name(authors[0]) if rec.kind == "literature" and authors else ""
    return tag or spell(rec.id, capitalise_parts=True)


def short_name(tag: str, ref: str) -> str:
    """`Oswald`, `ARXIV-2212.07677#F1+ext` -> `OswaldFOneExt`: the tag, then the local id spelt."""
    return tag + spell(ref.partition("#")[2])


def profile_name(profile: str) -> str:
    """The profile part of a name: `paper_full` -> `PaperFull`, `quick` -> `Quick`."""
    return spell(profile, capitalise_parts=True)


def metric_name(metric: str) -> str:
    """`ood.max_rel_gap` -> `OodMaxRelGap`."""
    return spell(metric, capitalise_parts=True)


def claim_names(proj: Project, refs: list[str]) -> tuple[dict[str, str], list[str]]:
    """Each claim row's name (short; long where two claims would share the short one), and a
    line for each short name given up, naming the claims and the long names they take."""
    from litrec.records.criteria import base_claim

    tags = {rid: record_tag(rec) for rid, rec in proj.records.items()}
    short = {ref: short_name(tags[ref.partition("#")[0]], base_claim(ref))
             for ref in refs if ref.partition("#")[0] in tags}  # a claim's rows go together
    owners: dict[str, set[str]] = {}
    for ref, name in short.items():
        owners.setdefault(name, set()).add(base_claim(ref))
    names, notes = {}, []
    for ref in refs:
        got = short.get(ref)
        shared = got is None or len(owners[got]) > 1
        names[ref] = claim_name(ref) if shared else short_name(tags[ref.partition("#")[0]], ref)
    for name, claims in sorted(owners.items()):
        if len(claims) > 1:
            notes.append(f"claims {' and '.join(sorted(claims))} would share the short name "
                         f"\\{PREFIX}{name}...: each takes its long name ("
                         + ", ".join(f"\\{PREFIX}{claim_name(c)}..." for c in sorted(claims)) + ")")
    return names, notes


def _maths(x) -> str:
    """A number as litrec shows it (four significant digits), in TeX's maths, unwrapped."""
    if isinstance(x, float) and not math.isfinite(x):
        return r"\mathrm{NaN}" if math.isnan(x) else ("-" if x < 0 else "") + r"\infty"
    text = fmt(x, True)
    m = re.fullmatch(r"(-?[\d.]+)e([+-]?)0*(\d+)", text)
    if m:
        sign = "-" if m.group(2) == "-" else ""
        text = f"{m.group(1)}\\times10^{{{sign}{m.group(3)}}}"
    return text


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def number(x) -> str:
    """A number as maths that works in text and inside maths alike: `\\ensuremath{0.2067}`,
    `\\ensuremath{4.441\\times10^{-16}}`; anything else as escaped text."""
    if not _is_number(x):
        return escape(fmt(x, True))
    return f"\\ensuremath{{{_maths(x)}}}"


def _value(mean, interval, n) -> str:
    """The mean with its interval, as one piece of maths: `\\ensuremath{0.2067\\ [0.2031, 0.2104]}`."""
    if interval and (n or 1) > 1 and _is_number(mean) and all(_is_number(v) for v in interval):
        return (f"\\ensuremath{{{_maths(mean)}\\ [{_maths(interval[0])}, "
                f"{_maths(interval[1])}]}}")
    return number(mean)


def _source(src: dict) -> str:
    """`paper, §4, Figure 5`, `official code, src/train.py:307`, `extension`."""
    if src.get("kind") == "paper":
        return f"paper, {src.get('where')}"
    if src.get("kind") == "official":
        line = str(src.get("line"))
        return f"official code, {src.get('file')}" + (f":{line}" if line[:1].isdigit() else f", {line}")
    return "litrec's extension"


def macros(statuses: list[ClaimStatus], profile: str = "paper",
           names: dict[str, str] | None = None) -> list[tuple[str, str, str]]:
    """`(name, value, what it is)` for every macro, in claim order; each claim row named by
    `names` (default: its long name) and `profile`; NameClash on a shared name."""
    from litrec.verdicts.words import word

    out: list[tuple[str, str, str]] = []
    owner: dict[str, str] = {}
    at = profile_name(profile)

    def add(name: str, value: str, what: str, ref: str) -> None:
        full = PREFIX + name
        if full in owner and owner[full] != ref:
            raise NameClash(f"claims {owner[full]} and {ref} would both be \\{full}: their ids "
                            "differ only in punctuation or letter case; rename one")
        if full in owner:
            return
        owner[full] = ref
        out.append((full, value, what))

    for st in statuses:
        base = (names or {}).get(st.claim) or claim_name(st.claim)
        base += at
        add(base + "Verdict", escape(word(st.verdict)), f"{st.claim}: verdict", st.claim)
        o = deciding(st.outcomes)  # as the judge marked it: the terminal's and the site's too
        if o is not None and st.verdict not in ("missing", "unchecked", "modified", "error"):
            add(base + "Metric", escape(o.metric), f"{st.claim}: the deciding metric", st.claim)
            add(base + "Value", _value(o.measured, o.interval, o.n),
                f"{st.claim}: {o.metric}, mean [95% interval]", st.claim)
            late = (o.registration or {}).get("state") == "post hoc"
            add(base + "Expected", escape(o.expectation + (" (post hoc)" if late else "")),
                f"{st.claim}: its expectation", st.claim)
            if o.source:
                add(base + "Source", escape(_source(o.source)),
                    f"{st.claim}: where its expectation comes from", st.claim)
        if st.outcomes:
            add(base + "Registration", escape(st.how or how_judged(st.outcomes, st.events)),
                f"{st.claim}: whether its criteria were committed before the claim was first "
                "judged, and every event of its protocol after a look", st.claim)
            add(base + "Events", str(len(st.events)), f"{st.claim}: events of its protocol", st.claim)
            if st.through:
                add(base + "Through", escape(st.through),
                    f"{st.claim}: how an event changed its verdict", st.claim)
        seen = set()
        for o in st.outcomes:
            if o.metric in seen or not _is_number(o.measured):
                continue
            seen.add(o.metric)
            name = base + metric_name(o.metric)
            add(name, _value(o.measured, o.interval, o.n), f"{st.claim}: {o.metric}", st.claim)
            add(name + "Mean", number(o.measured), f"{st.claim}: {o.metric}, mean", st.claim)
            if o.interval:
                add(name + "Low", number(o.interval[0]), f"{st.claim}: {o.metric}, 95% low",
                    st.claim)
                add(name + "High", number(o.interval[1]), f"{st.claim}: {o.metric}, 95% high",
                    st.claim)
            add(name + "N", str(o.n), f"{st.claim}: {o.metric}, seeds", st.claim)
    return out


GROUPS = ("Papers", "Own")  # the names of the papers' claims together and of the owner's own


def paper_names(proj: Project, papers: list[str]) -> tuple[dict[str, str], list[str]]:
    """Each paper's name in its count macros: its record's tag (`Oswald`, as its claims'); its
    long name, its id spelt (`ARXIVTwoTwoOneTwoZeroSevenSixSevenSeven`), where another paper has
    the same tag or the tag is a group's (`Papers`, `Own`); and a line for each tag given up."""
    tags = {rid: record_tag(proj.records[rid]) for rid in papers}
    shared: dict[str, list[str]] = {}
    for rid, tag in tags.items():
        shared.setdefault(tag, []).append(rid)
    names, notes = {}, []
    for rid, tag in tags.items():
        taken = len(shared[tag]) > 1 or tag in GROUPS
        names[rid] = claim_name(rid) if taken else tag
    for tag, rids in sorted(shared.items()):
        longs = ", ".join(f"\\{PREFIX}{claim_name(r)}..." for r in sorted(rids))
        if len(rids) > 1:
            notes.append(f"papers {' and '.join(sorted(rids))} would share the count macros "
                         f"\\{PREFIX}{tag}...: each takes its long name ({longs})")
        elif tag in GROUPS:
            notes.append(f"paper {rids[0]}'s count macros would be \\{PREFIX}{tag}..., a group's: "
                         f"it takes its long name ({longs})")
    return names, notes


def count_macros(proj: Project, statuses: list[ClaimStatus], profile: str = "paper"
                 ) -> tuple[list[tuple[str, str, str]], list[str]]:
    """`(name, value, what it is)` for the counts at `profile` (`litrec.verdicts.summary`): the
    papers' claims together (`Papers`), the owner's own (`Own`), then each paper's
    (`paper_names`); for each, how many claims, how many have each verdict (every verdict, 0
    included, so a manuscript never loses a macro to a verdict no claim has), and the same for
    their extension rows (`Extensions`, `Ext<Verdict>`). And a line for each tag given up."""
    from litrec.verdicts.claims import VERDICTS
    from litrec.verdicts.summary import tally_statuses

    got = tally_statuses(statuses)
    names, notes = paper_names(proj, list(got.papers))
    groups = [("Papers", "the papers' claims", got.all_papers), ("Own", "your own claims", got.own)]
    groups += [(names[rid], f"{rid}'s claims", count) for rid, count in got.papers.items()]
    at = profile_name(profile)
    out = []
    for group, whose, count in groups:
        base = PREFIX + group + at
        out.append((base + "Claims", str(count.n), f"{whose}: how many"))
        out += [(base + spell(v, True), str(count.claims[v]), f"{whose}: {v}") for v in VERDICTS]
        out.append((base + "Extensions", str(count.n_extensions),
                    f"{whose}: how many extension rows beside them"))
        out += [(base + "Ext" + spell(v, True), str(count.extensions[v]), f"{whose}: extensions {v}")
                for v in VERDICTS]
    return out, notes


@dataclass
class TexExport:
    """`litrec export tex`'s file (None when nothing may be written), and what the command says:
    what `litrec status` refuses in the results, and the short names given up."""

    text: str | None
    refusals: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        """How many macros the file defines."""
        return (self.text or "").count("\\newcommand")


# How the macros file begins (its first line adds the profile): `--out` replaces a file so begun
TEX_MARK = "% Written by `litrec export tex"


def tex_document(proj: Project, statuses: list[ClaimStatus], profile: str) -> tuple[str, list[str]]:
    """The macros file (a header, then one `\\newcommand` per macro with what it holds), and
    a line per short name given up (`claim_names`)."""
    names, notes = claim_names(proj, [s.claim for s in statuses])
    claims = macros(statuses, profile, names)
    counts, count_notes = count_macros(proj, statuses, profile)
    notes += count_notes
    taken = {name for name, _, _ in claims}
    for name, _, what in counts:
        if name in taken:
            raise NameClash(f"\\{name} would be both a claim's macro and a count ({what}); "
                            "rename the record or the claim")
    lines = [f"{TEX_MARK} --profile {profile}`: every claim's verdict and\n",
             "% numbers from the stored results. Do not edit; \\input it in the manuscript.\n",
             "% Names: site/manuscript.md (Names).\n"]
    lines += [comment(n) for n in notes]
    for name, value, what in claims:  # every value and comment made one line by `escape`
        lines.append(f"\\newcommand{{\\{name}}}{{{value}}}{comment(what)}")
    lines.append("% Counts: each paper's claims apart from your own (site/manuscript.md).\n")
    for name, value, what in counts:
        lines.append(f"\\newcommand{{\\{name}}}{{{value}}}{comment(what)}")
    return "".join(lines), notes


def tex_export(records: Path, analysis: Path | None, results_dir: Path, profile: str,
               require_signed: bool = False) -> TexExport:
    """`litrec export tex` below the command: the macros file of the valid project's claims at
    `profile`, or no file where `litrec status` would exit 1 (`Status.refusals`: the same
    decision, the same words); `NameClash` when two claims would share a long name."""
    from litrec.verdicts.status import status

    found = status(records, analysis, results_dir, profile, require_signed, other_scales=False)
    if found.refusals:
        return TexExport(None, found.refusals)
    text, notes = tex_document(found.project, found.statuses, profile)  # the project judged: loaded once
    return TexExport(text, [], notes)
