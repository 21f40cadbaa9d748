"""A toy analysis that compiles with JAX: a few small jitted programs to compile and keep."""

JAX_TOY = '''
"""A small jitted computation: a few programs to compile and keep."""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class Config:
    seed: int = 0
    n: int = 8


PROFILES = {"quick": Config(), "paper": Config(n=16)}


@jax.jit
def _mix(x):
    return jnp.tanh(x @ x.T) * jnp.sin(x).sum()  # (n, n)


def run(config, progress=None):
    x = jax.random.normal(jax.random.key(config.seed), (config.n, config.n))  # (n, n)
    y = _mix(x)
    return {"metrics": {"total": y.sum(), "row": y[0], "corner": y[-1, -1]}}
'''
