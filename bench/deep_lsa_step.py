"""Cost of one training step of a recurrent LSA (deeper-gdpp), by formulation.

Prints ms per step (wall and process CPU) of the jitted gradient of the regression
loss at batch 2,048 (d = N = 10), for K = 2 and K = 5, through

* tokens:  the context tokens updated layer by layer (`analysis.lib.gdpp.query_forward_tokens`,
           the only form that supports the five-layer token clip);
* matvec:  products of the context Gram matrices with vectors only (`analysis.lib.lsa.query_forward`, K <= 4);
* gram:    the context Gram matrix formed at every layer (`analysis.lib.lsa.query_forward_gram`),

and the ratio to the official code's ~59 ms per step for two recurrent layers
(the official code timed on a 2-core CPU of this machine kind). Data drawing is excluded (on the
host, overlapped with the step in `analysis.lib.train.train`).

    .venv/bin/python bench/deep_lsa_step.py [--repeats 3]
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import report  # noqa: E402

from analysis.lib import gdpp, lsa  # noqa: E402
from analysis.lib import tasks as task_lib
from analysis.lib import train as train_lib

OFFICIAL_MS_K2 = 59.0  # official code, recurrent 2 layers, batch 2,048, 2-core CPU


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--inner", type=int, default=20)
    report.add_json_argument(parser)
    args = report.parse(parser, repeats=1, inner=1)
    if args.smoke:
        report.fast_compiles()
    medians: dict[tuple[int, str], float] = {}
    tasks = task_lib.regression_task_set(jax.random.key(0), 2048, 10, 10, 1.0)
    H = jnp.concatenate([jnp.concatenate([tasks.X, tasks.Y], -1),
                         jnp.concatenate([tasks.x_q, jnp.zeros_like(tasks.y_q)], -1)[:, None]], 1)
    y_q = tasks.y_q[:, 0]
    p0 = train_lib.init_lsa(jax.random.key(1), 11, 0.01)
    forms = {
        "tokens": lambda p, K: gdpp.query_forward_tokens(p, H, K),
        "matvec": lambda p, K: lsa.query_forward(p, H, K),
        "gram": lambda p, K: lsa.query_forward_gram(p, lsa.context_gram(H), H[:, -1], K),
    }
    for K in (2, 5):
        for name, forward in forms.items():
            if name == "matvec" and K > 4:
                continue
            def loss(p, forward=forward, K=K):
                return 0.5 * jnp.mean((y_q + forward(p, K)[:, -1]) ** 2)
            steps = jax.jit(lambda p, loss=loss: jax.lax.fori_loop(
                0, args.inner, lambda i, p: jax.tree.map(lambda a, g: a - 1e-4 * g, p, jax.grad(loss)(p)), p))
            jax.block_until_ready(steps(p0))
            best_wall = best_cpu = float("inf")
            walls = []
            for _ in range(args.repeats):
                w0, c0 = time.perf_counter(), time.process_time()
                jax.block_until_ready(steps(p0))
                walls.append((time.perf_counter() - w0) / args.inner * 1e3)
                best_wall = min(best_wall, walls[-1])
                best_cpu = min(best_cpu, (time.process_time() - c0) / args.inner * 1e3)
            medians[K, name] = statistics.median(walls)
            print(f"K={K} {name:7s} {best_wall:7.2f} ms/step wall {best_cpu:7.2f} ms cpu   "
                  f"official K=2 / this: {OFFICIAL_MS_K2 / best_wall:5.1f}x")
    # the table's rows: each form against the token form, the only one with the five-layer clip
    report.emit([report.Row(f"deeper-gdpp step K={K}, {name} form", medians[K, name], "ms/step",
                            f"token form K={K}", medians[K, "tokens"], "(contrast)", None)
                 for K, name in medians if name != "tokens"], args.json)


if __name__ == "__main__":
    main()
