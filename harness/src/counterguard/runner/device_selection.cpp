// SPDX-License-Identifier: Apache-2.0
#include "counterguard/runner/device_selection.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdlib>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

bool parse_ordinal(const std::string& text, int& value) {
  if (text.empty() || text.size() > 4 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  value = std::stoi(text);
  return true;
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos)
    return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

device_list parse_device_list(const std::string& text, const std::string& field) {
  device_list devices;
  if (trimmed(text) == "all") {
    devices.all = true;
    return devices;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const std::string item = trimmed(text.substr(start, comma == std::string::npos ? comma : comma - start));
    int ordinal = 0;
    if (!parse_ordinal(item, ordinal))
      throw input_error({}, field, "'" + text + "' is not a device list",
                        "all, or CUDA device ordinals separated by commas (0,1)");
    if (std::find(devices.ordinals.begin(), devices.ordinals.end(), ordinal) != devices.ordinals.end())
      throw input_error({}, field, "device " + item + " is named twice in '" + text + "'",
                        "each device once (one worker per GPU)");
    devices.ordinals.push_back(ordinal);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return devices;
}

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
  int ordinal = 0;
  if (first.rfind("id:", 0) != 0 || !parse_ordinal(first.substr(3, first.find(',') - 3), ordinal)) {
    throw input_error({}, "CTEST_RESOURCE_GROUP_0_GPUS",
                      "ctest assigned the GPU '" + text + "', whose id is not a CUDA device ordinal",
                      "a resource spec file whose gpus ids are ordinals (\"id\": \"0\"); "
                      "tools/write_ctest_resource_spec.sh writes one");
  }
  return ordinal;
}

std::optional<int> ctest_assigned_device() {
  return ctest_assigned_device([](const char* name) { return std::getenv(name); });
}

}  // namespace counterguard
