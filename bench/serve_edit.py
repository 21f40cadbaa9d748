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

    python bench/serve_edit.py [--records 1000] [--edits 5]
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


def _linking_note(root: Path, rid: str) -> str | None:
    """A note that links the record, whose page shows the record's title."""
    for path in sorted((root / "records" / "notes").glob("*.yaml")):
        if f"target: {rid}\n" in path.read_text(encoding="utf-8"):
            return path.stem
    return None


def _args(root: Path) -> list[str]:
    return ["--records", str(root / "records"), "--analysis", str(root / "analysis"),
            "--results", str(root / "results")]


def main() -> None:
    """Generate, time a whole build, then time edits seen through the server."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--edits", type=int, default=5)
    report.add_json_argument(ap)
    args = ap.parse_args()
    litrec = [sys.executable, "-m", "litrec"]
    with tempfile.TemporaryDirectory(prefix="litrec-serve-bench-") as tmp:
        root = Path(tmp)
        site_scale.generate(root, args.records)
        cfg = site_scale.configs(root)["litrec"].parent
        t0 = time.perf_counter()
        built = subprocess.run([*litrec, "site", "build", *_args(root), "--out", str(root / "public")],
                               cwd=cfg, capture_output=True, text=True)
        build_s = time.perf_counter() - t0
        if built.returncode != 0:
            sys.exit(f"litrec site build failed:\n{built.stderr[-3000:]}")
        port = _free_port()
        log = (root / "serve.log").open("w")
        proc = subprocess.Popen([*litrec, "site", "serve", *_args(root), "--port", str(port)],
                                cwd=cfg, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        times = []
        try:
            t0 = time.perf_counter()
            _wait_for(f"{base}/", "litrec", 600, proc)
            start_s = time.perf_counter() - t0
            for i in range(args.edits):
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
                times.append(time.perf_counter() - saved)
                linking = _linking_note(root, lit)
                if linking:  # the same rebuild updated the page that links it
                    _wait_for(f"{base}/records/{linking}.html", f"Paper {n} edited {i}", 10, proc)
                print(f"  edit {i + 1}: {lit} shown after {times[-1]:.2f} s"
                      + (f" (and on {linking}, which links it)" if linking else ""), flush=True)
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
            log.close()
        lines = (root / "serve.log").read_text(encoding="utf-8").splitlines()
        rebuilt = [ln.split("-  ", 1)[-1] for ln in lines if "litrec: rebuilt" in ln]
    med = statistics.median(times)
    print(f"{args.records} records; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"  whole build (baseline): {build_s:.2f} s; server up (first whole build) after {start_s:.1f} s")
    print(f"  edit to page shown: median {med:.2f} s of {len(times)} "
          f"({', '.join(f'{t:.2f}' for t in times)}); {med / build_s:.2f}x the whole build")
    for line in rebuilt:
        print(f"  server: {line}")
    report.emit([report.Row(f"serve edit→page {args.records // 1000}k", med, "s",
                            f"whole site build {args.records // 1000}k", build_s,
                            f"< {GOAL_S:g} s", med < GOAL_S)], args.json)


if __name__ == "__main__":
    main()
