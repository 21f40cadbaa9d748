"""`make mutation`: mutation testing of the verdict core, and its score.

Runs mutmut (pinned in pyproject's dev extras and constraints.txt; its settings are pyproject's
[tool.mutmut]) on judge, stats, expectation, operators, verdicts, state and seal. mutmut runs each mutant
against the tests that reach its function (tests/verdicts, less the ones that run litrec in a
subprocess, which never sees a mutant, and the tests of `diff` and suspect links, which only pass
through the core). Then this script prints, per module, how many
mutants the tests killed, and the score: killed / (all - equivalent). A surviving mutant counts
as equivalent only when tests/verdicts/equivalent_mutants.yaml lists it (by module, function and
the changed lines, not by mutmut's number, which shifts when the code changes) with a reason.

mutmut forks each mutant's test run from a process that has imported litrec already, so a mutant of
code that runs only at import (a table built when its module loads) is never active in any test:
it survives whatever the tests are. Its entry in that list names instead the tests that kill it
(`killed_by`, with `why` mutmut cannot): this script runs them in a fresh interpreter, in mutants/
with mutants/src first on the path as mutmut has it, and the mutant active from the start (mutmut's
trampolines read MUTANT_UNDER_TEST), once with no mutant first (they must pass). The mutant counts
as killed when they fail, as a survivor (printed with its diff) when they pass. Their exit codes
are kept in mutants/fresh-runs.json; `--report-only` reuses those and runs only the ones missing.

Exit 0 when the score is at least 95% (`--goal`), 1 when below, 2 when mutmut itself failed (or
the list is malformed, or a killed_by entry's tests fail with no mutant active).
`--keep` reuses mutants/ from the last run: mutmut reruns only the functions that changed.
`--survivors` reruns, on the last run's mutants, those it did not kill (after adding tests), less
those listed (as equivalent or killed_by); the ones the last run never reached are run too.
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
import tomllib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "mutants"
EQUIVALENT = ROOT / "tests" / "verdicts" / "equivalent_mutants.yaml"
LOG = MUTANTS / "mutmut-run.log"
FRESH = MUTANTS / "fresh-runs.json"  # the fresh-interpreter runs of `killed_by` entries: exit codes
FRESH_TIMEOUT = 300                 # seconds; a fresh run that hangs counts as a timeout
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


def run_mutmut(max_children: int | None, names: list[str] | tuple[()] = ()) -> float:
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
    minus: list[str] = []
    plus: list[str] = []
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
    """The listed mutants: module, function, before, after, and either the reason it is
    equivalent or the tests that kill it in a fresh interpreter (killed_by, with why)."""
    if not EQUIVALENT.is_file():
        return []
    entries = yaml.safe_load(EQUIVALENT.read_text(encoding="utf-8")) or []
    for i, e in enumerate(entries):
        e = e if isinstance(e, dict) else {}
        missing = [k for k in ("module", "function", "before", "after") if k not in e]
        text = {k: str(e.get(k) or "").strip() for k in ("reason", "why")}
        tests = e.get("killed_by")
        if "killed_by" not in e:
            missing += [] if text["reason"] else ["reason"]
        elif not (isinstance(tests, list) and tests and all(isinstance(t, str) and t for t in tests)):
            missing.append("killed_by as a list of test node ids")
        elif "reason" in e or not text["why"]:
            missing.append("why (and no reason: the tests kill it, it is not equivalent)")
        if missing:
            where = f" ({e.get('module')} {e.get('function')})" if e else ""
            sys.exit(print(f"{EQUIVALENT}: entry {i + 1}{where}: needs module, function, before, after "
                           "and either a reason (an equivalent mutant) or killed_by and why (code "
                           f"mutmut cannot activate); missing: {', '.join(missing)}",
                           file=sys.stderr) or 2)
        for side in ("before", "after"):
            e[side] = [e[side]] if isinstance(e[side], str) else list(e[side])
    return entries


def same(row: dict, e: dict) -> bool:
    return (row["module"], row["function"], row["before"], row["after"]) == (
        e["module"], e["function"], e["before"], e["after"])


def fresh_run(tests: list[str], mutant: str) -> tuple[int | None, str]:
    """Run `tests` in a new interpreter in mutants/, mutants/src first on its path, with `mutant`
    active from its start ("": none), and the pytest arguments of a mutmut test run. pytest's exit
    code (None: past FRESH_TIMEOUT) and the end of its output."""
    mutmut = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extra = mutmut.get("tool", {}).get("mutmut", {}).get("pytest_add_cli_args", [])
    path = [str(MUTANTS / "src"), str(MUTANTS), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "MUTANT_UNDER_TEST": mutant, "PYTHONPATH": os.pathsep.join(path),
           "NO_COLOR": "1"}
    cmd = [sys.executable, "-m", "pytest", "--rootdir=.", "--tb=short", "-x", "-q",
           "-p", "no:randomly", *tests, *extra]
    try:
        done = subprocess.run(cmd, cwd=MUTANTS, env=env, capture_output=True, text=True,
                              timeout=FRESH_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, ""
    return done.returncode, (done.stdout + done.stderr)[-3000:]


def fresh_status(code: int | None) -> str:
    """A fresh run's exit code in words: pytest's 1 (a test failed), 2 (collection stopped: the
    mutant broke an import) and 3 (internal error) kill the mutant; its tests passed without it."""
    if code is None:
        return "timeout"
    return {0: "survived", 1: "killed", 2: "killed", 3: "killed", 5: "no tests"}.get(code, "suspicious")


def check_fresh(rows: list[dict], reuse: bool, workers: int) -> str:
    """Decide the survivors whose entry names `killed_by` (row["killed_by"]) by fresh runs: the
    ones recorded in FRESH for the same lines and tests when `reuse`, the others now (after a run
    of each set of tests with no mutant, which must pass). A sentence on what was run."""
    todo = [r for r in rows if r.get("killed_by")]
    if not todo:
        return ""
    recorded = json.loads(FRESH.read_text(encoding="utf-8")) if reuse and FRESH.is_file() else {}

    def known(r: dict) -> bool:
        was = recorded.get(r["key"], {})
        return [was.get(k) for k in ("tests", "before", "after")] == [r["killed_by"], r["before"],
                                                                       r["after"]]

    run = [r for r in todo if not known(r)]
    t0 = time.perf_counter()
    for tests in {tuple(r["killed_by"]): None for r in run}:
        code, tail = fresh_run(list(tests), "")
        if code != 0:
            sys.exit(print(f"make mutation: the killed_by tests {' '.join(tests)} of "
                           f"{EQUIVALENT.relative_to(ROOT)} do not pass in mutants/ with no mutant "
                           f"active (pytest exited {code}; mutants/tests is the copy the last mutmut "
                           f"run made): fix the tests or the entry. The end of its output:\n{tail}",
                           file=sys.stderr) or 2)
    with ThreadPoolExecutor(max(1, workers)) as pool:
        done = list(pool.map(lambda r: fresh_run(r["killed_by"], r["key"]), run))
    for r, (code, tail) in zip(run, done):
        recorded[r["key"]] = {"tests": r["killed_by"], "before": r["before"], "after": r["after"],
                              "code": code}
        r["tail"] = tail
    if run:
        FRESH.write_text(json.dumps(recorded, indent=1, ensure_ascii=False), encoding="utf-8")
    for r in todo:
        r["status"] = fresh_status(recorded[r["key"]]["code"])
    c = Counter(r["status"] for r in todo)
    how = ", ".join(f"{n} {k}" for k, n in sorted(c.items()))
    now = f"{len(run)} run now in {time.perf_counter() - t0:.0f} s" if run else ""
    kept = (f"{len(todo) - len(run)} as recorded in {FRESH.relative_to(ROOT)} by an earlier check"
            if len(run) < len(todo) else "")
    return (f"{len(todo)} mutants of code run only at import, checked by their killed_by tests in a "
            f"fresh interpreter: {how} ({'; '.join(filter(None, [now, kept]))})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keep", action="store_true", help="reuse mutants/ from the last run")
    ap.add_argument("--max-children", type=int, default=None,
                    help="parallel workers (mutmut's, and of the fresh-interpreter runs)")
    ap.add_argument("--goal", type=float, default=95.0, help="the least score, in percent")
    ap.add_argument("--report-only", action="store_true",
                    help="score the last run (run only the fresh-interpreter checks not recorded)")
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
            if hit is not None and "killed_by" in listed[hit]:
                row["killed_by"] = listed[hit]["killed_by"]
                used.add(hit)
            elif hit is not None:
                row["status"], row["reason"] = "equivalent", listed[hit]["reason"]
                used.add(hit)
    fresh = check_fresh(rows, args.report_only, args.max_children or os.cpu_count() or 1)
    w = max(len(r["module"]) for r in rows)
    print(f"{'module':<{w}} {'mutants':>8} {'killed':>7} {'timeout':>8} {'equiv.':>7} "
          f"{'survived':>9} {'no tests':>9} {'score':>7}")
    total: Counter[str] = Counter()
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
        return (f"{name:<{w}} {n:>8} {c['killed']:>7} {c['timeout']:>8} {c['equivalent']:>7} "
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
            how = f" in a fresh interpreter, by {' '.join(r['killed_by'])}" if r.get("killed_by") else ""
            print(f"  {r['key']} ({r['status']}{how}) in {r['function']}:")
            for s in r["before"]:
                print(f"    - {s}")
            for s in r["after"]:
                print(f"    + {s}")
            if r["status"] == "suspicious" and r.get("tail"):
                print("    pytest's last lines: " + " | ".join(r["tail"].strip().splitlines()[-4:]))
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
    if fresh:
        print(f"\n{fresh}")
    took = f" in {wall:.0f} s" if wall is not None else ""
    at_import = sum(r["status"] in ("killed", "timeout") for r in rows if r.get("killed_by"))
    by_fresh = f", {at_import} of them in a fresh interpreter" if at_import else ""
    print(f"\nmutation score of the verdict core: {score:.1f}% ({total['killed'] + total['timeout']}"
          f" of {n - total['equivalent']} non-equivalent mutants killed{by_fresh}, "
          f"{total['equivalent']} equivalent){took}; goal {args.goal:g}%")
    return 0 if score >= args.goal else 1


if __name__ == "__main__":
    sys.exit(main())
