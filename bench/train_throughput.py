"""Benchmark: LSA meta-training steps per second at batch 2,048 (analysis/train.py).

Times the jitted training chunk of `analysis.train` (a `lax.scan` over online
steps: fresh tasks, forward and backward through the query, clipped Adam) for

- one LSA layer (single-layer-lsa; the paper's §3), and
- two weight-tied ("recurrent") LSA layers (the paper's recurrent K = 2),

with d = 10, N = 10, batch 2,048. After one warm-up call (compilation), each
chunk of `--chunk` steps is timed `--repeats` times with time.perf_counter and
the median is reported, beside the official code on this machine kind
(the official code timed on 2 CPU cores): one layer about 195 s for 5,000 steps with its
evaluation (~39 ms per step), two recurrent layers about 295 s of training for
5,000 steps (~59 ms per step). Also prints the FLOPs of one step from XLA's
cost analysis and the achieved GFLOP/s.

    python bench/train_throughput.py [--chunk 200] [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from analysis import tasks as task_lib, train as train_lib  # noqa: E402
from analysis.keys import named_keys, random_streams  # noqa: E402

OFFICIAL_MS_PER_STEP = {
    1: (39.0, "195 s / 5,000 steps, evaluation included"),
    2: (59.0, "295 s / 5,000 steps of training"),
}
D, N, BATCH = 11, 10, 2_048


def _step_flops(step, params, opt_state) -> float | None:
    """FLOPs of one training step, from XLA's cost analysis of the compiled step."""
    compiled = jax.jit(step).lower((params, opt_state), jnp.asarray(0)).compile()
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
    jax.block_until_ready(run_chunk(params, opt_state, ts))          # warm-up: compilation
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunk", type=int, default=200, help="steps per timed call")
    parser.add_argument("--repeats", type=int, default=5, help="timed calls (median reported)")
    args = parser.parse_args()
    print(f"jax {jax.__version__} on {jax.devices()[0].platform}, batch {BATCH}, d={D - 1}, N={N}; "
          f"median of {args.repeats} x {args.chunk} steps after a warm-up compile")
    with random_streams():
        for K in (1, 2):
            r = bench(K, args.chunk, args.repeats)
            official, basis = OFFICIAL_MS_PER_STEP[K]
            name = "1 LSA layer" if K == 1 else "2 recurrent LSA layers"
            gflops = (f"{r['flops'] / 1e6:.1f} MFLOP/step, {r['flops'] / (r['ms'] * 1e-3) / 1e9:.2f} GFLOP/s"
                      if r["flops"] else "FLOPs unavailable")
            print(f"{name:24s} {r['ms']:7.2f} ms/step = {1e3 / r['ms']:7.1f} steps/s | "
                  f"official ~{official:.0f} ms/step ({basis}): {official / r['ms']:5.1f}x faster | "
                  f"{gflops} | compile {r['compile_s']:.1f} s")


if __name__ == "__main__":
    main()
