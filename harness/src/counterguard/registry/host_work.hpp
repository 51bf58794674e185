// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a variant's host code uses to make its inputs and check its output in parallel: parallel_for,
// lcg_advance (jump ahead in a linear congruential sequence), splitmix64 and compare_with_reference; in
// kernel sources also fill_elements_on_device and check_elements_on_device (the same work on the GPU). One
// include, so that a kernel source switching to it from verify.hpp keeps its kernels on the same lines
// (recorded profiles and blame name kernel source lines).
#include <mutex>

#include "counterguard/registry/linear_congruential.hpp"
#include "counterguard/registry/parallel_for.hpp"
#include "counterguard/registry/splitmix64.hpp"
#include "counterguard/registry/verify.hpp"
#if defined(__CUDACC__)
#include "counterguard/registry/device_elementwise.cuh"
#endif
