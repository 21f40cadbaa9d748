"""Cost of one training step of five *separate* token-clipped LSA layers (deeper-gdpp's
`paper_full`), by formulation, each against the form the analysis trains with, in the same run.

Times whole Adam steps (`analysis.lib.train.make_step`, chunks of `--inner` steps in one jitted
`lax.scan`) at batch 2,048 (d = N = 10, tokens clipped at +-10), interleaved rounds (the order
reversed every other round), and prints medians of wall and process CPU ms per step with each
form's CPU ratio to the baseline:

* tokens (baseline): `analysis.lib.gdpp.query_forward_tokens`, as deeper-gdpp trains: the context's
  (N, N) logits per task, the query followed separately;
* forward: `analysis.lib.lsa.forward` token by token (q, k, v per token), the reference;
* gram: per layer C = sum_i e_i e_i^T, M = W_PV C W_KQ, every context token e_j += M e_j,
  then the clip (linear attention re-associated, analysis/lib/lsa.py's eq. (*));
* gram-bcast: the same with the per-task contractions as broadcast-multiply-and-sum and the
  shared-weight products as one 2-d matmul over the flattened batch;
* tasks-minor: tokens laid out (D, N, B), every per-task contraction elementwise over the
  tasks (B the vector axis), the shared weights one (D, D) @ (D, N B) product;
* sliced: the baseline's gradient summed over 16 slices of 128 tasks (a `custom_vjp` loss,
  the same gradient to float32 rounding), so each slice's pass stays in cache.

Measured on the 2-core machine under load (load average 11-14, paper_full training beside it;
six same-run comparisons): tokens 36-51 ms CPU per step; forward 0.45-0.48x its speed, gram
0.76-0.85x, sliced 1.02-1.26x (median 1.14x); gram-bcast 0.23-0.24x and tasks-minor 0.11-0.12x
(their backward passes materialise the broadcasts: 220-460 ms of CPU for a gradient whose forward
takes 16-26 ms). No form reached the 1.3x that would justify changing what deeper-gdpp trains
with. In the token form the forward is 11.5-12.5 ms of CPU and the gradient 43-47 ms, far above the
~2-3 ms the FLOPs would take: the cost is in XLA's batched products of (10 x 11) matrices, one
small product per task, which every form re-associating per-task contractions keeps.

    .venv/bin/python bench/separate_layers_forms.py [--rounds 5] [--forms tokens,gram,sliced]
"""
import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import report  # noqa: E402

from analysis import deeper_gdpp  # noqa: E402
from analysis.lib import gdpp, lsa  # noqa: E402
from analysis.lib import tasks as task_lib
from analysis.lib import train as train_lib

CLIP = 10.0


def tokens(p, H):
    return gdpp.query_forward_tokens(p, H, None, CLIP)


def forward(p, H):
    return lsa.forward(p, H, None, CLIP)[:, -1, :]


def gram(p, H):
    ctx, e_q = H[:, :-1, :], H[:, -1, :]                                # (B, N, D), (B, D)
    steps = lsa.step_products(p)
    for k, (W_KQ, W_PV) in enumerate(steps):
        C = jnp.einsum("bni,bnj->bij", ctx, ctx)                        # (B, D, D)
        if k < len(steps) - 1:
            M = jnp.einsum("ij,bjk,kl->bil", W_PV, C, W_KQ)             # (B, D, D)
            ctx = jnp.clip(ctx + jnp.einsum("bij,bnj->bni", M, ctx), -CLIP, CLIP)
        e_q = jnp.clip(e_q + jnp.einsum("bij,bj->bi", C, e_q @ W_KQ.T) @ W_PV.T, -CLIP, CLIP)
    return e_q


def gram_bcast(p, H):
    ctx, e_q = H[:, :-1, :], H[:, -1, :]
    D = H.shape[-1]
    steps = lsa.step_products(p)
    for k, (W_KQ, W_PV) in enumerate(steps):
        C = jnp.sum(ctx[:, :, :, None] * ctx[:, :, None, :], axis=1)     # (B, D, D)
        if k < len(steps) - 1:
            Z = (ctx.reshape(-1, D) @ W_KQ.T).reshape(ctx.shape)         # W_KQ e_j, one 2-d matmul
            U = jnp.sum(C[:, None, :, :] * Z[:, :, None, :], axis=-1)    # C W_KQ e_j
            ctx = jnp.clip(ctx + (U.reshape(-1, D) @ W_PV.T).reshape(ctx.shape), -CLIP, CLIP)
        u = jnp.sum(C * (e_q @ W_KQ.T)[:, None, :], axis=-1)
        e_q = jnp.clip(e_q + u @ W_PV.T, -CLIP, CLIP)
    return e_q


def tasks_minor(p, H):
    B, T, D = H.shape
    X = jnp.transpose(H, (2, 1, 0))                                     # (D, N+1, B)
    ctx, e_q = X[:, :-1, :], X[:, -1, :]
    steps = lsa.step_products(p)
    for k, (W_KQ, W_PV) in enumerate(steps):
        C = jnp.sum(ctx[:, None, :, :] * ctx[None, :, :, :], axis=2)    # (D, D, B)
        if k < len(steps) - 1:
            Z = (W_KQ @ ctx.reshape(D, -1)).reshape(D, T - 1, B)
            U = jnp.sum(C[:, :, None, :] * Z[None, :, :, :], axis=1)    # (D, N, B)
            ctx = jnp.clip(ctx + (W_PV @ U.reshape(D, -1)).reshape(D, T - 1, B), -CLIP, CLIP)
        e_q = jnp.clip(e_q + W_PV @ jnp.sum(C * (W_KQ @ e_q)[None, :, :], axis=1), -CLIP, CLIP)
    return e_q.T


def sliced_loss(loss_fn, n):
    """loss_fn(params, x) (a batch mean) whose gradient is summed over n equal slices of x."""
    value_and_grad = jax.value_and_grad(loss_fn)

    def both(params, x):
        def add(total, xs):
            v, g = value_and_grad(params, xs)
            return (total[0] + v, jax.tree.map(jnp.add, total[1], g)), None
        xs = jax.tree.map(lambda a: a.reshape((n, a.shape[0] // n) + a.shape[1:]), x)
        zero = (jnp.zeros((), jnp.float32), jax.tree.map(jnp.zeros_like, params))
        (v, g), _ = jax.lax.scan(add, zero, xs)
        return v / n, jax.tree.map(lambda a: a / n, g)

    @jax.custom_vjp
    def f(params, x):
        return both(params, x)[0]

    def fwd(params, x):
        v, g = both(params, x)
        return v, (g, x)

    def bwd(res, ct):
        g, x = res
        return jax.tree.map(lambda a: ct * a, g), jax.tree.map(jnp.zeros_like, x)

    f.defvjp(fwd, bwd)
    return f


FORMS = {"tokens": tokens, "forward": forward, "gram": gram, "gram-bcast": gram_bcast,
         "tasks-minor": tasks_minor, "sliced": tokens}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--inner", type=int, default=10, help="steps per timed chunk")
    parser.add_argument("--forms", default="tokens,forward,gram,sliced",
                        help=f"comma-separated, the first the baseline (of {', '.join(FORMS)})")
    report.add_json_argument(parser)
    args = report.parse(parser, rounds=1, inner=1)
    if args.smoke:
        report.fast_compiles()
    names = args.forms.split(",")
    depth = deeper_gdpp.K5_SEPARATE
    p = train_lib.init_lsa(jax.random.key(0), 11, depth.init_scale, n_layers=5)
    optimizer = train_lib.adam(depth.lr, depth.clip, 0.9, 0.98)
    raw = task_lib.regression_draws(task_lib.host_rng(jax.random.key(1)), 2048, 10, 10)(args.inner)
    runs = {}
    for name in names:
        def loss_fn(params, r, fn=FORMS[name]):
            H, y_q = deeper_gdpp._tokens_from_raw(r, task_lib.CODE_INPUT_RANGE)
            return 0.5 * jnp.mean((y_q + fn(params, H)[:, -1]) ** 2)
        step = train_lib.make_step(sliced_loss(loss_fn, 16) if name == "sliced" else loss_fn, optimizer)
        run = jax.jit(lambda carry, xs, step=step: jax.lax.scan(step, carry, xs))
        carry = (p, optimizer.init(p))
        jax.block_until_ready(run(carry, raw))                          # compiled
        runs[name] = (run, carry)
    wall = {n: [] for n in names}
    cpu = {n: [] for n in names}
    load = [os.getloadavg()[0]]
    for r in range(args.rounds):
        for name in (names if r % 2 == 0 else names[::-1]):
            run, carry = runs[name]
            w0, c0 = time.perf_counter(), time.process_time()
            jax.block_until_ready(run(carry, raw))
            wall[name].append((time.perf_counter() - w0) / args.inner * 1e3)
            cpu[name].append((time.process_time() - c0) / args.inner * 1e3)
    load.append(os.getloadavg()[0])
    base = names[0]
    print(f"{os.cpu_count()} CPUs, load average {load[0]:.1f} at start, {load[1]:.1f} at end; "
          f"medians of {args.rounds} interleaved rounds of {args.inner} steps")
    for name in names:
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        print(f"{name:12s} {w:8.1f} ms wall {c:7.1f} ms CPU   CPU speed vs {base}: "
              f"{statistics.median(cpu[base]) / c:5.2f}x")
    report.emit([report.Row(f"five separate clipped layers, {name} form", statistics.median(cpu[name]),
                            "CPU ms/step", f"{base} form", statistics.median(cpu[base]), "(contrast)", None)
                 for name in names if name != base], args.json)


if __name__ == "__main__":
    main()
