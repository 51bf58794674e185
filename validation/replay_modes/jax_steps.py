# SPDX-License-Identifier: Apache-2.0
"""A JAX program as a user writes it: default preallocation (75% of the GPU), a jitted step run STEPS times,
each step in the NVTX range "step" (through cupy's nvtx, or none when cupy is missing).

    python3 jax_steps.py [STEPS]
"""
import sys
import time

import jax
import jax.numpy as jnp

try:
    from cupy.cuda import nvtx
except ImportError:  # the selection is then by kernel name alone
    nvtx = None

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 40
key = jax.random.PRNGKey(0)
x = jax.random.normal(key, (4096, 4096), dtype=jnp.float32)


@jax.jit
def step(a):
    return jnp.tanh(a @ a.T * 1e-3) + a


started = time.perf_counter()
for _ in range(steps):
    if nvtx:
        nvtx.RangePush("step")
    x = step(x)
    x.block_until_ready()
    if nvtx:
        nvtx.RangePop()
print(f"jax_steps: {steps} steps in {time.perf_counter() - started:.2f} s, checksum {float(x.sum()):.6e}")
