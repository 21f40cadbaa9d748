"""Per claim, one small interval plot: each outcome's interval against its threshold.

As rliable draws interval estimates (Agarwal et al., NeurIPS 2021), one row
per expectation shows what decided it: the quantity judged (the metric, or the
paired difference, the position, or (measured − expected) / tolerance), its
95% interval over seeds as a bar, its mean as a dot, each seed as a tick, and
the threshold as a line, the side where the expectation would fail shaded. A
reader sees at a glance how far each expectation is from flipping. The plot is
inline SVG written here (no script, every text escaped), coloured by the
site's CSS so it follows the light and dark schemes; it computes no number,
only positions on the page, from the stored outcome.

No text runs into another: a row's label is wrapped to the room left of its mark
(`holds`, `straddles`) and its note to the plot's width, reckoning each character
of the monospace font at `ADVANCE` of its size (a little more than any common
monospace face), and the row grows by a line for each wrapped line.

A row's scale is its own: logarithmic where the mean, the interval's top and the
threshold are positive and span more than two orders of magnitude (an error of
1e-16 against 1e-10; a lower end at or below zero then starts at the left
edge), linear otherwise. Outcomes with no interval to draw (a list-valued
metric, `==`, a refused comparison) are left out, and said so under the plot.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass

from litrec.records.operators import COMPARISONS, Comparison, operator
from litrec.site.stored_html import esc
from litrec.util.formatting import fmt

WIDTH, ROW, TOP = 640, 60, 4  # ROW: the height of a row whose label and note are one line each
LEFT, RIGHT = 12, 12          # margins of each row's axis
LOG_SPAN = 100.0              # a row spanning more than this factor is drawn on a log scale
# Font sizes in px, as site/assets/extra.css sets them (.lr-plot-label, .lr-plot-note), and the
# width of a monospace character in em: 0.6 in DejaVu Sans Mono, Liberation Mono, Menlo, SF Mono
# and Roboto Mono, 0.55 in Consolas; 0.62 leaves room for rounding.
LABEL_PX, NOTE_PX, ADVANCE = 12, 11, 0.62
LABEL_LEAD, NOTE_LEAD = 15, 14  # px from one wrapped line to the next
GAP = 12                      # px kept clear between a label and its row's mark


@dataclass(frozen=True)
class Row:
    """What one row draws: the judged quantity against its rule."""

    label: str                # the expectation as written
    quantity: str             # what is judged (the metric itself, or a derived quantity)
    op: str                   # its comparison: <, <=, >, >= or band (|q| <= 1), `COMPARISONS`
    threshold: float
    mean: float
    low: float
    high: float
    values: tuple[float, ...]
    decision: str             # holds, fails, inconclusive

    @property
    def comparison(self) -> Comparison:
        """The comparison the quantity's mean is decided by (`op`)."""
        return COMPARISONS[self.op]


def rule(exp) -> tuple[str, float]:
    """(comparison, threshold) the judged quantity is compared with: its operator's rule
    (`litrec.records.operators`), the one `litrec.verdicts.judge` decides by."""
    judged = operator(exp.op).rule
    if judged is None:
        raise ValueError(f"op '{exp.op}' has no threshold: it is judged seed by seed")
    return judged(exp)


def row_of(exp, o) -> Row | None:
    """The row of one outcome, or None when it has nothing to draw."""
    judged = operator(exp.op)
    if o is None or judged.rule is None or o.decision not in ("holds", "fails", "inconclusive"):
        return None
    if o.judged:
        q = o.judged
        mean, (low, high), values = q["mean"], q["interval"], q["values"]
    else:
        if o.interval is None or not _number(o.measured):
            return None
        mean, (low, high), values = o.measured, o.interval, o.values or []
    quantity = judged.plot_label(exp)
    try:
        op, t = rule(exp)
        nums = [float(mean), float(low), float(high), float(t), *map(float, values)]
    except (TypeError, ValueError):
        return None
    if not all(math.isfinite(x) for x in nums):
        return None
    return Row(exp.describe(), quantity, op, float(t), float(mean), float(low), float(high),
               tuple(float(v) for v in values), o.decision)


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class _Scale:
    """Data to x pixels over a row's span, linear or logarithmic."""

    def __init__(self, lo: float, hi: float, log: bool):
        self.log = log
        f = math.log10 if log else (lambda x: x)
        a, b = f(lo), f(hi)
        if b - a < 1e-300:
            a, b = a - 1, b + 1
        pad = 0.08 * (b - a)
        self.a, self.b = a - pad, b + pad
        self.f = f

    def __call__(self, x: float) -> float:
        if self.log and x <= 0:  # an interval reaching zero or below: from the left edge
            return LEFT
        u = (self.f(x) - self.a) / (self.b - self.a)
        return LEFT + max(0.0, min(1.0, u)) * (WIDTH - LEFT - RIGHT)


def _scale(r: Row) -> _Scale:
    pts = [r.low, r.high, r.mean, *r.values]
    marks = list(r.comparison.lines(r.threshold))
    every = pts + marks
    # a log scale where the mean, the top and the threshold are positive and far apart; a lower
    # end at or below zero (a t interval of tiny errors) then runs from the left edge
    key = [r.high, r.mean, *marks]
    if r.comparison.side != "inside" and all(x > 0 for x in key):
        shown = [x for x in every if x > 0]
        if max(shown) / min(shown) > LOG_SPAN:
            return _Scale(min(shown), max(shown), True)
    lo, hi = min(every), max(every)
    if r.comparison.side == "inside":  # the band is always in view, with room on both sides of it
        lo, hi = min(lo, -1.5), max(hi, 1.5)
    return _Scale(lo, hi, False)


def _fail_zones(r: Row, s: _Scale) -> list[tuple[float, float]]:
    """Pixel spans where the quantity would fail its rule."""
    x0, x1 = LEFT, WIDTH - RIGHT
    if r.comparison.side == "inside":
        return [(x0, s(-1.0)), (s(1.0), x1)]
    t = s(r.threshold)
    return [(t, x1)] if r.comparison.side == "below" else [(x0, t)]


def _margin(r: Row) -> str:
    """How far the interval's nearer end is from flipping, in the row's own terms."""
    if r.comparison.side == "inside":
        gap = min(1 - r.high, r.low + 1) if r.decision == "holds" else None
        return f"margin {gap:.2f}" if gap is not None else ""
    if r.decision != "holds":
        return ""
    near = r.high if r.comparison.side == "below" else r.low
    if r.threshold > 0 and near > 0 and max(r.threshold, near) / min(r.threshold, near) > 10:
        return f"{fmt(max(r.threshold, near) / min(r.threshold, near))}× from the threshold"
    return f"margin {fmt(abs(r.threshold - near))}"


def text_width(text: str, px: float) -> float:
    """The most pixels `text` takes in the plot's monospace font at `px`."""
    return len(text) * px * ADVANCE


def wrap(text: str, room: float, px: float) -> list[str]:
    """`text` in lines of at most `room` pixels at `px` (between words; a word longer than a
    line is split)."""
    chars = max(1, int(room // (px * ADVANCE)))
    return textwrap.wrap(text, chars, break_on_hyphens=False) or [""]


def _lines(cls: str, x: float, y: float, lead: int, lines: list[str], anchor: str = "") -> str:
    """One <text> of `lines` (the first on `y`), each a <tspan> at its own x and y where there
    are several."""
    spans = esc(lines[0]) if len(lines) == 1 else "".join(
        f'<tspan x="{x}" y="{y + i * lead}">{esc(t)}</tspan>' for i, t in enumerate(lines))
    return f'<text class="{cls}" x="{x}" y="{y}"{anchor}>{spans}</text>'


def interval_plot(rows: list[Row], left_out: int = 0, title: str = "") -> str:
    """The inline SVG of the rows (and a line on what was left out); '' when nothing to draw."""
    if not rows:
        return ""
    out: list[str] = []
    y = TOP
    for i, r in enumerate(rows):
        s = _scale(r)
        mark = _mark(r.decision)
        head = wrap(r.label, WIDTH - LEFT - RIGHT - text_width(mark, NOTE_PX) - GAP, LABEL_PX)
        axis = y + 30 + LABEL_LEAD * (len(head) - 1)
        out.append(f'<g class="lr-plot-row lr-plot-{r.decision}">')
        if i:
            out.append(f'<line class="lr-plot-rule" x1="0" y1="{y - 2}" x2="{WIDTH}" y2="{y - 2}"/>')
        for a, b in _fail_zones(r, s):
            if b > a:
                out.append(f'<rect class="lr-plot-fail" x="{a:.1f}" y="{axis - 9}" '
                           f'width="{b - a:.1f}" height="18"/>')
        out.append(f'<line class="lr-plot-axis" x1="{LEFT}" y1="{axis}" x2="{WIDTH - RIGHT}" '
                   f'y2="{axis}"/>')
        for t in r.comparison.lines(r.threshold):
            out.append(f'<line class="lr-plot-threshold" x1="{s(t):.1f}" y1="{axis - 11}" '
                       f'x2="{s(t):.1f}" y2="{axis + 11}"/>')
        lo, hi = s(r.low), s(r.high)
        out.append(f'<rect class="lr-plot-interval" x="{lo:.1f}" y="{axis - 4}" '
                   f'width="{max(hi - lo, 1.5):.1f}" height="8"/>')
        for v in r.values:
            out.append(f'<line class="lr-plot-seed" x1="{s(v):.1f}" y1="{axis - 7}" '
                       f'x2="{s(v):.1f}" y2="{axis + 7}"/>')
        out.append(f'<circle class="lr-plot-mean" cx="{s(r.mean):.1f}" cy="{axis}" r="3.5"/>')
        rule_text = r.comparison.text(r.threshold)
        judged = "" if r.quantity == r.label.split(" ")[0] else f"{r.quantity} = "
        spread = (f" [{fmt(r.low)}, {fmt(r.high)}]" if r.high > r.low else
                  " (one seed)" if len(r.values) <= 1 else " (every seed equal)")
        note = f"{judged}{fmt(r.mean)}{spread}; rule {rule_text}"
        margin = _margin(r)
        if margin:
            note += f"; {margin}"
        if s.log:
            note += " (log scale)"
        notes = wrap(note, WIDTH - LEFT - RIGHT, NOTE_PX)
        out.append(_lines("lr-plot-label", LEFT, y + 13, LABEL_LEAD, head))
        out.append(_lines("lr-plot-note lr-plot-mark", WIDTH - RIGHT, y + 13, NOTE_LEAD, [mark],
                          ' text-anchor="end"'))
        out.append(f'<title>{esc(r.label + " — " + note)}</title>')
        out.append(_lines("lr-plot-note", LEFT, axis + 22, NOTE_LEAD, notes))
        out.append("</g>")
        y += ROW + LABEL_LEAD * (len(head) - 1) + NOTE_LEAD * (len(notes) - 1)
    h = y + 4
    svg = (f'<svg class="lr-plot" viewBox="0 0 {WIDTH} {h}" width="{WIDTH}" height="{h}" '
           f'role="img" aria-label="{esc(title or "interval plot")}" '
           'xmlns="http://www.w3.org/2000/svg">' + "".join(out) + "</svg>")
    more = (f'<p class="lr-reason">{left_out} expectation{"s" * (left_out != 1)} not drawn '
            "(no interval: a list, an equality or a refused comparison).</p>") if left_out else ""
    return f'<figure class="lr-plot-box" data-search-exclude>{svg}{more}</figure>\n'


def _mark(decision: str) -> str:
    return {"holds": "holds", "fails": "fails", "inconclusive": "straddles"}.get(decision, decision)
