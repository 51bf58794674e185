// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/toolkit_sources.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

namespace counterguard {
namespace {

std::vector<std::string> components_of(const std::string& path) {
  std::vector<std::string> parts;
  for (const auto& part : std::filesystem::path(path).lexically_normal()) {
    const std::string text = part.generic_string();
    if (!text.empty())
      parts.push_back(text);
  }
  return parts;
}

// The path made of parts[0, count): "/" + "usr" + "include" -> "/usr/include".
std::string joined(const std::vector<std::string>& parts, std::size_t count) {
  std::filesystem::path path;
  for (std::size_t i = 0; i < count && i < parts.size(); ++i)
    path /= parts[i];
  return path.generic_string();
}

// Headers only the toolkit ships, by file name. Exact names: a project's own cuda_utils.h must not make its
// directory the toolkit's.
bool toolkit_header(const std::string& name) {
  static const std::set<std::string> names{
      "builtin_types.h",
      "cooperative_groups.h",
      "cuda_awbarrier.h",
      "cuda_awbarrier_primitives.h",
      "cuda_bf16.h",
      "cuda_bf16.hpp",
      "cuda_device_runtime_api.h",
      "cuda_fp16.h",
      "cuda_fp16.hpp",
      "cuda_fp4.h",
      "cuda_fp4.hpp",
      "cuda_fp6.h",
      "cuda_fp6.hpp",
      "cuda_fp8.h",
      "cuda_fp8.hpp",
      "cuda_pipeline.h",
      "cuda_pipeline_primitives.h",
      "cuda_runtime.h",
      "cuda_runtime_api.h",
      "device_atomic_functions.h",
      "device_atomic_functions.hpp",
      "device_double_functions.h",
      "device_double_functions.hpp",
      "device_functions.h",
      "device_functions.hpp",
      "device_launch_parameters.h",
      "host_defines.h",
      "math_functions.h",
      "math_functions.hpp",
      "mma.h",
      "mma.hpp",
      "surface_functions.h",
      "surface_indirect_functions.h",
      "texture_fetch_functions.h",
      "texture_indirect_functions.h",
      "vector_functions.h",
      "vector_functions.hpp",
  };
  static const std::regex architecture_header(R"(sm_[0-9]+_(atomic_functions|intrinsics|rt)\.hpp?)");
  return names.count(name) > 0 || std::regex_match(name, architecture_header);
}

// The toolkit include directory a file's path shows by its layout, or "".
std::string include_dir_by_layout(const std::vector<std::string>& parts) {
  static const std::regex toolkit_root(R"(cuda(-[0-9.]+)?)");
  static const std::set<std::string> library_dirs{"cooperative_groups", "cub", "thrust", "nv", "cccl"};
  for (std::size_t i = 1; i + 1 < parts.size(); ++i) {
    if (parts[i] != "include")
      continue;
    if (i >= 2 && parts[i - 2] == "targets")
      return joined(parts, i + 1);
    if (std::regex_match(parts[i - 1], toolkit_root))
      return joined(parts, i + 1);
    const std::string& next = parts[i + 1];
    if (i + 2 < parts.size() &&
        (library_dirs.count(next) > 0 || (next == "cuda" && (parts[i + 2] == "std" || parts[i + 2] == "__"))))
      return joined(parts, i + 1);
  }
  return "";
}

}  // namespace

std::vector<std::string> toolkit_include_dirs(const std::vector<std::string>& files) {
  std::set<std::string> dirs;
  for (const auto& file : files) {
    const std::vector<std::string> parts = components_of(file);
    if (parts.size() < 2)
      continue;
    if (toolkit_header(parts.back())) {
      const std::size_t directory = parts.size() - 1;
      dirs.insert(joined(parts, parts[directory - 1] == "crt" ? directory - 1 : directory));
    }
    const std::string by_layout = include_dir_by_layout(parts);
    if (!by_layout.empty())
      dirs.insert(by_layout);
  }
  return {dirs.begin(), dirs.end()};
}

bool source_in_directory(const std::string& file, const std::string& directory) {
  const std::vector<std::string> path = components_of(file);
  std::vector<std::string> dir = components_of(directory);
  if (!dir.empty() && dir.back() == ".")
    dir.pop_back();
  if (dir.empty() || path.size() <= dir.size())
    return false;
  const auto directories_end = path.end() - 1;  // the file's own name is not a directory
  if (std::filesystem::path(directory).is_absolute())
    return std::equal(dir.begin(), dir.end(), path.begin());
  return std::search(path.begin(), directories_end, dir.begin(), dir.end()) != directories_end;
}

}  // namespace counterguard
