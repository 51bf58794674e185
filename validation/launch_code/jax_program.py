# SPDX-License-Identifier: Apache-2.0
"""A plain JAX program: jitted steps over several shapes (XLA compiles and autotunes variants of its fusions,
several with one kernel name). It knows nothing of counterguard and checks its own results."""
import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402


@jax.jit
def step(x, w):
    y = jnp.tanh(x @ w)
    return (y.T * 2.0).sum(axis=0), jnp.transpose(y) + 1.0, jnp.max(y, axis=1)


def main():
    key = jax.random.PRNGKey(0)
    for n in (128, 384, 1024, 2048):
        x = jax.random.normal(key, (n, n), dtype=jnp.float32) / n
        w = jnp.eye(n, dtype=jnp.float32)
        sums, shifted, peaks = step(x, w)
        shifted.block_until_ready()
        expected = jnp.tanh(x)
        assert jnp.allclose(sums, (expected.T * 2.0).sum(axis=0), atol=1e-3), n
        assert jnp.allclose(peaks, expected.max(axis=1), atol=1e-5), n
        print(f"n = {n}: ok")


if __name__ == "__main__":
    main()
