"""A toy analysis that compiles with JAX: a few small jitted programs to compile and keep."""

from tests.support.toy import analysis

JAX_TOY = analysis(doc="A small jitted computation: a few programs to compile and keep.", head='''
    import jax
    import jax.numpy as jnp


    @jax.jit
    def _mix(x):
        return jnp.tanh(x @ x.T) * jnp.sin(x).sum()  # (n, n)
    ''', fields="seed: int = 0\nn: int = 8", profiles='{"quick": Config(), "paper": Config(n=16)}', body='''
    x = jax.random.normal(jax.random.key(config.seed), (config.n, config.n))  # (n, n)
    y = _mix(x)
    return {"metrics": {"total": y.sum(), "row": y[0], "corner": y[-1, -1]}}
    ''')
