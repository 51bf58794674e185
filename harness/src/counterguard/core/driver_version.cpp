// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/driver_version.hpp"

#include <fstream>
#include <regex>

namespace counterguard {

std::string nvidia_driver_release() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  std::getline(in, line);
  static const std::regex release(R"(Kernel Module\s+(?:for \S+\s+)?([0-9]+\.[0-9.]+))");
  std::smatch match;
  return std::regex_search(line, match, release) ? match[1].str() : std::string();
}

std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::string driver_description(int cuda_driver_version) {
  const std::string release = nvidia_driver_release();
  const std::string cuda = "CUDA " + cuda_version_text(cuda_driver_version);
  return release.empty() ? cuda : release + " (" + cuda + ")";
}

}  // namespace counterguard
