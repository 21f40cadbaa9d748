"""Seeds batched on an accelerator: three seeds of a `paper_full` model in one vmapped step
against one seed alone, on the same device in the same run.

The model is deeper-gdpp's five separate token-clipped layers at batch 2,048, the longest
training of `paper_full` (`bench/train_speed.py` builds it as the analysis does). One seed
runs the analysis's Adam step (`analysis.lib.train.make_step`) in jitted scans of `--inner` steps;
three seeds run the same step under `jax.vmap` over the parameters, the optimiser state and
each seed's own pre-drawn data. Rounds are interleaved; medians of wall ms per step (the
device's time: the host only waits).

Goal: three seeds at most 1.3x one seed's time (the device has room for more than one
seed's work). On a CPU this cannot be met (three seeds are three times the arithmetic on
the same cores: `bench/seeds_batched.py` measures it there), so where JAX sees no
accelerator the script measures nothing and says so; `bench/all.py` records the reason in
the table.

    .venv/bin/python bench/accelerator_seeds.py [--rounds 5] [--inner 20] [--seeds 3]
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import report  # noqa: E402

GOAL = 1.3


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--inner", type=int, default=20, help="steps per timed scan")
    ap.add_argument("--seeds", type=int, default=3, help="seeds in the batched step")
    report.add_json_argument(ap)
    args = report.parse(ap, rounds=1, inner=2, seeds=2)

    import jax
    import jax.numpy as jnp

    backend = jax.default_backend()
    if backend == "cpu":
        report.cannot_measure(f"no accelerator: JAX sees only {len(jax.devices())} CPU device(s); "
                              "the goal is for a GPU or TPU", args.json,
                              f"{args.seeds} seeds batched <= {GOAL}x 1 seed, on an accelerator")
        return 0

    import train_speed

    from analysis import deeper_gdpp
    from analysis.lib import train as train_lib

    def model(seed: int):
        loss_fn, params, draws, optimizer, _ = train_speed._deeper(deeper_gdpp.K5_SEPARATE)
        params = jax.tree.map(lambda w: w * (1.0 + 0.01 * seed), params)  # one start per seed
        xs = jax.tree.map(jnp.asarray, draws(args.inner))
        return loss_fn, optimizer, (params, optimizer.init(params)), xs

    loss_fn, optimizer, state, xs = model(0)
    step = train_lib.make_step(loss_fn, optimizer)
    one = jax.jit(lambda state, xs: jax.lax.scan(step, state, xs)[0])
    many = [model(s) for s in range(args.seeds)]
    stack = lambda *leaves: jnp.stack(leaves)  # noqa: E731
    states = jax.tree.map(stack, *[m[2] for m in many])
    xss = jax.tree.map(stack, *[m[3] for m in many])
    batched = jax.jit(jax.vmap(lambda state, xs: jax.lax.scan(step, state, xs)[0]))
    jax.block_until_ready(one(state, xs))
    jax.block_until_ready(batched(states, xss))

    times = {"one": [], "many": []}
    for r in range(args.rounds):
        order = (("one", one, state, xs), ("many", batched, states, xss))
        for kind, run, s, x in (order if r % 2 == 0 else order[::-1]):
            t0 = time.perf_counter()
            jax.block_until_ready(run(s, x))
            times[kind].append((time.perf_counter() - t0) * 1e3 / args.inner)
    single, several = statistics.median(times["one"]), statistics.median(times["many"])
    device = jax.devices()[0].device_kind
    print(f"{device}: 1 seed {single:.2f} ms/step, {args.seeds} seeds batched {several:.2f} ms/step "
          f"({several / single:.2f}x)")
    report.emit([report.Row(f"5 separate layers, {args.seeds} seeds batched on {backend} ({device})",
                            several, "ms/step", "1 seed, same device", single,
                            f"<= {GOAL}x baseline", several / single <= GOAL)], args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
