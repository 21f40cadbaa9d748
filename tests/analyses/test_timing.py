"""`analysis.lib.timing`: what a training cost, measured without changing what it computes."""
import time

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from analysis import conditioning, deeper_gdpp, prop2_mlp_attention, prop3_token_building, single_layer
from analysis.lib import tasks as task_lib
from analysis.lib import timing
from analysis.lib import train as train_lib


def _train(chunk=10, steps=30, evaluate=None, progress=None):
    def sample(key, n):
        return task_lib.sample_tasks(key, n, 10, 10, 1)

    loss_fn = train_lib.batch_at_step(train_lib.regression_loss, sample, jax.random.key(1), 64)
    return train_lib.train(train_lib.init_lsa(jax.random.key(0), 11, 0.002), loss_fn, train_lib.step_indices(),
                           steps=steps, optimizer=train_lib.adam(1e-3, 1e-3), chunk_size=chunk,
                           evaluate=evaluate, progress=progress)


def _norm(p):
    return {"norm": jnp.sum(p.P ** 2)}


def test_the_clock_changes_nothing_the_training_computes():
    plain = _train(evaluate=_norm)
    seen = []
    clock = timing.Clock(lambda *a: seen.append(a), _norm)
    timed = _train(evaluate=clock.evaluate, progress=clock.progress)
    jax.tree.map(lambda a, b: np.testing.assert_array_equal(np.asarray(a), np.asarray(b)),
                 plain.params, timed.params)
    for key in ("step", "chunk_step", "train_loss", "norm"):
        assert plain.history[key] == timed.history[key]
    assert [a[0] for a in seen] == [0, 10, 20, 30]                 # the caller's progress still called
    t = clock.summary(timed.history)
    assert set(t) == {"steps", "seconds", "ms_per_step", "cpu_steps", "cpu_seconds", "cpu_ms_per_step"}
    assert t["steps"] == t["cpu_steps"] == 30 and [n for n, _ in clock.chunks] == [10, 10, 10]
    assert t["seconds"] == pytest.approx(sum(timed.history["chunk_seconds"]))
    assert t["cpu_ms_per_step"] > 0 and t["ms_per_step"] > 0


def test_evaluation_cpu_is_left_out():
    def busy(p):                                                    # 0.2 s of CPU per evaluation
        end = time.process_time() + 0.2
        while time.process_time() < end:
            pass
        return _norm(p)

    clock = timing.Clock(None, busy)
    result = _train(chunk=10, steps=40, evaluate=clock.evaluate, progress=clock.progress)
    assert len(result.history["norm"]) == 5                         # evaluated after every chunk
    later = [cpu for _, cpu in clock.chunks[1:]]                    # the first chunk compiles
    assert len(later) == 3 and max(later) < 0.1, clock.chunks


def test_summary_takes_medians_after_the_first_chunk_per_step():
    history = {"chunk_step": [50, 100, 150, 200, 220], "chunk_seconds": [9.0, 1.0, 2.0, 1.5, 0.2]}
    cpu = [(50, 20.0), (50, 2.0), (50, 3.0), (50, 4.0), (20, 0.4)]
    t = timing.summary(history, cpu)
    assert t["steps"] == 220 and t["cpu_steps"] == 220
    assert t["seconds"] == pytest.approx(13.7) and t["cpu_seconds"] == pytest.approx(29.4)
    assert t["ms_per_step"] == pytest.approx(1e3 * np.median([0.02, 0.04, 0.03, 0.01]))
    assert t["cpu_ms_per_step"] == pytest.approx(1e3 * np.median([0.04, 0.06, 0.08, 0.02]))
    resumed = timing.summary(history, cpu[3:])                      # this process ran the last two chunks
    assert resumed["steps"] == 220 and resumed["cpu_steps"] == 70
    assert resumed["cpu_ms_per_step"] == pytest.approx(20.0)        # 0.4 s / 20 steps, after the first
    empty = timing.summary({"chunk_step": [], "chunk_seconds": []}, [])
    assert empty == {"steps": 0, "seconds": 0.0, "ms_per_step": 0.0, "cpu_steps": 0, "cpu_seconds": 0.0,
                     "cpu_ms_per_step": 0.0}


@pytest.mark.parametrize("module, models", [(deeper_gdpp, ("k2", "k5")), (prop3_token_building, ("trained",)),
                                            (prop2_mlp_attention, ("trained", "mlp_gd")),
                                            (single_layer, ("trained",)), (conditioning, ("trained",))])
def test_the_analyses_declare_their_timing_metrics(module, models):
    from litrec.analyses import contract

    out = {"timing": {m: {"steps": 10, "ms_per_step": 1.0, "cpu_ms_per_step": 2.0} for m in models}}
    assert contract.undeclared(out, module.METRICS) == []
    checked = contract.check_output({"metrics": out}, module.__name__, declared=module.METRICS)
    assert "notes" not in checked or not checked["notes"]
