"""`litrec export tex`: every claim's verdict and numbers as LaTeX macros for a manuscript.

A manuscript `\\input`s the file and writes `\\litrecArxivTwoTwoOneTwoZeroSevenSixSevenSevenFOneVerdict`
where it states the claim, so the number in the PDF is the number in the results.

Names. A TeX control word is letters only, so a name spells the claim's id:
each run of letters is kept with its first letter upper-cased and the rest as
written (`ARXIV` -> `ARXIV`, `rsa` -> `Rsa`), each digit becomes its English
word (`2` -> `Two`), and the punctuation between them (`-`, `.`, `#`, `_`) is
dropped: `ARXIV-2212.07677#F1` -> `ARXIVTwoTwoOneTwoZeroSevenSixSevenSevenFOne`.
A metric's name is spelt the same way with its `_` and `.` dropped and each
part capitalised (`ood.max_rel_gap` -> `OodMaxRelGap`). A name depends on the
id alone, so it never changes when other claims come or go. Two claims whose
ids differ only in punctuation, or in the case of a letter run's first letter,
would get one name: litrec refuses to write such a file and names both, rather
than silently numbering them (which would make a name depend on the others).

Per claim (`\\litrec<ID>` below):

- `<ID>Verdict`: the verdict, in litrec's words (`reproduced`, `not reproduced`, ...);
- `<ID>Metric`, `<ID>Value`, `<ID>Expected`: the deciding outcome's metric,
  its value with its 95% interval over seeds (`0.2067 [0.2031, 0.2104]`), and its
  expectation (`≈ loss_gd (±0.01 rel)`, written with TeX's own symbols; ending
  ` (post hoc)` when it was committed after the first result it judges);
- `<ID>Source`: where that expectation comes from (`paper, §4, Figure 5`, `official
  code, FILE, line N`, `litrec's extension`);
- `<ID>Registration`: `pre-registered`, or `post hoc: k of n criteria` (committed
  after the first result they judge: `litrec.verdicts.registration`);
- a claim's extension row (`<ID>+ext`, litrec's own expectations judged beside it)
  has macros of its own, its name ending `Ext`;
- per metric its expectations name, `<ID><Metric>` (value with interval),
  `<ID><Metric>Mean`, `<ID><Metric>Low`, `<ID><Metric>High`, `<ID><Metric>N`.

Numbers are written as litrec shows them (four significant digits) as maths
that works in running text and inside `$...$` alike: `\\ensuremath{0.2067}`,
`\\ensuremath{4.441\\times10^{-16}}`. A damaged result, or one that cannot be
judged, writes no file: `tex_export` raises `DamagedResults`, naming each.
Nothing is computed here: the values are the stored results' (`litrec.verdicts.claims`), with their verdicts.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from litrec.util.errors import LitrecError
from litrec.util.formatting import fmt

if TYPE_CHECKING:
    from litrec.records.project import Project
    from litrec.verdicts.claims import ClaimStatus

DIGITS = ("Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine")
PREFIX = "litrec"
_TEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "#": r"\#", "$": r"\$",
                "%": r"\%", "&": r"\&", "_": r"\_", "^": r"\^{}", "~": r"\~{}"}
_SYMBOLS = {"§": r"\S{}", "≈": r"\ensuremath{\approx}", "×": r"\ensuremath{\times}",
            "±": r"\ensuremath{\pm}", "≤": r"\ensuremath{\le}", "≥": r"\ensuremath{\ge}", "−": "-",
            "<=": r"\ensuremath{\le}", ">=": r"\ensuremath{\ge}", "<": r"\ensuremath{<}",
            ">": r"\ensuremath{>}", "==": "="}


class NameClash(LitrecError):
    """Two claims (or metrics) would be given the same macro name."""


class DamagedResults(LitrecError):
    """A result the macros would be read from is damaged or cannot be judged: no file is written,
    so a manuscript never prints `modified` or `error` as a claim's verdict."""


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
    """The letters of a claim's macros: `ARXIV-2212.07677#F1` -> `ARXIVTwoTwoOne...FOne`."""
    return spell(ref)


def metric_name(metric: str) -> str:
    """`ood.max_rel_gap` -> `OodMaxRelGap`."""
    return spell(metric, capitalise_parts=True)


def escape(text: str) -> str:
    """Text safe in a TeX document, with litrec's maths symbols as TeX's."""
    text = str(text)
    out, i = [], 0
    while i < len(text):
        two = text[i:i + 2]
        if two in _SYMBOLS:
            out.append(_SYMBOLS[two])
            i += 2
            continue
        c = text[i]
        out.append(_SYMBOLS.get(c) or _TEX_SPECIAL.get(c) or c)
        i += 1
    return "".join(out)


def number(x) -> str:
    """A number as litrec shows it, as maths that works in text and inside maths alike:
    `\\ensuremath{0.2067}`, `\\ensuremath{4.441\\times10^{-16}}`."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return escape(fmt(x, True))
    text = fmt(x, True)
    m = re.fullmatch(r"(-?[\d.]+)e([+-]?)0*(\d+)", text)
    if m:
        sign = "-" if m.group(2) == "-" else ""
        text = f"{m.group(1)}\\times10^{{{sign}{m.group(3)}}}"
    return f"\\ensuremath{{{text}}}"


def _value(mean, interval, n) -> str:
    if interval and (n or 1) > 1:
        return f"{number(mean)} [{number(interval[0])}, {number(interval[1])}]"
    return number(mean)


def _deciding(st: ClaimStatus):
    for decision in ("refused", "fails", "inconclusive"):
        for o in st.outcomes:
            if o.decision == decision:
                return o
    return st.outcomes[0] if st.outcomes else None


def _source(src: dict) -> str:
    """`paper, §4, Figure 5`, `official code, src/train.py:307`, `extension`."""
    if src.get("kind") == "paper":
        return f"paper, {src.get('where')}"
    if src.get("kind") == "official":
        line = str(src.get("line"))
        return f"official code, {src.get('file')}" + (f":{line}" if line[:1].isdigit() else f", {line}")
    return "litrec's extension"


def macros(statuses: list[ClaimStatus]) -> list[tuple[str, str, str]]:
    """`(name, value, what it is)` for every macro, in claim order; NameClash on a shared name."""
    from litrec.verdicts.words import word

    out: list[tuple[str, str, str]] = []
    owner: dict[str, str] = {}

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
        base = claim_name(st.claim)
        add(base + "Verdict", escape(word(st.verdict)), f"{st.claim}: verdict", st.claim)
        o = _deciding(st)
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
            n_late = len(st.post_hoc)
            add(base + "Registration",
                f"post hoc: {n_late} of {len(st.outcomes)} criteria" if n_late else "pre-registered",
                f"{st.claim}: criteria committed after the first result they judge", st.claim)
        seen = set()
        for o in st.outcomes:
            if o.metric in seen or not isinstance(o.measured, (int, float)) \
                    or isinstance(o.measured, bool):
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


def tex_document(proj: Project, results_dir: Path, profile: str) -> str:
    """The macros file: a header, then one `\\newcommand` per macro with what it holds."""
    from litrec.verdicts.claims import claim_statuses

    statuses = claim_statuses(proj, results_dir, profile)
    lines = [f"% Written by `litrec export tex --profile {profile}`: every claim's verdict and\n",
             "% numbers from the stored results. Do not edit; \\input it in the manuscript.\n",
             "% Names: site/cli.md (litrec export tex).\n"]
    for name, value, what in macros(statuses):
        lines.append(f"\\newcommand{{\\{name}}}{{{value}}}% {escape(what)}\n")
    return "".join(lines)


def tex_export(records: Path, analysis: Path | None, results_dir: Path, profile: str) -> str:
    """`litrec export tex` below the command: the macros file of the valid project's claims at
    `profile` (`NameClash` when two would share a name)."""
    from litrec.verdicts.claims import claim_statuses, result_problems
    from litrec.verdicts.status import judged_project

    proj = judged_project(records, analysis, results_dir, profile)
    errors, _ = result_problems(claim_statuses(proj, results_dir, profile))
    if errors:
        raise DamagedResults("no macros written: " + "; ".join(errors))
    return tex_document(proj, results_dir, profile)
