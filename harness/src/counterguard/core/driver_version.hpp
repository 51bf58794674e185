// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard {

// The kernel driver's release ("580.159.04"), which cudaDriverGetVersion/cuDriverGetVersion do not give (they
// report the CUDA API level, "13.0"); empty where /proc does not say.
[[nodiscard]] std::string nvidia_driver_release();
// A CUDA version number as text: 13000 -> "13.0".
[[nodiscard]] std::string cuda_version_text(int version);
// What results metadata calls the driver: "580.159.04 (CUDA 13.0)", or "CUDA 13.0" without the release.
[[nodiscard]] std::string driver_description(int cuda_driver_version);

}  // namespace counterguard
