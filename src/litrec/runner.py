"""`litrec run` and `litrec status`: rerun what is stale, judge every claim.

An analysis runs in this process: its module is imported from the project's
`analysis/` package (the name resolved through the registry, never a path from
a record), `run(PROFILES[profile], progress)` is called, and its metrics and
figures are written atomically with provenance. JAX is imported only when an
analysis actually runs, so a run with nothing stale returns at once.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import importlib
import io
import json
import os
import platform
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from litrec import __version__
from litrec.project import Project, load_project
from litrec.results import (fingerprint, figure_dir, load_result, result_path,
                            write_result)
from litrec.verdicts import ClaimStatus, claim_statuses


class RunError(Exception):
    pass


# ---------------------------------------------------------------- targets


def resolve_targets(proj: Project, targets: list[str]) -> tuple[list[str], set[str] | None]:
    """Analysis names to consider and the claim refs to judge (None: all)."""
    from litrec.cli import UsageError

    reg = proj.registry
    names = sorted(reg.entries) if reg else []
    if not targets:
        used = {c.check.analysis for _, c in proj.claims() if c.check}
        used |= {d.analysis for r in proj.records.values()
                 for d in getattr(r, "discrepancies", []) or [] if d.analysis}
        return [n for n in names if n in used], None
    chosen: list[str] = []
    claims: set[str] = set()
    for t in targets:
        if "#" in t:
            found = proj.claim(t)
            if found is None or found[1].check is None:
                all_refs = [f"{r.id}#{c.id}" for r, c in proj.claims()]
                close = difflib.get_close_matches(t, all_refs, n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                raise UsageError(f"no checked claim '{t}'{hint}")
            chosen.append(found[1].check.analysis)
            claims.add(t)
        elif t in proj.records:
            rec = proj.records[t]
            for c in getattr(rec, "claims", []) or []:
                if c.check:
                    chosen.append(c.check.analysis)
                    claims.add(f"{t}#{c.id}")
            for d in getattr(rec, "discrepancies", []) or []:
                if d.analysis:
                    chosen.append(d.analysis)
        elif t in names:
            chosen.append(t)
            claims |= {f"{r.id}#{c.id}" for r, c in proj.claims()
                       if c.check and c.check.analysis == t}
        else:
            close = difflib.get_close_matches(t, names + sorted(proj.records), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise UsageError(f"'{t}' is not a claim ref, record id or analysis name{hint}")
    seen: list[str] = []
    for n in chosen:
        if n not in seen:
            seen.append(n)
    return seen, claims


# ---------------------------------------------------------------- running


def _to_json(value: Any) -> Any:
    """Metrics to plain JSON: arrays to lists, scalars to Python numbers."""
    if isinstance(value, dict):
        return {str(k): _to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_to_json(v) for v in value]
    if hasattr(value, "tolist"):
        return _to_json(value.tolist())
    if isinstance(value, float) and value != value:
        return None
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return str(value)


def _platform() -> dict:
    return {
        "system": platform.system(),
        "release": platform.release(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
    }


def run_analysis(proj: Project, name: str, profile: str, results_dir: Path,
                 progress=None) -> dict:
    """Run one analysis and write its result; return the stored payload."""
    reg = proj.registry
    entry = reg.entries[name]
    fp = fingerprint(reg, name, profile)
    project_root = str(reg.path.parent.parent.resolve())
    if project_root not in sys.path:
        sys.path.insert(0, project_root)
    package = reg.path.parent.name
    module = importlib.import_module(f"{package}.{entry.module}")
    profiles = getattr(module, "PROFILES", None)
    if not isinstance(profiles, dict) or profile not in profiles:
        raise RunError(f"analysis '{name}' ({module.__name__}) has no profile '{profile}' in PROFILES")
    config = profiles[profile]
    import jax  # noqa: F401  (imported only here: a no-op run never pays for it)

    started = dt.datetime.now(dt.timezone.utc)
    t0 = time.perf_counter()
    out = module.run(config, progress=progress)
    wall = time.perf_counter() - t0
    if not isinstance(out, dict) or "metrics" not in out:
        raise RunError(f"analysis '{name}' returned {type(out).__name__}; expected a dict with 'metrics'")
    figures: dict[str, bytes] = {}
    fig_names: dict[str, str] = {}
    for fname, fig in (out.get("figures") or {}).items():
        buf = io.BytesIO()
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
        figures[f"{fname}.svg"] = buf.getvalue()
        fig_names[fname] = f"{profile}/{fname}.svg"
        try:
            import matplotlib.pyplot as plt

            plt.close(fig)
        except Exception:  # pragma: no cover - figures not from pyplot
            pass
    device = {"platform": jax.default_backend(),
              "devices": [str(d.device_kind) for d in jax.devices()]}
    cfg = dataclasses.asdict(config) if dataclasses.is_dataclass(config) else dict(vars(config))
    payload = {
        "format": 1,
        "analysis": name,
        "title": entry.title,
        "profile": profile,
        "module": module.__name__,
        "code_hash": fp.code_hash,
        "code_files": fp.files,
        "versions": fp.versions,
        "litrec": __version__,
        "platform": _platform(),
        "device": device,
        "config": _to_json(cfg),
        "seed": cfg.get("seed"),
        "started": started.isoformat(timespec="seconds"),
        "wall_time_s": round(wall, 3),
        "metrics": _to_json(out["metrics"]),
        "figures": fig_names,
        "notes": [str(n) for n in out.get("notes", [])],
    }
    write_result(results_dir, name, profile, payload, figures)
    return payload


def cmd_run(args) -> int:
    from litrec.cli import UsageError

    if not args.records.is_dir():
        raise UsageError(f"records folder '{args.records}' does not exist")
    proj = load_project(args.records, args.analysis)
    if proj.errors:
        for d in sorted(proj.errors, key=lambda d: (d.path, d.line, d.col)):
            print(d.format(), file=sys.stderr)
        print(f"litrec run: the records are invalid ({len(proj.errors)} errors); "
              "fix them first (litrec validate)", file=sys.stderr)
        return 1
    names, only = resolve_targets(proj, args.targets)
    todo, current = [], []
    for name in names:
        result = load_result(args.results, name, args.profile)
        fp = fingerprint(proj.registry, name, args.profile)
        if result is not None and fp.matches(result) and not args.force:
            current.append(name)
        else:
            why = "forced" if result is not None and fp.matches(result) else (
                "no result" if result is None else fp.why_stale(result))
            todo.append((name, why))
    failed = []
    if todo:
        failed = _run_all(proj, todo, args)
    statuses = claim_statuses(proj, args.results, args.profile, only)
    if args.format == "json":
        print(json.dumps({
            "profile": args.profile,
            "ran": [n for n, _ in todo if n not in failed],
            "current": current,
            "failed": failed,
            "claims": [_row(s) for s in statuses],
        }, indent=2, default=str))
    else:
        if not todo:
            print(f"nothing to run: {len(current)} analyses current for profile '{args.profile}'",
                  file=sys.stderr)
        print_table(statuses)
    bad = [s for s in statuses if s.verdict in ("not_reproduced", "error")]
    return 1 if bad or failed else 0


def _run_all(proj: Project, todo: list[tuple[str, str]], args) -> list[str]:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    failed = []
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                  TimeElapsedColumn(), console=console, transient=False,
                  disable=args.format == "json") as bar:
        for name, why in todo:
            task = bar.add_task(f"{name} [{args.profile}]", total=1.0)

            def progress(done, total, description="", _task=task):
                bar.update(_task, completed=done / max(total, 1),
                           description=f"{name} [{args.profile}] {description}".rstrip())

            console.print(f"running {name} ({args.profile}): {why}")
            try:
                payload = run_analysis(proj, name, args.profile, args.results, progress)
            except KeyboardInterrupt:
                console.print(f"[red]interrupted: {name}; its previous result is kept")
                raise
            except Exception as exc:  # an analysis bug: say so, keep the old result, go on
                failed.append(name)
                log = result_path(args.results, name, args.profile).with_suffix(".error.log")
                log.parent.mkdir(parents=True, exist_ok=True)
                log.write_text(traceback.format_exc(), encoding="utf-8")
                console.print(f"[red]analysis {name} failed: {type(exc).__name__}: {exc} "
                              f"(traceback in {log}); its previous result is kept")
                continue
            bar.update(task, completed=1.0)
            console.print(f"  {name}: {payload['wall_time_s']:.1f} s")
    return failed


# ---------------------------------------------------------------- output


def _fmt(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return str(v).lower()
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, list):
        if len(v) > 4:
            return "[" + ", ".join(_fmt(x) for x in v[:3]) + f", … ({len(v)})]"
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    return str(v)


def _row(s: ClaimStatus) -> dict:
    return {
        "claim": s.claim,
        "title": s.title,
        "analysis": s.analysis,
        "profile": s.profile,
        "verdict": s.verdict,
        "measured": s.measured,
        "expected": s.expected,
        "outcomes": [o.__dict__ for o in s.outcomes],
        "reason": s.reason,
        "rests_on_it": s.rests_on_it,
        "provenance": s.provenance,
    }


def print_table(statuses: list[ClaimStatus]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=None, show_lines=False)
    for col in ("claim", "analysis", "verdict", "measured", "expected"):
        table.add_column(col, overflow="fold")
    style = {"reproduced": "green", "not_reproduced": "red", "stale": "yellow",
             "not_run": "dim", "error": "red"}
    for s in statuses:
        if s.outcomes:
            measured = "\n".join(f"{o.metric} = {_fmt(o.measured)}" for o in s.outcomes)
            expected = "\n".join(
                ("✓ " if o.holds else "✗ ") + o.expectation for o in s.outcomes)
        else:
            measured, expected = "—", "\n".join(s.expected)
        verdict = s.verdict.replace("_", " ")
        if s.rests_on_it:
            verdict += "\nrests on it: " + ", ".join(s.rests_on_it)
        if s.reason and s.verdict != "reproduced":
            verdict += f"\n({s.reason})"
        table.add_row(s.claim, s.analysis or "", f"[{style.get(s.verdict, '')}]{verdict}",
                      measured, expected)
    console.print(table)


def cmd_status(args) -> int:
    from litrec.cli import UsageError

    if not args.records.is_dir():
        raise UsageError(f"records folder '{args.records}' does not exist")
    proj = load_project(args.records, args.analysis)
    if proj.errors:
        for d in sorted(proj.errors, key=lambda d: (d.path, d.line, d.col)):
            print(d.format(), file=sys.stderr)
        return 1
    statuses = claim_statuses(proj, args.results, args.profile)
    if args.format == "json":
        print(json.dumps([_row(s) for s in statuses], indent=2, default=str))
    else:
        print_table(statuses)
    if args.check_current:
        behind = [s for s in statuses if s.verdict in ("stale", "not_run", "error")]
        for s in behind:
            print(f"litrec status: {s.claim} is {s.verdict.replace('_', ' ')}: {s.reason}",
                  file=sys.stderr)
        return 1 if behind else 0
    return 0
