"""The one table of measured figures the docs show: bench/results.json, rendered.

`bench/all.py` (`make bench`) stores each script's rows in `bench/results.json`,
with when and where they were measured (UTC time, git commit, CPU count and
model, the load average as the script started), replacing only the scripts it
ran; then it writes `site/bench-table.md`, which the site's pages include with
the snippets extension (`--8<-- "bench-table.md"`; mkdocs.yml keeps it from
being a page of its own), and the same table into README.md between its
`bench-table` markers. No figure in the docs is copied
by hand: a test checks that both are what `results.json` renders.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import time
from pathlib import Path

import report

HERE = Path(__file__).resolve().parent
RESULTS, README = HERE / "results.json", HERE.parent / "README.md"
TABLE = HERE.parent / "site" / "bench-table.md"  # not a page: mkdocs.yml excludes it, pages include it
START, END = "<!-- bench-table:start -->", "<!-- bench-table:end -->"


def machine() -> dict:
    """Where and when the figures are measured."""
    try:
        commit = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--short=12", "HEAD"],
                                capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        model = platform.processor()
    return {"measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit,
            "cpus": os.cpu_count(), "cpu": model,
            "load": round(os.getloadavg()[0], 1) if hasattr(os, "getloadavg") else None}


def load(path: Path = RESULTS) -> dict:
    """{script: {"rows": [...], "measured", "commit", "cpus", "cpu", "load"}} (`path`: a file
    other than bench/results.json, for a smoke run or a test)."""
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def _save(data: dict, path: Path) -> None:
    path.write_text(json.dumps(dict(sorted(data.items())), indent=1, ensure_ascii=False) + "\n",
                    encoding="utf-8")


def store(script: str, rows: list[report.Row], where: dict, path: Path = RESULTS) -> None:
    """Replace one script's rows (and where they were measured) in results.json (or `path`)."""
    data = load(path)
    data[script] = {**where, "rows": [{k: v for k, v in r.__dict__.items()} for r in rows]}
    _save(data, path)


def not_measured(script: str, reason: str, where: dict, goal: str = "", path: Path = RESULTS) -> None:
    """Record in results.json (or `path`) that `script`'s figures were not measured, and why (a
    loaded machine, say): the table says so in its row, in place of figures measured elsewhere,
    with the goal left unanswered when the script named it."""
    data = load(path)
    data[script] = {**where, "rows": [], "not_measured": reason, **({"goal": goal} if goal else {})}
    _save(data, path)


def _num(x) -> str:
    if x is None:
        return "—"
    return f"{x:.3g}" if abs(x) < 1000 else f"{x:,.0f}"


def render(data: dict, scripts: list[str]) -> str:
    """The Markdown table of every script's rows, in the order of `scripts`."""
    lines = ["| figure | median | baseline | ratio | goal | met | measured |",
             "|---|---|---|---|---|---|---|"]
    notes = []
    for name in scripts:
        got = data.get(name)
        if not got or not got.get("rows"):
            why = f" ({got['not_measured']}, {got['measured']}, load average {got['load']})" \
                if got and got.get("not_measured") else ""
            goal = got.get("goal", "") if got else ""
            lines.append(f"| `bench/{name}.py` | not measured yet{why}: "
                         f"`python bench/all.py --only {name}` | | | {goal} | "
                         f"{'not measured' if goal else ''} | |")
            continue
        n = len(notes) + 1
        notes.append(f"{n}. `bench/{name}.py`: {got['measured']}, commit `{got['commit']}`, "
                     f"{got['cpus']} CPUs ({got['cpu']}), load average {got['load']} at its start."
                     + (f" Not measured: {got['not_measured']}." if got.get("not_measured") else ""))
        for r in (report.Row(**row) for row in got["rows"]):
            base = f"{r.baseline}: {_num(r.baseline_value)} {r.unit}" if r.baseline_value else (
                r.baseline or "—")
            lines.append(f"| {r.bench} | {_num(r.value)} {r.unit} | {base} | {report._ratio(r).replace('-', '—')} "
                         f"| {r.goal or '—'} | {({True: 'yes', False: '**no**', None: '—'})[r.met]} "
                         f"| [{n}](#bench-{n}) |")
    foot = "\n".join(f'<span id="bench-{i}"></span>{note}' for i, note in enumerate(notes, 1)
                     ).replace('<span id="bench-', '\n<span id="bench-').lstrip("\n")
    return ("Every figure below was measured by `make bench` (`bench/all.py`); medians. Each "
            "stands beside its named baseline, measured in the same run unless it is a reference "
            "figure named as one (the official code's). The machine is shared (see each script's "
            "load average), so a ratio says more than a time.\n\n" + "\n".join(lines)
            + "\n\nWhere each script ran:\n\n" + foot + "\n")


def main(argv: list[str] | None = None) -> int:
    """`python bench/table.py --not-measured SCRIPT REASON`: say why a script's figures are not
    in the table; `python bench/table.py`: render the table again."""
    import argparse

    ap = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    ap.add_argument("--not-measured", nargs=2, metavar=("SCRIPT", "REASON"))
    args = ap.parse_args(argv)
    if args.not_measured:
        script, reason = args.not_measured
        if script not in report.SCRIPTS:
            ap.error(f"no script bench/{script}.py; one of {', '.join(report.SCRIPTS)}")
        not_measured(script, reason, machine())
    write(list(report.SCRIPTS))
    return 0


def write(scripts: list[str]) -> str:
    """Render results.json into site/bench-table.md and README.md's table; return the table."""
    text = render(load(), scripts)
    TABLE.write_text(text, encoding="utf-8")
    readme = README.read_text(encoding="utf-8")
    if START in readme and END in readme:
        head, rest = readme.split(START, 1)
        README.write_text(head + START + "\n" + text + END + rest.split(END, 1)[1], encoding="utf-8")
    return text


if __name__ == "__main__":
    raise SystemExit(main())
