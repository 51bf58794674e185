// SPDX-License-Identifier: Apache-2.0
#include "counterguard/profiler/driver_gpu_uuids.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

namespace counterguard {

std::vector<std::string> driver_gpu_uuids(const std::string& root) {
  namespace fs = std::filesystem;
  std::vector<std::string> uuids;
  std::error_code status;
  if (!fs::is_directory(root, status))
    return uuids;
  for (const auto& gpu : fs::directory_iterator(root, status)) {
    std::ifstream in(gpu.path() / "information");
    std::string line;
    while (std::getline(in, line)) {
      const std::string key = "GPU UUID:";
      if (line.compare(0, key.size(), key) != 0)
        continue;
      std::string value = line.substr(key.size());
      value.erase(std::remove_if(value.begin(), value.end(), [](unsigned char c) { return std::isspace(c); }),
                  value.end());
      std::transform(value.begin(), value.end(), value.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (value.size() == 40 && value.compare(0, 4, "gpu-") == 0)  // GPU- and 36 characters of hex and dashes
        uuids.push_back("GPU-" + value.substr(4));
    }
  }
  std::sort(uuids.begin(), uuids.end());
  return uuids;
}

}  // namespace counterguard
