"""One row per benchmark figure, shared by the scripts in bench/.

Every script prints its own detail and, at the end, its figures as rows: what
was measured, its median, the named baseline measured in the same run, the
ratio between them, and the goal with whether it was met. With `--json PATH`
(see `add_json_argument`) the rows are also appended to PATH as JSON lines,
which `bench/all.py` (`make bench`) gathers into one table.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass
class Row:
    """One figure: `value` against `baseline_value`, both in `unit`, and the goal it answers."""

    bench: str                    # script and case, e.g. "validate cold 10k"
    value: float                  # median of the measured runs
    unit: str                     # "s", "MiB", "ms/step", "x" ...
    baseline: str = ""            # what the value is compared with, measured in the same run
    baseline_value: float | None = None
    goal: str = ""                # the goal in words, e.g. "< 0.5 s" or "<= 1.5x baseline"
    met: bool | None = None       # None when the row has no goal of its own

    @property
    def ratio(self) -> float | None:
        """value / baseline_value, when there is a baseline."""
        if not self.baseline_value:
            return None
        return self.value / self.baseline_value


def add_json_argument(parser) -> None:
    """Adds `--json PATH` to a script's argument parser."""
    parser.add_argument("--json", metavar="PATH", default=None,
                        help="also append the figures as JSON lines to PATH (bench/all.py)")


def parse(parser, argv: list[str] | None = None, **smoke):
    """The script's arguments, with `--smoke` added: a run of seconds that checks the script
    still works (tests/bench runs every script so), each option named in `smoke` set to its
    tiny value there, and no comparison with the release (`--against none`, unless `smoke`
    names another). Its figures
    measure nothing worth keeping: `bench/all.py --smoke` stores none in bench/results.json."""
    parser.add_argument("--smoke", action="store_true",
                        help="seconds at tiny sizes, to check the script runs (CI); no figure to keep")
    args = parser.parse_args(argv)
    if args.smoke:
        if hasattr(args, "against"):
            args.against = "none"
        for name, value in smoke.items():
            setattr(args, name, value)
    return args


def fast_compiles() -> None:
    """A smoke run's JAX programs compiled with most of XLA's optimisations off, in this process
    and in the processes it starts: a second or more less for each program, where a smoke run's
    figures are not kept. Not for a script that starts `litrec run`, whose results would record
    the setting among their numerics settings."""
    os.environ["JAX_DISABLE_MOST_OPTIMIZATIONS"] = "1"
    if "jax" in sys.modules:  # imported already: the setting is read at each compile
        sys.modules["jax"].config.update("jax_disable_most_optimizations", True)


def _num(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.3g}" if abs(x) < 1000 else f"{x:,.0f}"


def _ratio(r: Row) -> str:
    """value / baseline; as a speed-up (baseline / value) where the goal is to be faster."""
    if not r.ratio:
        return "-"
    return f"{1 / r.ratio:.2f}x faster" if "faster" in r.goal else f"{r.ratio:.2f}x"


def format_rows(rows: list[Row]) -> str:
    """The rows as a plain-text table."""
    head = ("bench", "value", "unit", "baseline", "baseline value", "ratio", "goal", "met")
    body = [(r.bench, _num(r.value), r.unit, r.baseline or "-", _num(r.baseline_value),
             _ratio(r), r.goal or "-",
             {True: "yes", False: "NO", None: "-"}[r.met]) for r in rows]
    widths = [max(len(str(c)) for c in col) for col in zip(head, *body)]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(line, widths)).rstrip()
             for line in [head, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def emit(rows: list[Row], json_path: str | None = None) -> None:
    """Prints the rows as a table and appends them to `json_path` (JSON lines) when given."""
    print(format_rows(rows))
    if json_path:
        with Path(json_path).open("a", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps({**asdict(r), "ratio": r.ratio}) + "\n")


def cannot_measure(reason: str, json_path: str | None = None, goal: str = "") -> None:
    """Says this machine cannot give the script's figures (no accelerator, say), why, and the
    goal left unanswered: printed, and appended to `json_path` as a line `bench/all.py` records
    in the table."""
    print(f"not measured: {reason}" + (f" (goal: {goal})" if goal else ""))
    if json_path:
        with Path(json_path).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps({"not_measured": reason, "goal": goal}) + "\n")


def not_measured_reason(json_path: str) -> tuple[str, str] | None:
    """The reason a script gave for measuring nothing here, and its goal (`cannot_measure`)."""
    for line in Path(json_path).read_text(encoding="utf-8").splitlines():
        if line.strip() and "not_measured" in (data := json.loads(line)):
            return data["not_measured"], data.get("goal", "")
    return None


def load(json_path: str) -> list[Row]:
    """The rows appended to `json_path`."""
    rows = []
    for line in Path(json_path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            data = json.loads(line)
            if "not_measured" in data:
                continue
            data.pop("ratio", None)
            rows.append(Row(**data))
    return rows


# In the order of the table: validation, site, runs; then any other script of bench/.
ORDER = (
    "validate_scale",
    "site_scale",
    "serve_edit",
    "noop_run",
    "seeds_batched",
    "sweep_speedup",
    "cluster_speedup",
    "train_throughput",
    "deep_lsa_step",
    "train_speed",
    "official_step",
    "accelerator_seeds",
    "paper_full_time",
    "suite_time",
    "ci_time",
)
HELPERS = {"all", "release", "report", "table"}  # modules of bench/ that are not benchmarks


def scripts() -> list[str]:
    """Every benchmark script in bench/, in the table's order."""
    found = {p.stem for p in Path(__file__).resolve().parent.glob("*.py")} - HELPERS
    return [n for n in ORDER if n in found] + sorted(found - set(ORDER))


SCRIPTS = tuple(scripts())
