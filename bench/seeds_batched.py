"""Benchmark: what 3 training seeds cost against 1 seed (single-layer-lsa).

Times the meta-training of one LSA layer with the `paper` settings of
`analysis/single_layer.py` (d = N = 10, batch 2,048, clipped Adam; von Oswald
et al., ICML 2023, §3) for the same `--chunk` steps:

- 1 seed: the jitted chunk `run` trains with (`analysis.lib.train`, compiled with
  the unrolled threefry as `run` compiles it), the baseline;
- 3 seeds in turn: one compiled single-seed chunk, each seed's chunk
  dispatched before any is waited on, what `run_seeds` does on a CPU
  (and, for contrast, each seed's chunk waited on before the next);
- 3 seeds batched: the chunk of `analysis.lib.seed_batch` (`jax.vmap` over the
  seeds' weights, optimiser states and training keys), what `run_seeds(batched=True)`
  does (and `run_seeds` on an accelerator);
- 3 seeds on 2 worker processes: seeds 0 and 1 in turn in one process and
  seed 2 in another, side by side, what `litrec run --jobs 2` does (the runner
  splits the seeds among its workers); its baseline is 1 seed alone in one
  process, timed the same way (each process compiles first, then all start
  together);
- for contrast, 1 seed with JAX's default (rolled) threefry lowering on CPU,
  1 seed through the batched code, and drawing the tasks alone for 1 and 3 seeds.

Each is compiled first (the compile time is printed, not counted), then the
calls take turns `--repeats` times; medians are reported. Goal: 3 seeds, as
`litrec run` trains them on this machine (on 2 worker processes), cost at
most twice 1 seed on CPU. In one process, batched and in turn are both
printed, so the rule `seed_batch.batching_pays` follows can be checked here.

    python bench/seeds_batched.py [--chunk 100] [--repeats 7] [--chunks 10] [--json PATH]
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import report  # noqa: E402

from analysis import single_layer  # noqa: E402
from analysis.lib import one_layer, seed_batch  # noqa: E402
from analysis.lib import train as train_lib
from analysis.lib.keys import named_keys, random_streams  # noqa: E402

SEEDS = (0, 1, 2)


def _interleaved(calls: dict, repeats: int) -> tuple[dict, dict]:
    """(compile-and-first-call seconds, median seconds) per call; call(r) runs chunk r.

    The calls take turns within each repeat (a different one first each time),
    so a change of the machine's load falls on all of them alike.
    """
    first, times = {}, {name: [] for name in calls}
    for name, call in calls.items():
        t0 = time.perf_counter()
        jax.block_until_ready(call(0))
        first[name] = time.perf_counter() - t0
    names = list(calls)
    for r in range(1, repeats + 1):
        for name in names[r % len(names):] + names[:r % len(names)]:  # each starts a round in turn
            call = calls[name]
            t0 = time.perf_counter()
            jax.block_until_ready(call(r))
            times[name].append(time.perf_counter() - t0)
    return first, {name: statistics.median(t) for name, t in times.items()}


def draw_only(config, seeds, chunk: int):
    """call(r) drawing chunk r's training tasks of `seeds` and nothing else (unrolled threefry)."""
    train_keys = jnp.stack([named_keys(s, "init", "train")["train"] for s in seeds])

    @jax.jit
    def draw(keys, ts):
        def body(total, t):
            tasks = jax.vmap(lambda k: one_layer.sample(config, jax.random.fold_in(k, t), config.batch_size))(keys)
            return total + sum(jnp.sum(x) for x in tasks), None
        return jax.lax.scan(body, jnp.float32(0), ts)[0]

    def call(r):
        with seed_batch.unrolled_threefry():
            return draw(train_keys, jnp.arange(r * chunk, (r + 1) * chunk, dtype=jnp.int32))

    return call


def one_seed_chunks(config, seeds, chunk: int, unrolled: bool = True) -> list:
    """For each seed, call(r) running chunk r of its training as `run` does (one compiled chunk each);
    `unrolled=False`: compiled with JAX's default threefry lowering on CPU instead."""
    calls = []
    optimizer = train_lib.adam(config.lr, config.clip, config.b1, config.b2)
    for seed in seeds:
        keys = named_keys(seed, "init", "train", "tune", "eval", "monitor", "ood")
        loss_fn = train_lib.batch_at_step(train_lib.regression_loss,
                                          lambda key, n: one_layer.sample(config, key, n),
                                          keys["train"], config.batch_size)
        run_chunk = train_lib.make_chunk_runner(train_lib.make_step(loss_fn, optimizer))
        params = train_lib.init_lsa(keys["init"], config.d + 1, config.init_scale)
        state = [params, optimizer.init(params)]

        def call(r, run_chunk=run_chunk, state=state):
            lowering = seed_batch.unrolled_threefry() if unrolled else contextlib.nullcontext()
            with lowering:  # only the first call compiles
                state[0], state[1], loss = run_chunk(state[0], state[1],
                                                     jnp.arange(r * chunk, (r + 1) * chunk, dtype=jnp.int32))
            return loss

        calls.append(call)
    return calls


def _keyed_step(config, seeds):
    """(each seed's keys, the optimiser, the step of one seed on (training key, t)), as run_seeds has them."""
    optimizer = train_lib.adam(config.lr, config.clip, config.b1, config.b2)
    keys = [named_keys(s, "init", "train", "tune", "eval", "monitor", "ood") for s in seeds]
    loss_fn = seed_batch.keyed_batch_loss(train_lib.regression_loss,
                                          lambda key, n: one_layer.sample(config, key, n), config.batch_size)
    return keys, optimizer, train_lib.make_step(loss_fn, optimizer)


def batched_chunk(config, seeds, chunk: int):
    """call(r) running chunk r of all `seeds` in one compiled step, as `run_seeds(batched=True)` does."""
    keys, optimizer, step = _keyed_step(config, seeds)
    run_chunk = seed_batch.make_seeds_chunk_runner(step)
    params = seed_batch.stack([train_lib.init_lsa(k["init"], config.d + 1, config.init_scale) for k in keys])
    train_keys = jnp.stack([k["train"] for k in keys])                  # (S,) typed keys
    state = [params, jax.vmap(optimizer.init)(params)]

    def call(r):
        state[0], state[1], loss = run_chunk(state[0], state[1], train_keys,
                                             jnp.arange(r * chunk, (r + 1) * chunk, dtype=jnp.int32))
        return loss

    return call


def in_turn_chunk(config, seeds, chunk: int):
    """call(r) running chunk r of all `seeds` as `run_seeds` does on a CPU: one compiled
    single-seed chunk (the key an argument), each seed's call dispatched before any is waited on."""
    keys, optimizer, step = _keyed_step(config, seeds)
    run_chunk = seed_batch.make_keyed_chunk_runner(step)
    states = []
    for k in keys:
        params = train_lib.init_lsa(k["init"], config.d + 1, config.init_scale)
        states.append([params, optimizer.init(params), k["train"]])

    def call(r):
        ts = jnp.arange(r * chunk, (r + 1) * chunk, dtype=jnp.int32)
        losses = []
        for state in states:
            state[0], state[1], loss = run_chunk(state[0], state[1], state[2], ts)
            losses.append(loss)
        return losses

    return call


def group_process(seeds: str, chunk: int, chunks: int) -> None:
    """In a process of its own: compile the seeds' chunk, say ready, wait for the go (a line
    on stdin), train `chunks` chunks of every seed in turn, print the seconds it took."""
    config = single_layer.PROFILES["paper"]
    with random_streams():
        call = in_turn_chunk(config, tuple(int(s) for s in seeds.split(",")), chunk)
        jax.block_until_ready(call(0))
        print("ready", flush=True)
        sys.stdin.readline()
        t0 = time.perf_counter()
        for r in range(1, chunks + 1):
            jax.block_until_ready(call(r))
        print(f"{time.perf_counter() - t0:.6f}", flush=True)


def side_by_side(groups: list[str], chunk: int, chunks: int) -> float:
    """Seconds until the last of the processes (one per group of seeds) has trained its chunks."""
    import subprocess

    procs = [subprocess.Popen([sys.executable, __file__, "--group", g, "--chunk", str(chunk),
                               "--chunks", str(chunks)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True) for g in groups]
    for p in procs:
        if p.stdout.readline().strip() != "ready":
            sys.exit(f"a worker process failed ({' '.join(p.args)})")
    for p in procs:  # all compiled: they start together
        p.stdin.write("\n")
        p.stdin.flush()
    seconds = [float(p.stdout.readline()) for p in procs]
    for p in procs:
        p.wait()
    return max(seconds)


def shared_compile_cache() -> None:
    """A smoke run's worker processes load the chunk this process compiles (the same program)
    from a compile cache instead of compiling it again each: where no JAX compilation cache is
    set (the tests set one for their session), a temporary folder, in this process's settings
    and its environment (which they inherit), removed on the way out."""
    if os.environ.get("JAX_COMPILATION_CACHE_DIR"):
        return
    folder = tempfile.mkdtemp(prefix="litrec-seeds-smoke-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    for name, value in (("jax_compilation_cache_dir", folder), ("jax_persistent_cache_min_compile_time_secs", 0)):
        jax.config.update(name, value)
        os.environ[name.upper()] = str(value)


def main() -> None:
    """Times the three ways, prints the detail and the rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunk", type=int, default=100, help="steps per timed call (eval_every of `paper`)")
    parser.add_argument("--repeats", type=int, default=7, help="timed calls (median reported)")
    parser.add_argument("--chunks", type=int, default=10, help="chunks each worker process trains")
    parser.add_argument("--group", default=None, help=argparse.SUPPRESS)  # a worker process's seeds
    report.add_json_argument(parser)
    args = report.parse(parser, chunk=2, repeats=1, chunks=1)
    if args.smoke:
        report.fast_compiles()
        shared_compile_cache()
    if args.group is not None:
        group_process(args.group, args.chunk, args.chunks)
        return
    config = single_layer.PROFILES["paper"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"jax {jax.__version__} on {jax.devices()[0].platform} ({os.cpu_count()} CPUs, load {load:.2f}); "
          f"single-layer `paper`: d={config.d}, N={config.N}, batch {config.batch_size}; "
          f"median of {args.repeats} x {args.chunk} steps after compiling")
    with random_streams():
        singles = one_seed_chunks(config, SEEDS, args.chunk)
        calls = {"one": singles[0], "batched": batched_chunk(config, SEEDS, args.chunk),
                 "sequential": in_turn_chunk(config, SEEDS, args.chunk),
                 "blocking": lambda r: [jax.block_until_ready(call(r)) for call in singles],
                 "one_rolled": one_seed_chunks(config, SEEDS[:1], args.chunk, unrolled=False)[0],
                 "one_batched_code": batched_chunk(config, SEEDS[:1], args.chunk),
                 "draw_one": draw_only(config, SEEDS[:1], args.chunk),
                 "draw_three": draw_only(config, SEEDS, args.chunk)}
        first, median = _interleaved(calls, args.repeats)
    ms = {k: 1e3 * v / args.chunk for k, v in median.items()}
    alone, split = [], []
    for _ in range(1 if args.smoke else 3):  # whole processes, taking turns
        alone.append(side_by_side(["0"], args.chunk, args.chunks))
        split.append(side_by_side(["0,1", "2"], args.chunk, args.chunks))
    steps = args.chunk * args.chunks
    ms["proc_one"], ms["proc_split"] = (1e3 * statistics.median(t) / steps for t in (alone, split))
    print(f"1 seed (run)            {ms['one']:7.2f} ms/step (compile + first chunk {first['one']:.1f} s)")
    print(f"3 seeds in turn         {ms['sequential']:7.2f} ms/step  (run_seeds on a CPU: dispatched together)")
    print(f"3 seeds one by one      {ms['blocking']:7.2f} ms/step  (each seed's chunk waited on in turn)")
    print(f"3 seeds batched (vmap)  {ms['batched']:7.2f} ms/step = {ms['batched'] / 3:.2f} ms per seed-step "
          f"(compile + first chunk {first['batched']:.1f} s)")
    print(f"1 seed, one process     {ms['proc_one']:7.2f} ms/step (median of 3 x {args.chunks} chunks)")
    print(f"3 seeds, 2 processes    {ms['proc_split']:7.2f} ms/step (seeds 0, 1 | seed 2 side by side: "
          f"litrec run --jobs 2)")
    print(f"1 seed, rolled threefry {ms['one_rolled']:7.2f} ms/step (JAX's default lowering on CPU)")
    print(f"1 seed, batched code    {ms['one_batched_code']:7.2f} ms/step (a batch of one)")
    print(f"drawing the tasks only: 1 seed {ms['draw_one']:.2f} ms/step, 3 seeds {ms['draw_three']:.2f} ms/step "
          f"({ms['draw_three'] / ms['batched']:.0%} of the batched step)")
    way = "in turn" if ms["sequential"] <= ms["batched"] else "batched"
    print(f"in one process the faster way here: {way}; seed_batch.batching_pays() says "
          f"{'batched' if seed_batch.batching_pays() else 'in turn'}")
    rows = [
        report.Row("seeds: 3 seeds on 2 worker processes vs 1", ms["proc_split"], "ms/step",
                   "1 seed, one process", ms["proc_one"], "<= 2x baseline",
                   ms["proc_split"] / ms["proc_one"] <= 2.0),
        report.Row("seeds: 3 seeds in turn vs 1", ms["sequential"], "ms/step", "1 seed", ms["one"],
                   "(contrast)", None),
        report.Row("seeds: 3 seeds batched (vmap) vs 1", ms["batched"], "ms/step", "1 seed", ms["one"],
                   "(contrast)", None),
        report.Row("seeds: 1 seed vs 1 seed, rolled threefry", ms["one"], "ms/step",
                   "1 seed, rolled threefry", ms["one_rolled"], "(contrast: the lowering)", None),
    ]
    report.emit(rows, args.json)


if __name__ == "__main__":
    main()
