// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/repository_paths.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

namespace counterguard {
namespace {

namespace fs = std::filesystem;

bool is_file(const fs::path& path) {
  std::error_code ignored;
  return fs::is_regular_file(path, ignored);
}

// `path` with "." and ".." resolved and symbolic links followed where the path exists.
fs::path normal_form(const fs::path& path) {
  std::error_code failed;
  fs::path out = fs::weakly_canonical(path, failed);
  return failed ? path.lexically_normal() : out;
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

}  // namespace

repository_paths::repository_paths(const std::string& root)
    : m_root(normal_form(fs::absolute(root)).string()) {}

std::optional<std::string> repository_paths::relative(const std::string& file) const {
  if (file.empty())
    return std::nullopt;
  const fs::path root(m_root);
  const fs::path path = normal_form(fs::absolute(file));
  const fs::path inside = path.lexically_relative(root);
  if (!inside.empty() && *inside.begin() != ".." && is_file(root / inside))
    return inside.generic_string();
  // Another checkout's path: the longest tail that is a file here ("/builds/x/kernels/a.cu" ->
  // "kernels/a.cu").
  std::vector<fs::path> parts(path.begin(), path.end());
  for (std::size_t first = 1; first < parts.size(); ++first) {
    fs::path tail;
    for (std::size_t i = first; i < parts.size(); ++i)
      tail /= parts[i];
    if (is_file(root / tail))
      return tail.generic_string();
  }
  return std::nullopt;
}

std::string line_url(const std::string& url_base, const std::string& path, int line) {
  std::string base = url_base;
  while (!base.empty() && base.back() == '/')
    base.pop_back();
  std::string encoded;  // characters that would end a Markdown link or split a URL
  for (const char c : path) {
    if (c == ' ')
      encoded += "%20";
    else if (c == '(')
      encoded += "%28";
    else if (c == ')')
      encoded += "%29";
    else
      encoded += c;
  }
  return base + "/" + encoded + "#L" + std::to_string(line);
}

std::string find_source_root(const std::string& given) {
  if (!given.empty())
    return given;
  for (const char* variable : {"GITHUB_WORKSPACE", "CI_PROJECT_DIR"}) {
    const std::string value = environment(variable);
    if (!value.empty())
      return value;
  }
  std::error_code failed;
  const fs::path here = fs::current_path(failed);
  if (failed)
    return ".";
  for (fs::path at = here; !at.empty(); at = at.parent_path()) {
    if (fs::exists(at / ".git", failed))
      return at.string();
    if (at == at.parent_path())
      break;
  }
  return here.string();
}

}  // namespace counterguard
