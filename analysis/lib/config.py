"""The settings the analyses share, each declared once.

Every analysis of von Oswald et al., "Transformers learn in-context by gradient
descent" (ICML 2023) names its settings in a frozen dataclass `Config`, one
instance per profile (`PROFILES`). The fields several of them need are
declared here, with the value of the paper (§3, Appendix A) or of the official
code (google-research/self-organising-systems, transformers_learn_icl_by_gd)
and a comment that says which; an analysis's `Config` inherits the groups it
uses and adds its own fields:

- `Settings`: the seed every random key is split from (all analyses);
- `Sizes`: the task sizes d and N of §3;
- `Inputs`: the range of the inputs x (the code's U(-0.5, 0.5));
- `Optimiser`: the batch and Adam's betas;
- `Training`: one trained model's steps, learning rate, clip and init;
- `Chunked`: the steps one jitted chunk of training runs.

A subclass changes a default by declaring the field again with its own value.
All fields are keyword-only, so a profile names every setting it changes.
"""
from dataclasses import dataclass

import optax

from analysis.lib import tasks as task_lib, train as train_lib


@dataclass(frozen=True, kw_only=True)
class Settings:
    """What every analysis has: its seed (the runner sets it per training seed)."""

    seed: int = 0                 # every random quantity gets its own key split from it


@dataclass(frozen=True, kw_only=True)
class Sizes(Settings):
    """Task sizes of the linear-regression tasks."""

    d: int = 10                   # input size (paper §3; code input_size = 10)
    N: int = 10                   # context points (paper §3; code dataset_size = 10)


@dataclass(frozen=True, kw_only=True)
class Inputs(Settings):
    """The range of the inputs: x ~ U(-input_range / 2, input_range / 2)."""

    input_range: float = task_lib.CODE_INPUT_RANGE  # U(-0.5, 0.5): the code's range, behind the paper's numbers


@dataclass(frozen=True, kw_only=True)
class Optimiser(Settings):
    """Batch and Adam's betas of the official code."""

    batch_size: int = 2_048       # official notebooks
    b1: float = 0.9               # official code
    b2: float = 0.98              # official code

    def adam(self, lr: float, clip: float, b2: float | None = None) -> optax.GradientTransformation:
        """Global-norm clipping, then Adam with these betas (`b2` for a model trained otherwise)."""
        return train_lib.adam(lr, clip, self.b1, self.b2 if b2 is None else b2)


@dataclass(frozen=True, kw_only=True)
class Training(Optimiser):
    """One trained model: its steps, learning rate, clip, initial scale and evaluation interval.

    The defaults are the official code's one-layer notebook; each analysis
    declares the ones its notebook changes.
    """

    steps: int = 5_000            # official notebook, 1 layer
    lr: float = 1e-3              # official notebooks
    clip: float = 1e-3            # global-norm clip of the 1-layer notebook (the paper says 10)
    init_scale: float = 0.002     # variance scale of the 1-layer notebook: std = sqrt(0.002 / 11)
    eval_every: int = 100         # steps between points of the training curves

    def optimizer(self) -> optax.GradientTransformation:
        """The model's optimiser: `adam` at this learning rate and clip."""
        return self.adam(self.lr, self.clip)


@dataclass(frozen=True, kw_only=True)
class Chunked(Settings):
    """How many training steps one jitted `lax.scan` runs (`analysis.lib.train.train`)."""

    chunk_size: int = 50          # steps per jitted scan; the host draws the next chunk meanwhile
