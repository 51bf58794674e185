// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "counterguard/core/device_description.hpp"

namespace counterguard {

// The key that names a baseline directory (baselines/<gpu_key>/<suite>.yaml): chip, SM count and CUDA
// major version, e.g. "GH100-132sm-cuda13". Counters differ between chips, between SKUs of a chip with
// different SM counts (full-device totals), and between CUPTI majors (metric definitions change).
// `cuda_version` is "13.0", "13.0.48" or cudaRuntimeGetVersion's integer as text ("13000").
// Characters outside [A-Za-z0-9_.] in the chip are replaced by '_'; an empty chip or version reads "unknown".
[[nodiscard]] std::string make_gpu_key(const std::string& chip, int sm_count,
                                       const std::string& cuda_version);

// The key of the device a run measured (chip, sm_count, cuda_runtime_version).
[[nodiscard]] std::string make_gpu_key(const device_description& device);

// The major version of "13.0", "13.0.48", "13000" (cudaRuntimeGetVersion) or "13"; -1 when unreadable.
[[nodiscard]] int cuda_major_version(const std::string& version);

}  // namespace counterguard
