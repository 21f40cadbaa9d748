"""What a training cost: steps, wall and CPU time per step, for a result's `timing` metric.

`analysis.lib.train.train` times each chunk of steps on the wall clock
(`history["chunk_seconds"]`, evaluation between chunks excluded). `Clock`
adds the CPU time without touching the training code: it wraps the two
callbacks `train` already takes. `progress` is called before the first chunk
and after each, so the process CPU time (`time.process_time`, every thread of
the process) between two calls is one chunk's; the CPU spent in `evaluate`
(the training curves, blocked on inside the wrapper) and in the caller's own
progress callback is taken out. Neither wrapper changes what the training
computes: the evaluation's values are returned as they are, only waited for.

    clock = timing.Clock(progress, curve)
    result = train_lib.train(..., evaluate=clock.evaluate, progress=clock.progress)
    metrics["timing"] = {"k5": clock.summary(result.history)}

Timings differ from run to run (load, machine, thermal state): a result keeps
them under `timing`, which no claim judges, and a rerun's verdicts do not
depend on them (site/writing-analyses.md).
"""
import time
from typing import Any, Callable

import jax
import numpy as np


class Clock:
    """Process CPU time per training chunk, from `train`'s progress and evaluate callbacks."""

    def __init__(self, progress: Callable[[int, int, str], None] | None = None,
                 evaluate: Callable[[Any], dict] | None = None):
        self._progress, self._evaluate = progress, evaluate
        self._done: int | None = None        # steps done at the last progress call
        self._since = 0.0                    # process time at the last progress call (after its callback)
        self._outside = 0.0                  # CPU spent evaluating since then
        self.chunks: list[tuple[int, float]] = []   # (steps, CPU seconds) per chunk run in this process
        self.evaluate = None if evaluate is None else self._timed_evaluate

    def _timed_evaluate(self, params) -> dict:
        start = time.process_time()
        out = jax.block_until_ready(self._evaluate(params))
        self._outside += time.process_time() - start
        return out

    def progress(self, done: int, steps: int, description: str) -> None:
        now = time.process_time()
        if self._done is not None and done > self._done:
            self.chunks.append((done - self._done, now - self._since - self._outside))
        if self._progress is not None:
            self._progress(done, steps, description)
        self._done, self._since, self._outside = done, time.process_time(), 0.0

    def summary(self, history: dict) -> dict:
        """steps, seconds and ms_per_step (wall), cpu_seconds, cpu_ms_per_step and cpu_steps (CPU).

        Per-step figures are medians over the chunks after the first (which
        compiles), each chunk's time over its steps. Wall times come from the
        history, every chunk of the training (a resumed training's earlier
        chunks included); CPU times from the chunks this process ran
        (`cpu_steps` of them; fewer than `steps` after a resume).
        """
        return summary(history, self.chunks)


def _median_per_step_ms(sizes, seconds) -> float:
    per = np.asarray(seconds, dtype=float) / np.asarray(sizes, dtype=float)
    if per.size == 0:
        return 0.0
    return 1e3 * float(np.median(per[1:] if per.size > 1 else per))


def summary(history: dict, cpu_chunks: list[tuple[int, float]]) -> dict:
    """The `timing` of one trained model from its history and its (steps, CPU s) per chunk."""
    ends = [int(s) for s in history.get("chunk_step", [])]
    sizes = np.diff([0] + ends)
    wall = history.get("chunk_seconds", [])
    return {"steps": ends[-1] if ends else 0,
            "seconds": float(np.sum(wall)),
            "ms_per_step": _median_per_step_ms(sizes[len(sizes) - len(wall):], wall),
            "cpu_steps": int(sum(n for n, _ in cpu_chunks)),
            "cpu_seconds": float(sum(c for _, c in cpu_chunks)),
            "cpu_ms_per_step": _median_per_step_ms([n for n, _ in cpu_chunks], [c for _, c in cpu_chunks])}
