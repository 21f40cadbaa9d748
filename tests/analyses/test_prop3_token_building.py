"""Proposition 3: separate input and target tokens; a softmax layer copies, a linear layer takes one GD step."""
import dataclasses
import subprocess
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from analysis import prop3_token_building as m
from analysis.lib import lsa
from analysis.lib import prop3_construction as c
from analysis.lib import tasks as task_lib
from analysis.lib.keys import random_streams

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def quick():
    with random_streams():
        return m.run(m.PROFILES["quick"])


def test_shift_rotation_moves_the_encoding_by_one_position():
    pe = c.positional_encoding(22, 10, 1e4)
    R, R_inv = c.shift_rotation(10, 1e4, 1), c.shift_rotation(10, 1e4, -1)
    np.testing.assert_allclose(pe[:-1] @ R.T, pe[1:], atol=1e-5)
    np.testing.assert_allclose(pe[1:] @ R_inv.T, pe[:-1], atol=1e-5)


@pytest.mark.slow
def test_construction_is_exactly_one_gd_step():
    d, N, P, eta = 10, 10, 10, 6.0
    t = task_lib.sample_tasks(jax.random.key(3), 64, N, d)
    pe = jnp.asarray(c.positional_encoding(2 * N + 1, P, 1e4))
    H = c.separate_tokens(t.X, t.Y, t.x_q, pe)                           # (64, 21, 21)
    assert H.shape == (64, 2 * N + 1, d + 1 + P)
    np.testing.assert_array_equal(H[:, 1::2, :d], 0.0)                    # target tokens: no inputs
    np.testing.assert_array_equal(H[:, 0::2, d], 0.0)                     # x-tokens and query: no target
    built = c.construction(eta, d, N, P, 1e4, beta=100.0)
    A = c.attention_weights(built[0], H)                                 # (64, 21, 20)
    xs = np.arange(0, 2 * N, 2)
    np.testing.assert_allclose(A[:, xs, xs + 1], 1.0, atol=1e-6)         # x_j attends to its y_j only
    H1 = c.softmax_layer(built[0], H)
    np.testing.assert_allclose(H1[:, xs, -1], t.Y[..., 0], atol=1e-5)   # y_j copied into slot r
    np.testing.assert_array_equal(H1[..., :-1], H[..., :-1])             # nothing else is written
    y_hat = c.predict(built, H, d)
    np.testing.assert_allclose(y_hat, lsa.gd_predict(t.X, t.Y, t.x_q, eta), atol=1e-5)
    # a small logit scale mixes neighbours in: the copy is then visibly inexact
    blurred = c.construction(eta, d, N, P, 1e4, beta=2.0)
    assert float(jnp.max(jnp.abs(c.softmax_layer(blurred[0], H)[:, xs, -1] - t.Y[..., 0]))) > 0.05


def test_figure5_measure_of_the_construction():
    """The exact copy: own token sqrt(11) (the residual over the 11 data entries), next token 1
    (y_{j} copied with weight 1), others 1/19 (the code's sum counts the next token among them)."""
    d, N, P = 10, 10, 10
    t = task_lib.sample_tasks(jax.random.key(5), 128, N, d)
    pe = jnp.asarray(c.positional_encoding(2 * N + 1, P, 1e4))
    built = c.construction(6.0, d, N, P, 1e4, beta=100.0)
    measure = jax.jit(lambda layer, X, Y, x_q: m.figure5_sensitivities(layer, X, Y, x_q, pe))  # one compile
    f5 = {k: float(v) for k, v in measure(built[0], t.X, t.Y, t.x_q).items()}
    assert f5["own"] == pytest.approx(11 ** 0.5, rel=1e-5)
    assert f5["next"] == pytest.approx(1.0, rel=1e-4)
    assert f5["other"] == pytest.approx(1 / 19, rel=1e-4)
    assert f5["other_excl_next"] < 1e-4  # nothing but its own and the next token reaches a token


def _official_first_layer(seed: int, n_tasks: int):
    """`n_tasks` tasks (d = N = 10, key `seed`), the positional encoding (P = 10), the official
    token format and the first layer of a freshly initialised two-layer model (key `seed + 1`)."""
    d, N, P = 10, 10, 10
    t = task_lib.sample_tasks(jax.random.key(seed), n_tasks, N, d)
    pe = jnp.asarray(c.positional_encoding(2 * N + 1, P, 1e4))
    tokens, D, _ = c.token_format("official", d, P)
    layer = jax.tree.map(lambda w: w[0], __import__("analysis.lib.train", fromlist=["x"]).init_lsa(
        jax.random.key(seed + 1), D, 1.0, n_layers=2))
    return t, pe, tokens, layer


def test_figure5_measure_on_many_tasks_in_chunks_is_the_measure_on_all_at_once():
    """The notebook's 10,000 tasks are measured in chunks (a Jacobian per task): the mean of the
    chunks' means, weighted by their sizes, is the mean over all (a ragged last chunk too)."""
    t, pe, tokens, layer = _official_first_layer(8, 100)
    whole = jax.jit(lambda layer, X, Y, x_q: m.figure5_sensitivities(layer, X, Y, x_q, pe, tokens))(
        layer, t.X, t.Y, t.x_q)
    parts = m.figure5_chunked(layer, t.X, t.Y, t.x_q, pe, tokens, chunk=32)
    assert set(parts) == {"own", "next", "other", "other_excl_next"}
    for name, value in parts.items():
        assert value == pytest.approx(float(whole[name]), rel=1e-5), name
    assert float(whole["other_excl_next"]) < float(whole["other"])  # the next token left out


@pytest.mark.slow
def test_figure5_measure_follows_the_official_loop():
    """The vectorised measure equals the official notebook's loop over positions, written out:
    for each k, the gradient of the summed layer-1 output at k, averaged over tasks, then normed."""
    t, pe, tokens, layer = _official_first_layer(6, 64)
    P = pe.shape[-1]
    data = tokens(t.X, t.Y, t.x_q, pe)[..., :-P]                          # (64, 21, 10): the code's input
    T = data.shape[1]
    own = nxt = other = 0.0
    for k in range(T - 2):
        def summed(x, k=k):
            H = jnp.concatenate([x, pe], -1)[None]
            return jnp.sum(c.softmax_layer(layer, H)[0, k, :])
        g = jnp.linalg.norm(jnp.mean(jax.vmap(jax.grad(summed))(data), axis=0), axis=-1)   # (T,)
        own, nxt = own + g[k], nxt + g[k + 1]
        other += (jnp.sum(g[:k]) + jnp.sum(g[k + 1:])) / g[:-2].shape[0]
    f5 = m.figure5_sensitivities(layer, t.X, t.Y, t.x_q, pe, tokens)
    for name, loop in (("own", own), ("next", nxt), ("other", other)):
        assert float(f5[name]) == pytest.approx(float(loop) / (T - 2), rel=1e-4), name


@pytest.mark.slow
def test_quick_profile_copies_then_steps_once(quick):
    r = quick["metrics"]
    # the construction
    assert abs(r["construction_loss"] - r["loss_gd1"]) / r["loss_gd1"] < 1e-4
    assert r["copy_error"] < 1e-5 and r["construction_copy_attention"] > 0.999
    # Figure 5's measure on the trained first layer: the next token stands out
    assert r["fig5_next"] > 5 * r["fig5_other"] and r["fig5_step"] > 0
    assert len(r["training"]["fig5_next"]) == len(r["training"]["step"])
    # GD baselines: the paper's numbers on a small sample (0.2047 and ~0.155)
    assert 0.18 < r["loss_gd1"] < 0.23 and 0.13 < r["loss_gd2"] < 0.18
    # the trained model: off the zero-prediction plateau, near one step of GD, not two
    assert r["loss_trained"] < 0.7 * r["loss_zero"]
    assert r["loss_trained"] < 1.15 * r["loss_gd1"]
    assert r["loss_trained"] > r["loss_gd2"]
    assert r["cos_vs_gd1"] > 0.95 and r["cos_vs_gd1"] > r["cos_vs_gd2"]
    # the first layer pairs each x-token with its own target (not the reverse)
    assert r["copy_attention"] > 0.4 and r["copy_attention"] > 4 * r["reverse_copy_attention"]
    assert r["copy_selectivity"] > 0.8
    assert 0 < r["escape_step"] <= m.PROFILES["quick"].steps
    h = r["training"]
    assert h["step"][0] == 0 and h["step"][-1] == m.PROFILES["quick"].steps
    assert h["copy_attention"][0] < 0.1 < h["copy_attention"][-1]
    assert set(quick["figures"]) == {"training_loss", "copy", "attention"}


@pytest.mark.slow
def test_official_format_leaves_the_plateau():
    with random_streams():
        r = m.run(dataclasses.replace(m.PROFILES["quick"], token_format="official"))["metrics"]
    assert r["token_format"] == "official"
    assert r["loss_trained"] < 0.7 * r["loss_zero"] and r["loss_trained"] < 1.2 * r["loss_gd1"]
    assert r["loss_trained"] > r["loss_gd2"] and r["cos_vs_gd1"] > r["cos_vs_gd2"]
    assert r["copy_attention"] > 0.4 and r["copy_attention"] > 4 * r["reverse_copy_attention"]


def test_official_token_format():
    d, N, P = 10, 10, 10
    t = task_lib.sample_tasks(jax.random.key(4), 8, N, d)
    pe = jnp.asarray(c.positional_encoding(2 * N + 1, P, 1e4))
    tokens, D, read = c.token_format("official", d, P)
    H = tokens(t.X, t.Y, t.x_q, pe)
    assert H.shape == (8, 2 * N + 1, 20) and D == 20 and read == 19
    np.testing.assert_array_equal(H[:, 0:2 * N:2, :d], t.X)                # x-tokens: the inputs
    np.testing.assert_array_equal(H[:, 1:2 * N:2, d - 1], t.Y[..., 0])     # targets share the last input slot
    np.testing.assert_array_equal(H[:, 1:2 * N:2, :d - 1], 0.0)
    np.testing.assert_array_equal(H[:, -1, :d], t.x_q)
    np.testing.assert_array_equal(H[..., d:], jnp.broadcast_to(pe, (8,) + pe.shape))
    with pytest.raises(ValueError):
        c.token_format("other", d, P)


def test_seeds_and_profiles():
    assert len(m.SEEDS["quick"]) == 3 and len(m.SEEDS["paper"]) >= 3
    assert m.PROFILES["paper"].token_format == "official" and m.PROFILES["paper_slot"].token_format == "slot"
    assert m.PROFILES["paper_full"].steps == 40_000


@pytest.mark.slow
def test_paper_full_code_path_on_a_tiny_budget():
    cfg = dataclasses.replace(m.PROFILES["paper_full"], steps=20, chunk_size=10, eval_every=10, eval_tasks=1_024,
                              tune_tasks=1_024, monitor_tasks=512, copy_tasks=32, seed=1)
    with random_streams():
        out = m.run(cfg)
    assert out["metrics"]["token_format"] == "official" and np.isfinite(out["metrics"]["loss_trained"])
    assert out["metrics"]["copy_error"] < 1e-4                           # the construction, slot format


def test_contract_and_lazy_import():
    assert dataclasses.is_dataclass(m.Config) and m.Config.__dataclass_params__.frozen
    assert {"quick", "paper"} <= set(m.PROFILES)
    code = ("import analysis.prop3_token_building, jax\n"
            "assert not jax.live_arrays(), 'arrays created at import time'\n")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
