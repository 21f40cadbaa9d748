"""`make mutation`: mutation testing of the verdict core, and its score.

Runs mutmut (pinned in pyproject's dev extras and constraints.txt; its settings are pyproject's
[tool.mutmut]) on judge, stats, expectation, operators, verdicts, state and seal. mutmut runs each mutant
against the tests that reach its function (tests/verdicts, less the ones that run litrec in a
subprocess, which never sees a mutant, and the tests of `diff` and suspect links, which only pass
through the core). Then this script prints, per module, how many
mutants the tests killed, and the score: killed / (all - equivalent). A surviving mutant counts
as equivalent only when tests/verdicts/equivalent_mutants.yaml lists it (by module, function and
the changed lines, not by mutmut's number, which shifts when the code changes) with a reason.

Exit 0 when the score is at least 95% (`--goal`), 1 when below, 2 when mutmut itself failed.
`--keep` reuses mutants/ from the last run: mutmut reruns only the functions that changed.
`--survivors` reruns, on the last run's mutants, those it did not kill (after adding tests), less
those listed as equivalent; the ones the last run never reached are run too.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "mutants"
EQUIVALENT = ROOT / "tests" / "verdicts" / "equivalent_mutants.yaml"
LOG = MUTANTS / "mutmut-run.log"
KILLED = {1: "killed", 3: "killed", 37: "killed"}   # 3: an internal error of pytest; 37: type check
TIMEOUT = {36, -24, 24, 152, 255}                   # a mutant that hangs is caught too


def status(code) -> str:
    """mutmut's exit code of a mutant's test run, in words."""
    if code in KILLED:
        return "killed"
    if code in TIMEOUT:
        return "timeout"
    return {0: "survived", 5: "no tests", 33: "no tests", None: "not checked",
            34: "skipped"}.get(code, "suspicious")


def run_mutmut(max_children: int | None, names: list[str] = ()) -> float:
    """Run mutmut in ROOT (on `names` only, when given); its output goes to LOG. The wall time,
    in seconds."""
    cmd = [str(Path(sys.executable).parent / "mutmut"), "run"]
    if max_children:
        cmd += ["--max-children", str(max_children)]
    cmd += list(names)
    MUTANTS.mkdir(exist_ok=True)
    t0 = time.perf_counter()
    with open(LOG, "w", encoding="utf-8") as log:
        done = subprocess.run(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                              env={**os.environ, "NO_COLOR": "1", "TERM": "dumb"})
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        tail = LOG.read_text(encoding="utf-8", errors="replace")[-3000:]
        sys.exit(print(f"make mutation: mutmut exited {done.returncode}; the end of {LOG}:\n"
                       f"{tail}", file=sys.stderr) or 2)
    return wall


def functions(path: Path) -> dict[str, str]:
    """Every function of a mutated module by name: its source."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    out = {}
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out[node.name] = "\n".join(lines[node.lineno - 1:node.end_lineno])
    return out


def display(mangled: str) -> str:
    """`x__decide` -> `_decide`; `xǁSummaryǁto_json` -> `Summary.to_json`."""
    if "ǁ" in mangled:
        _, cls, meth = mangled.split("ǁ")
        return f"{cls}.{meth}"
    return mangled[2:] if mangled.startswith("x_") else mangled


def changed_lines(orig: str, mutant: str) -> tuple[list[str], list[str]]:
    """The lines a mutant removes and adds, stripped (the def line with the function's own name)."""
    def lines(src: str) -> list[str]:
        first, _, rest = src.partition("\n")
        head = first.split("(", 1)
        return ["def (" + head[1] if len(head) == 2 else first, *rest.splitlines()]

    a, b = lines(orig), lines(mutant)
    minus, plus = [], []
    for line in difflib.unified_diff(a, b, lineterm="", n=0):
        if line.startswith(("---", "+++", "@@")):
            continue
        (minus if line[0] == "-" else plus).append(line[1:].strip())
    return minus, plus


def mutants() -> list[dict]:
    """Every mutant of the last run: module, function, status, the lines it changes."""
    out = []
    for meta in sorted((MUTANTS / "src").rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        source = meta.with_suffix("")  # judge.py.meta -> judge.py
        funcs = None
        module = ".".join(source.relative_to(MUTANTS / "src").with_suffix("").parts)
        for key, code in sorted(data["exit_code_by_key"].items(),
                                key=lambda kv: (kv[0].rpartition("__mutmut_")[0],
                                                int(kv[0].rpartition("__mutmut_")[2]))):
            name = key.rpartition(".")[2]
            mangled = name.rpartition("__mutmut_")[0]
            row = {"key": key, "module": module, "function": display(mangled),
                   "status": status(code)}
            if row["status"] not in ("killed", "timeout"):
                funcs = funcs if funcs is not None else functions(source)
                row["before"], row["after"] = changed_lines(funcs[f"{mangled}__mutmut_orig"],
                                                            funcs[name])
            out.append(row)
    return out


def equivalents() -> list[dict]:
    """The listed equivalent mutants: module, function, before, after, reason."""
    if not EQUIVALENT.is_file():
        return []
    entries = yaml.safe_load(EQUIVALENT.read_text(encoding="utf-8")) or []
    for i, e in enumerate(entries):
        missing = [k for k in ("module", "function", "before", "after", "reason") if k not in e]
        if missing or not str(e.get("reason") or "").strip():
            sys.exit(print(f"{EQUIVALENT}: entry {i + 1}: needs module, function, before, after "
                           f"and a reason (missing: {', '.join(missing) or 'reason'})",
                           file=sys.stderr) or 2)
        for side in ("before", "after"):
            e[side] = [e[side]] if isinstance(e[side], str) else list(e[side])
    return entries


def same(row: dict, e: dict) -> bool:
    return (row["module"], row["function"], row["before"], row["after"]) == (
        e["module"], e["function"], e["before"], e["after"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keep", action="store_true", help="reuse mutants/ from the last run")
    ap.add_argument("--max-children", type=int, default=None, help="mutmut's parallel workers")
    ap.add_argument("--goal", type=float, default=95.0, help="the least score, in percent")
    ap.add_argument("--report-only", action="store_true", help="score the last run, run nothing")
    ap.add_argument("--survivors", action="store_true",
                    help="rerun only the mutants the last run did not kill")
    args = ap.parse_args(argv)
    os.chdir(ROOT)
    wall = None
    if args.survivors:  # those listed as equivalent cannot be killed: not rerun
        listed = equivalents()
        names = [r["key"] for r in mutants() if r["status"] not in ("killed", "timeout")
                 and not (r["status"] == "survived" and any(same(r, e) for e in listed))]
        wall = run_mutmut(args.max_children, names) if names else 0.0
    elif not args.report_only:
        if not args.keep and MUTANTS.exists():
            shutil.rmtree(MUTANTS)
        wall = run_mutmut(args.max_children)
    rows, listed = mutants(), equivalents()
    if not rows:
        print("make mutation: no mutants found under mutants/ (run without --report-only)",
              file=sys.stderr)
        return 2
    used = set()
    for row in rows:
        if row["status"] == "survived":
            hit = next((i for i, e in enumerate(listed) if same(row, e)), None)
            if hit is not None:
                row["status"], row["reason"] = "equivalent", listed[hit]["reason"]
                used.add(hit)
    print(f"{'module':<20} {'mutants':>8} {'killed':>7} {'timeout':>8} {'equiv.':>7} "
          f"{'survived':>9} {'no tests':>9} {'score':>7}")
    total = Counter()
    by_module: dict[str, Counter] = {}
    for row in rows:
        by_module.setdefault(row["module"], Counter())[row["status"]] += 1
        total[row["status"]] += 1

    def line(name: str, c: Counter) -> str:
        n = sum(c.values())
        caught = c["killed"] + c["timeout"]
        score = 100.0 * caught / max(1, n - c["equivalent"])
        other = n - caught - c["equivalent"] - c["survived"] - c["no tests"]
        named = ('killed', 'timeout', 'equivalent', 'survived', 'no tests')
        extra = f"  ({other} other: {', '.join(k for k in c if k not in named)})" if other else ""
        return (f"{name:<20} {n:>8} {c['killed']:>7} {c['timeout']:>8} {c['equivalent']:>7} "
                f"{c['survived']:>9} {c['no tests']:>9} {score:>6.1f}%{extra}")

    for module, c in sorted(by_module.items()):
        print(line(module, c))
    print(line("verdict core", total))
    n = sum(total.values())
    score = 100.0 * (total["killed"] + total["timeout"]) / max(1, n - total["equivalent"])
    left = [r for r in rows if r["status"] not in ("killed", "timeout", "equivalent")]
    if left:
        print(f"\n{len(left)} mutants not killed and not listed as equivalent in "
              f"{EQUIVALENT.relative_to(ROOT)}:")
        for r in left:
            print(f"  {r['key']} ({r['status']}) in {r['function']}:")
            for s in r["before"]:
                print(f"    - {s}")
            for s in r["after"]:
                print(f"    + {s}")
    unreached = [r for r in rows if r["status"] == "not checked"]  # a stopped run: not stale yet
    stale = [e for i, e in enumerate(listed) if i not in used
             and not any(same(r, e) for r in unreached)]
    if stale:
        print(f"\n{len(stale)} entries of {EQUIVALENT.relative_to(ROOT)} match no surviving "
              "mutant (the code changed, or a test now kills it); remove them:")
        for e in stale:
            print(f"  {e['module']} {e['function']}: {e['after']}")
    unchecked = n - sum(total[k] for k in ("killed", "timeout", "equivalent", "survived", "no tests"))
    if unchecked:
        checked = n - unchecked - total["equivalent"]
        print(f"\n{unchecked} mutants were not checked (the run was stopped before them): of the "
              f"{checked} non-equivalent mutants checked, {total['killed'] + total['timeout']} were "
              f"killed ({100.0 * (total['killed'] + total['timeout']) / max(1, checked):.1f}%)")
    took = f" in {wall:.0f} s" if wall is not None else ""
    print(f"\nmutation score of the verdict core: {score:.1f}% ({total['killed'] + total['timeout']}"
          f" of {n - total['equivalent']} non-equivalent mutants killed, {total['equivalent']} "
          f"equivalent){took}; goal {args.goal:g}%")
    return 0 if score >= args.goal else 1


if __name__ == "__main__":
    sys.exit(main())
