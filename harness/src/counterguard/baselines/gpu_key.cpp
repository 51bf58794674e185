// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/gpu_key.hpp"

#include <cctype>

namespace counterguard {

int cuda_major_version(const std::string& version) {
  std::size_t digits = 0;
  while (digits < version.size() && std::isdigit(static_cast<unsigned char>(version[digits])))
    ++digits;
  if (digits == 0 || digits > 9)
    return -1;
  if (digits != version.size() && version[digits] != '.')
    return -1;
  const int number = std::stoi(version.substr(0, digits));
  // cudaRuntimeGetVersion: 1000 * major + 10 * minor.
  if (digits == version.size() && number >= 1000)
    return number / 1000;
  return number;
}

std::string make_gpu_key(const std::string& chip, int sm_count, const std::string& cuda_version) {
  std::string key = chip.empty() ? "unknown" : chip;
  for (char& c : key) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.')
      c = '_';
  }
  key += "-" + std::to_string(sm_count) + "sm";
  const int major = cuda_major_version(cuda_version);
  key += major < 0 ? std::string("-cudaunknown") : "-cuda" + std::to_string(major);
  return key;
}

std::string make_gpu_key(const device_description& device) {
  return make_gpu_key(device.chip, device.sm_count, device.cuda_runtime_version);
}

}  // namespace counterguard
