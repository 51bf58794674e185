# SPDX-License-Identifier: Apache-2.0
"""ncu's kernel filter for `counterguard launch`: the variants' kernels, the ones counterguard profiles, not the
kernels some variants fill their inputs and check their outputs with (counterguard::detail). Imported by the
tools that run ncu over `launch`."""

# The built-in variants' namespace; a user project's tools pass their own (ncu_crosscheck.py --kernel-regex).
BUILTIN_KERNEL_REGEX = "^counterguard::kernels::"


def ncu_kernel_filter(regex=BUILTIN_KERNEL_REGEX):
    """ncu's options that profile only kernels whose demangled name matches `regex`."""
    return ["--kernel-name-base", "demangled", "--kernel-name", "regex:" + regex]
