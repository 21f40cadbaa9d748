"""Benchmark: how soon `litrec site serve` shows an edited record, on 1,000 records.

Generates N records as bench/site_scale.py does, in a temporary folder, then
in one run:

- baseline: a whole `litrec site build` of the project, as a process;
- litrec:   starts `litrec site serve --port FREE`, waits until it answers,
            then several times: rewrites one record's title, and polls that
            record's page over HTTP until the new title is in it. The time is
            from the file's save to the first answer holding the new title.

Also checks that a page linking the edited record shows the new title too
(its backlinks) before counting an edit. Prints each edit's time, the median,
and the ratio to the whole build. Goal: under 3 s.

The same is measured with the 0.1.0 release's litrec (bench/release.py) on its own
copy of the records: both servers run at once and the edits alternate between
them (current, 0.1.0, 0.1.0, current, ...); goal: at most 1.10x 0.1.0's median.

    python bench/serve_edit.py [--records 1000] [--edits 5] [--against 0.1.0 | --against none]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import release  # noqa: E402
import report  # noqa: E402
import site_scale  # noqa: E402

GOAL_S = 3.0
POLL_S = 0.05  # between two requests for the page


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.read().decode("utf-8")
    except OSError:
        return None


def _wait_for(url: str, text: str, timeout: float, proc: subprocess.Popen) -> float:
    """Seconds until the page at `url` holds `text` (sys.exit when it never does)."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        if proc.poll() is not None:
            sys.exit(f"litrec site serve stopped (exit {proc.returncode})")
        page = _get(url)
        if page is not None and text in page:
            return time.perf_counter() - t0
        time.sleep(POLL_S)
    sys.exit(f"{url} did not show {text!r} within {timeout:.0f} s")


def _interruptible() -> None:
    """In the server's process before it starts: Ctrl-C (SIGINT) stops it, as in a terminal,
    even where this benchmark was started with SIGINT ignored (in the background of a shell
    without job control, which every child then inherits): else each stop waits out its timeout."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _linking_note(root: Path, rid: str) -> str | None:
    """A note that links the record, whose page shows the record's title."""
    for path in sorted((root / "records" / "notes").glob("*.yaml")):
        if f"target: {rid}\n" in path.read_text(encoding="utf-8"):
            return path.stem
    return None


def _args(root: Path) -> list[str]:
    return ["--records", str(root / "records"), "--analysis", str(root / "analysis"),
            "--results", str(root / "results")]


def _edit(root: Path, i: int, base: str, proc: subprocess.Popen) -> tuple[float, str]:
    """Edit the i-th record's title; seconds until the server shows it, and what was said."""
    n = 1 + i * 7  # notes link a paper; papers are linked by notes (backlinks)
    lit = f"ARXIV-2301.{n:05d}"
    path = root / "records" / "literature" / f"{lit}.yaml"
    text = path.read_text(encoding="utf-8")
    old = f"title: Paper {n} on in-context learning"
    new = f"title: Paper {n} edited {i}"
    time.sleep(1.0)  # apart from the last rebuild, as edits by hand are
    saved = time.perf_counter()
    path.write_text(text.replace(old, new), encoding="utf-8")
    _wait_for(f"{base}/records/{lit}.html", f"Paper {n} edited {i}", 120, proc)
    took = time.perf_counter() - saved
    linking = _linking_note(root, lit)
    if linking:  # the same rebuild updated the page that links it
        _wait_for(f"{base}/records/{linking}.html", f"Paper {n} edited {i}", 10, proc)
    return took, f"{lit} shown after {took:.2f} s" + (
        f" (and on {linking}, which links it)" if linking else "")


def main() -> None:
    """Generate, time a whole build, then time edits seen through the server."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--edits", type=int, default=5)
    release.add_release_argument(ap)
    report.add_json_argument(ap)
    args = report.parse(ap, records=site_scale.SMOKE_RECORDS, edits=1)
    litrec = [sys.executable, "-m", "litrec"]
    with tempfile.TemporaryDirectory(prefix="litrec-serve-bench-") as tmp, \
            release.trees(args.against) as trees:
        roots = {}
        for k, tree in enumerate(trees):
            roots[tree.name] = Path(tmp) / f"p{k}"
            # the release's records without the field it does not read (`source`)
            site_scale.generate(roots[tree.name], args.records, sourced=k == 0)
        build_s, start_s, procs, logs, bases = {}, {}, {}, {}, {}
        times: dict[str, list[float]] = {t.name: [] for t in trees}
        cfgs = {name: site_scale.configs(root)["litrec"].parent for name, root in roots.items()}
        for tree in trees:
            root, cfg = roots[tree.name], cfgs[tree.name]
            t0 = time.perf_counter()
            built = subprocess.run([*litrec, "site", "build", *_args(root), "--out",
                                    str(root / "public")], cwd=cfg, capture_output=True, text=True,
                                   env=tree.env)
            build_s[tree.name] = time.perf_counter() - t0
            if built.returncode != 0:
                sys.exit(f"{tree.name}: litrec site build failed:\n{built.stderr[-3000:]}")
        try:
            for tree in trees:
                root, cfg = roots[tree.name], cfgs[tree.name]
                port = _free_port()
                logs[tree.name] = (root / "serve.log").open("w")
                procs[tree.name] = subprocess.Popen(
                    [*litrec, "site", "serve", *_args(root), "--port", str(port)], cwd=cfg,
                    stdout=logs[tree.name], stderr=subprocess.STDOUT, env=tree.env,
                    preexec_fn=_interruptible)
                bases[tree.name] = f"http://127.0.0.1:{port}"
                t0 = time.perf_counter()
                _wait_for(f"{bases[tree.name]}/", "litrec", 600, procs[tree.name])
                start_s[tree.name] = time.perf_counter() - t0
            for i in range(args.edits):
                for tree in (trees if i % 2 == 0 else trees[::-1]):
                    took, said = _edit(roots[tree.name], i, bases[tree.name], procs[tree.name])
                    times[tree.name].append(took)
                    print(f"  {tree.name} edit {i + 1}: {said}", flush=True)
        finally:
            for proc in procs.values():
                proc.send_signal(signal.SIGINT)
            for proc in procs.values():
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
            for log in logs.values():
                log.close()
        rebuilt = {t.name: [ln.split("-  ", 1)[-1] for ln in (roots[t.name] / "serve.log").read_text(
            encoding="utf-8").splitlines() if "litrec: rebuilt" in ln] for t in trees}
    print(f"{args.records} records; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    for tree in trees:
        med = statistics.median(times[tree.name])
        print(f"litrec {tree.name}")
        print(f"  whole build (baseline): {build_s[tree.name]:.2f} s; server up (first whole build) "
              f"after {start_s[tree.name]:.1f} s")
        print(f"  edit to page shown: median {med:.2f} s of {len(times[tree.name])} "
              f"({', '.join(f'{t:.2f}' for t in times[tree.name])}); "
              f"{med / build_s[tree.name]:.2f}x the whole build")
        for line in rebuilt[tree.name]:
            print(f"  server: {line}")
    now = trees[0].name
    med = statistics.median(times[now])
    rows = [report.Row(f"serve edit→page {args.records // 1000}k", med, "s",
                       f"whole site build {args.records // 1000}k", build_s[now],
                       f"< {GOAL_S:g} s", med < GOAL_S)]
    rows += [release.keep_row(f"serve edit→page {args.records // 1000}k", times[now],
                              times[t.name], "s", t.name) for t in trees[1:]]
    report.emit(rows, args.json)


if __name__ == "__main__":
    main()
