"""The one GD baseline: `gdpp.tune_gd` finds the minimum, and `gdpp.optimum` says whether it is one."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from analysis import gdpp, lsa, tasks as task_lib


@pytest.fixture(scope="module")
def tune():
    return task_lib.regression_task_set(jax.random.key(5), 2_048, 10, 10, 1.0)


def _loss(t, eta, K):
    return float(0.5 * jnp.mean((t.y_q - lsa.gd_predict(t.X, t.Y, t.x_q, eta, K)) ** 2))


@pytest.mark.slow
@pytest.mark.parametrize("K", [1, 2, 3])
def test_the_tuned_eta_is_the_minimum_of_a_fine_grid(tune, K):
    eta = float(gdpp.tune_gd(tune.X, tune.Y, tune.x_q, tune.y_q, K)[0])
    grid = np.linspace(0.5 * eta, 1.5 * eta, 401)
    losses = np.asarray(jax.jit(jax.vmap(lambda e: 0.5 * jnp.mean(
        (tune.y_q - lsa.gd_predict(tune.X, tune.Y, tune.x_q, e, K)) ** 2)))(jnp.asarray(grid, jnp.float32)))
    best = grid[int(np.argmin(losses))]
    assert abs(eta - best) <= 1.5 * (grid[1] - grid[0])             # the grid's own resolution
    assert _loss(tune, eta, K) <= min(losses) + 1e-6
    check = gdpp.optimum(tune.X, tune.Y, tune.x_q, tune.y_q, [eta], None, K)
    assert check["is_minimum"] and check["loss"] == pytest.approx(_loss(tune, eta, K), rel=1e-5)
    assert check["loss_eta_minus"] > check["loss"] < check["loss_eta_plus"]


def test_one_step_is_the_closed_form(tune):
    eta = gdpp.tune_gd(tune.X, tune.Y, tune.x_q, tune.y_q, 1)
    assert eta.shape == (1,) and float(eta[0]) == float(lsa.tune_eta_one_step(tune.X, tune.Y, tune.x_q, tune.y_q))


def test_a_step_size_short_of_its_optimum_is_no_minimum(tune):
    eta = float(gdpp.tune_gd(tune.X, tune.Y, tune.x_q, tune.y_q, 2)[0])
    short = gdpp.optimum(tune.X, tune.Y, tune.x_q, tune.y_q, [0.9 * eta], None, 2)
    assert not short["is_minimum"] and short["loss_eta_plus"] < short["loss"]
    gdpp_check = gdpp.optimum(tune.X, tune.Y, tune.x_q, tune.y_q, [13.5], [0.18], 2)
    assert {"loss_gamma_minus", "loss_gamma_plus"} <= set(gdpp_check)
    assert gdpp_check["loss"] < 0.9 * _loss(tune, eta, 2)              # GD++ beats shared-eta GD


def test_every_analysis_tunes_its_gd_baseline_with_the_one_routine():
    import inspect

    from analysis import deeper_gdpp, prop3_token_building

    for mod in (deeper_gdpp, prop3_token_building):
        assert "gdpp.tune_gd(" in inspect.getsource(mod)
        assert "tune_scalar(" not in inspect.getsource(mod)

