// SPDX-License-Identifier: Apache-2.0
#pragma once
// counterguard's API for your own kernels: register kernel variants (COUNTERGUARD_KERNEL), describe their
// parameters, inputs and outputs, verify their results against a reference, and own device buffers, with the
// CUDA error check they use. The GoogleTest API (counterguard::profile) is <counterguard/gtest/profile.hpp>:
// it needs GoogleTest, which this header does not. docs/user-kernels.md walks through both.

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/registry/array_kernel.hpp"
#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/input_fill.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/registry/verify.hpp"
#include "counterguard/version.hpp"
