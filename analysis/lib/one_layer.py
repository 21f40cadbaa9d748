"""One LSA layer meta-trained as in the official code's one-layer notebook
(von Oswald et al., "Transformers learn in-context by gradient descent", ICML 2023,
§3; google-research/self-organising-systems, transformers_learn_icl_by_gd).

`analysis.single_layer` compares the trained layer with one step of gradient
descent; `analysis.conditioning` reads the models a trained layer implies.
Both train it here, with the settings of a `OneLayer` config.
"""
from dataclasses import dataclass

from analysis.lib import seed_batch, tasks as task_lib, train as train_lib
from analysis.lib.config import Inputs, Sizes, Training


@dataclass(frozen=True, kw_only=True)
class OneLayer(Sizes, Inputs, Training):
    """Tasks and training of one LSA layer; the defaults are the official one-layer notebook's.

    The training runs `eval_every` steps per jitted chunk, so each point of its
    curves ends a chunk.
    """


def sample(config: OneLayer, key, n: int, input_range: float | None = None) -> task_lib.Tasks:
    """n regression tasks of the config's sizes, one output; inputs of `input_range` (default the config's)."""
    r = config.input_range if input_range is None else input_range
    return task_lib.sample_tasks(key, n, config.N, config.d, 1, r)


def train_one_layer(config: OneLayer, key_init, key_train, evaluate=None, progress=None) -> train_lib.Result:
    """Meta-train one LSA layer with the settings of `config`, fresh tasks at every step.

    The training chunk is compiled with the unrolled threefry (`seed_batch.unrolled_threefry`):
    the same bits as JAX's CPU default, drawn about twice as fast.
    """
    loss_fn = train_lib.batch_at_step(train_lib.regression_loss, lambda key, n: sample(config, key, n),
                                      key_train, config.batch_size)
    with seed_batch.unrolled_threefry():
        return train_lib.train(
            train_lib.init_lsa(key_init, config.d + 1, config.init_scale), loss_fn, train_lib.step_indices(),
            steps=config.steps, optimizer=config.optimizer(),
            chunk_size=config.eval_every, evaluate=evaluate, progress=progress)
