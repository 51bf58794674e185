// SPDX-License-Identifier: Apache-2.0
#pragma once

// Marks a function that kernel sources (nvcc) call on the GPU as well as on the host; plain C++ elsewhere.
#if defined(__CUDACC__)
#define COUNTERGUARD_HOST_DEVICE __host__ __device__
#else
#define COUNTERGUARD_HOST_DEVICE
#endif
