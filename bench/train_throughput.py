"""Benchmark: LSA meta-training steps per second at batch 2,048 (analysis/lib/train.py).

Times the jitted training chunk of `analysis.lib.train` (a `lax.scan` over online
steps: fresh tasks, forward and backward through the query, clipped Adam) for

- one LSA layer (single-layer-lsa; the paper's §3), compiled with the
  unrolled threefry as that analysis compiles it,
- two weight-tied ("recurrent") LSA layers (the paper's recurrent K = 2), and
- three seeds of one LSA layer in one compiled step (`analysis.lib.seed_batch`, as
  single-layer-lsa's `run_seeds` trains them on an accelerator), per seed,

with d = 10, N = 10, batch 2,048. After one warm-up call (compilation), each
chunk of `--chunk` steps is timed `--repeats` times with time.perf_counter and
the median is reported, beside the official code on this machine kind
(the official code timed on 2 CPU cores): one layer about 195 s for 5,000 steps with its
evaluation (~39 ms per step), two recurrent layers about 295 s of training for
5,000 steps (~59 ms per step). Goal: each at least 5x faster than the official
code per step (per seed for the batched seeds).

Each step time is also set against its arithmetic floor: the FLOPs of one step
(XLA's cost analysis of the compiled step) divided by this machine's peak,
measured in the same run as the GFLOP/s of a large float32 matrix product on
all cores (XLA counts the integer operations of the random draws as FLOPs too).
Small steps sit far above it: their time goes to memory traffic over the
drawn tasks and to many small operations, not to arithmetic.

    python bench/train_throughput.py [--chunk 200] [--repeats 5] [--json PATH]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import report  # noqa: E402

from analysis.lib import seed_batch  # noqa: E402
from analysis.lib import tasks as task_lib
from analysis.lib import train as train_lib
from analysis.lib.keys import named_keys, random_streams  # noqa: E402

OFFICIAL_MS_PER_STEP = {
    1: (39.0, "195 s / 5,000 steps, evaluation included"),
    2: (59.0, "295 s / 5,000 steps of training"),
}
D, N, BATCH = 11, 10, 2_048
SEEDS = 3                                                            # seeds of the batched step
PEAK_SIZE = 2_048                                                    # matrix side for the peak FLOP/s


def peak_flops(repeats: int, n: int = PEAK_SIZE) -> float:
    """FLOP/s of a float32 (n, n) @ (n, n) product on all cores: median of `repeats` after a warm-up."""
    a = jax.random.normal(jax.random.key(1), (n, n), jnp.float32)
    matmul = jax.jit(lambda x: x @ x)
    jax.block_until_ready(matmul(a))
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        jax.block_until_ready(matmul(a))
        times.append(time.perf_counter() - t0)
    return 2 * n ** 3 / statistics.median(times)


def _step_flops(step, params, opt_state, x=None) -> float | None:
    """Operations of one training step on step data `x` (default: step index 0), XLA's cost analysis.

    XLA counts the integer operations of the random draws too, and a loop's
    body once: the threefry hash is compiled unrolled here so all its rounds count.
    """
    with seed_batch.unrolled_threefry():
        compiled = jax.jit(step).lower((params, opt_state), jnp.asarray(0) if x is None else x).compile()
    analysis = compiled.cost_analysis()
    if isinstance(analysis, list):  # older JAX returns one entry per computation
        analysis = analysis[0] if analysis else {}
    return float(analysis["flops"]) if analysis and "flops" in analysis else None


def bench(K: int, chunk: int, repeats: int) -> dict:
    keys = named_keys(0, "init", "train")
    params = train_lib.init_lsa(keys["init"], D, 0.002 if K == 1 else 0.001)
    optimizer = train_lib.adam(1e-3, 1e-3)
    loss_fn = train_lib.batch_at_step(partial(train_lib.regression_loss, n_steps=K),
                                      lambda key, n: task_lib.sample_tasks(key, n, N, D - 1, 1),
                                      keys["train"], BATCH)
    step = train_lib.make_step(loss_fn, optimizer)
    run_chunk = train_lib.make_chunk_runner(step)
    opt_state = optimizer.init(params)
    ts = jnp.arange(chunk)                                           # (chunk,) step indices
    t0 = time.perf_counter()
    with seed_batch.unrolled_threefry() if K == 1 else contextlib.nullcontext():
        jax.block_until_ready(run_chunk(params, opt_state, ts))      # warm-up: compilation
    compile_s = time.perf_counter() - t0
    times = []
    for r in range(repeats):
        ts = jnp.arange((r + 1) * chunk, (r + 2) * chunk)
        t0 = time.perf_counter()
        params, opt_state, loss = jax.block_until_ready(run_chunk(params, opt_state, ts))
        times.append(time.perf_counter() - t0)
    ms = 1e3 * statistics.median(times) / chunk
    flops = _step_flops(step, params, opt_state)
    return {"K": K, "ms": ms, "compile_s": compile_s, "flops": flops, "loss": float(loss)}


def bench_seeds(chunk: int, repeats: int) -> dict:
    """One LSA layer, SEEDS seeds in one compiled step (vmap); ms and FLOPs per seed-step."""
    keys = [named_keys(s, "init", "train") for s in range(SEEDS)]
    optimizer = train_lib.adam(1e-3, 1e-3)
    loss_fn = seed_batch.keyed_batch_loss(train_lib.regression_loss,
                                          lambda key, n: task_lib.sample_tasks(key, n, N, D - 1, 1), BATCH)
    step = train_lib.make_step(loss_fn, optimizer)
    run_chunk = seed_batch.make_seeds_chunk_runner(step)
    params = seed_batch.stack([train_lib.init_lsa(k["init"], D, 0.002) for k in keys])
    opt_state = jax.vmap(optimizer.init)(params)
    train_keys = jnp.stack([k["train"] for k in keys])                 # (S,) typed keys
    t0 = time.perf_counter()
    jax.block_until_ready(run_chunk(params, opt_state, train_keys, jnp.arange(chunk)))  # compilation
    compile_s = time.perf_counter() - t0
    times = []
    for r in range(repeats):
        ts = jnp.arange((r + 1) * chunk, (r + 2) * chunk)
        t0 = time.perf_counter()
        params, opt_state, loss = jax.block_until_ready(run_chunk(params, opt_state, train_keys, ts))
        times.append(time.perf_counter() - t0)
    flops = _step_flops(jax.vmap(step, in_axes=(0, (0, None))), params, opt_state, (train_keys, jnp.asarray(0)))
    return {"K": "seeds", "ms": 1e3 * statistics.median(times) / chunk / SEEDS, "compile_s": compile_s,
            "flops": flops / SEEDS if flops else None, "loss": float(loss[0])}


def main() -> None:
    """Times each model, prints the detail and one row per figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunk", type=int, default=200, help="steps per timed call")
    parser.add_argument("--repeats", type=int, default=5, help="timed calls (median reported)")
    report.add_json_argument(parser)
    args = report.parse(parser, chunk=2, repeats=1)
    if args.smoke:
        report.fast_compiles()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"jax {jax.__version__} on {jax.devices()[0].platform} ({os.cpu_count()} CPUs, load {load:.2f}), "
          f"batch {BATCH}, d={D - 1}, N={N}; median of {args.repeats} x {args.chunk} steps after a warm-up compile")
    n = 256 if args.smoke else PEAK_SIZE  # a smoke run's product: milliseconds
    peak = peak_flops(args.repeats, n)
    print(f"peak: {peak / 1e9:.1f} GFLOP/s (float32 {n} x {n} matrix product, all cores)")
    rows = []
    with random_streams():
        for K in (1, 2, "seeds"):
            r = bench(K, args.chunk, args.repeats) if K != "seeds" else bench_seeds(args.chunk, args.repeats)
            official, basis = OFFICIAL_MS_PER_STEP[1 if K == "seeds" else K]
            name = {1: "1 LSA layer", 2: "2 recurrent LSA layers",
                    "seeds": f"1 LSA layer, {SEEDS} seeds batched, per seed"}[K]
            floor_ms = 1e3 * r["flops"] / peak if r["flops"] else None
            detail = (f"{r['flops'] / 1e6:.1f} MFLOP/step, {r['flops'] / (r['ms'] * 1e-3) / 1e9:.2f} GFLOP/s, "
                      f"{r['ms'] / floor_ms:.0f}x its floor of {floor_ms:.3f} ms" if floor_ms else "FLOPs unavailable")
            print(f"{name:38s} {r['ms']:7.2f} ms/step | official ~{official:.0f} ms/step ({basis}): "
                  f"{official / r['ms']:5.1f}x faster | {detail} | compile {r['compile_s']:.1f} s")
            rows.append(report.Row(f"train_throughput: {name}", r["ms"], "ms/step",
                                   "official code (2 CPU cores)", official, ">= 5x faster than baseline",
                                   official / r["ms"] >= 5.0))
            if floor_ms:
                rows.append(report.Row(f"train_throughput: {name} vs floor", r["ms"], "ms/step",
                                       "FLOPs / measured peak", floor_ms, "(share of the floor)", None))
    report.emit(rows, args.json)


if __name__ == "__main__":
    main()
