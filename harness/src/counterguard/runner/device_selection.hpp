// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace counterguard {

// `--devices all|0,1,...`: the GPUs one run spreads its cases over (CUDA device ordinals; parsed where the
// choice is made, pipeline/device_choice.hpp).
struct device_list {
  bool all = false;           // every device the CUDA runtime sees
  std::vector<int> ordinals;  // otherwise these, in the order given
};

// The ordinals 0..count-1 the CUDA runtime reports (cudaGetDeviceCount); empty without a device or driver.
[[nodiscard]] std::vector<int> visible_devices();

// The ordinals a device_list names: `all` asks the CUDA runtime.
[[nodiscard]] std::vector<int> resolve_devices(const device_list& devices);

// The GPU ctest gave this test (`ctest --resource-spec-file`, a test with RESOURCE_GROUPS "gpus:1"): the id
// of the first GPU of resource group 0 (CTEST_RESOURCE_GROUP_0_GPUS="id:1,slots:1"), read as a CUDA ordinal.
// std::nullopt when ctest assigned no GPU (CTEST_RESOURCE_GROUP_COUNT unset, or no "gpus" in group 0). An id
// that is not an ordinal is an input_error (the resource spec file must use ordinals as ids).
using environment_lookup = std::function<const char*(const char*)>;
[[nodiscard]] std::optional<int> ctest_assigned_device(const environment_lookup& lookup);
[[nodiscard]] std::optional<int> ctest_assigned_device();

}  // namespace counterguard
