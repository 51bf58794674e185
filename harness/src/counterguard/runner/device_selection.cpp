// SPDX-License-Identifier: Apache-2.0
#include "counterguard/runner/device_selection.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>

#include "counterguard/core/decimal_digits.hpp"
#include "counterguard/core/error.hpp"

namespace counterguard {

std::vector<int> visible_devices() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    return {};
  }
  std::vector<int> ordinals;
  ordinals.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i)
    ordinals.push_back(i);
  return ordinals;
}

std::vector<int> resolve_devices(const device_list& devices) {
  return devices.all ? visible_devices() : devices.ordinals;
}

std::optional<int> ctest_assigned_device(const environment_lookup& lookup) {
  const char* count = lookup("CTEST_RESOURCE_GROUP_COUNT");
  if (count == nullptr || *count == '\0')
    return std::nullopt;
  const char* gpus = lookup("CTEST_RESOURCE_GROUP_0_GPUS");
  if (gpus == nullptr || *gpus == '\0')
    return std::nullopt;
  // "id:<id>,slots:<n>", several separated by ';' when the group asked for more than one GPU.
  const std::string text = gpus;
  const std::string first = text.substr(0, text.find(';'));
  const std::optional<int> ordinal = first.rfind("id:", 0) == 0
                                         ? parse_decimal_digits(first.substr(3, first.find(',') - 3), 4)
                                         : std::nullopt;
  if (!ordinal) {
    throw input_error({}, "CTEST_RESOURCE_GROUP_0_GPUS",
                      "ctest assigned the GPU '" + text + "', whose id is not a CUDA device ordinal",
                      "a resource spec file whose gpus ids are ordinals (\"id\": \"0\"); "
                      "tools/write_ctest_resource_spec.sh writes one");
  }
  return *ordinal;
}

std::optional<int> ctest_assigned_device() {
  return ctest_assigned_device([](const char* name) { return std::getenv(name); });
}

}  // namespace counterguard
