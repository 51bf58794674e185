// SPDX-License-Identifier: Apache-2.0
#include "counterguard/model/launch_selector.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "counterguard/core/error.hpp"
#include "counterguard/core/json_reader.hpp"

namespace counterguard {
namespace {

constexpr const char* any_ranges = "**";

bool is_gap(const name_pattern& element) {
  return !element.is_regex() && !element.is_exact() && element.text() == any_ranges;
}

// Whether path[p...] matches the stack from position s on: each element one range, a gap any number.
bool path_matches_from(const std::vector<name_pattern>& path, std::size_t p,
                       const std::vector<std::string>& stack, std::size_t s) {
  if (p == path.size())
    return true;  // the launch may be nested deeper than the path names
  if (is_gap(path[p]))
    return path_matches_from(path, p + 1, stack, s) ||
           (s < stack.size() && path_matches_from(path, p, stack, s + 1));
  return s < stack.size() && path[p].matches(stack[s]) && path_matches_from(path, p + 1, stack, s + 1);
}

std::string path_text(const nvtx_selector& selector) {
  std::string text = selector.domain.empty() ? "" : selector.domain + "@";
  for (std::size_t i = 0; i < selector.path.size(); ++i)
    text += std::string(i == 0 ? "" : "/") + (selector.path[i].is_regex() ? "regex:" : "") +
            selector.path[i].text();
  return text;
}

std::string file_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

nlohmann::json pattern_to_json(const name_pattern& pattern) {
  return {{pattern.is_regex() ? "regex" : pattern.is_exact() ? "exact" : "glob", pattern.text()}};
}

name_pattern pattern_from_json(const json_reader& reader, const nlohmann::json& object,
                               const std::string& field) {
  reader.require_object(object, field);
  try {
    if (reader.optional_member(object, field, "regex") != nullptr)
      return name_pattern::regex(reader.string(object, field, "regex"));
  } catch (const std::regex_error& e) {
    reader.fail(field_at(field, "regex"), std::string("is not a valid regular expression: ") + e.what());
  }
  if (reader.optional_member(object, field, "exact") != nullptr)
    return name_pattern::exact(reader.string(object, field, "exact"));
  return name_pattern::glob(reader.string(object, field, "glob"));
}

}  // namespace

bool nvtx_selector::matches(const nvtx_context& context) const {
  if (path.empty())
    return true;
  if (start_end) {
    return std::any_of(context.start_end.begin(), context.start_end.end(),
                       [&](const nvtx_context::open_range& range) {
                         return range.domain == domain && path.front().matches(range.name);
                       });
  }
  const std::vector<std::string>& stack = context.ranges_of(domain);
  for (std::size_t start = 0; start <= stack.size(); ++start) {
    if (path_matches_from(path, 0, stack, start))
      return true;
  }
  return false;
}

std::string nvtx_selector::describe() const {
  return std::string(start_end ? "NVTX start/end range '" : "NVTX '") + path_text(*this) + "'";
}

bool process_selector::matches(const process_identity& process) const {
  if (rank && process.rank != rank)
    return false;
  if (executable && !executable->matches(process.executable) &&
      !executable->matches(file_name(process.executable))) {
    return false;
  }
  return true;
}

bool launch_selector::matches_kernel(const kernel_names& names) const {
  return !kernel || kernel->matches(names.base) || kernel->matches(names.unqualified) ||
         kernel->matches(names.function) || kernel->matches(names.demangled) ||
         kernel->matches(names.mangled);
}

bool launch_selector::matches(const kernel_names& names, const nvtx_context& context) const {
  return matches_kernel(names) && (!nvtx || nvtx->matches(context));
}

std::int64_t launch_selector::profiled_limit() const {
  return launch_count ? std::min(*launch_count, max_launches) : max_launches;
}

std::string launch_selector::describe() const {
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "" : ", ") + part; };
  if (kernel)
    add("kernel " + kernel->describe());
  if (nvtx)
    add("inside " + nvtx->describe());
  if (!kernel && !nvtx)
    add("any kernel");
  if (launch_count && *launch_count == 1) {
    add("launch " + std::to_string(launch_skip));
  } else {
    if (launch_skip > 0)
      add("after " + std::to_string(launch_skip) + " skipped");
    if (launch_count)
      add(std::to_string(*launch_count) + " launches");
  }
  if (process.rank)
    add("rank " + std::to_string(*process.rank));
  if (process.executable)
    add("executable " + process.executable->describe());
  return text;
}

nlohmann::json launch_selector_to_json(const launch_selector& selector) {
  nlohmann::json document{{"launch_skip", selector.launch_skip}, {"max_launches", selector.max_launches}};
  if (selector.kernel)
    document["kernel"] = pattern_to_json(*selector.kernel);
  if (selector.nvtx) {
    nlohmann::json path = nlohmann::json::array();
    for (const auto& element : selector.nvtx->path)
      path.push_back(pattern_to_json(element));
    document["nvtx"] = {{"domain", selector.nvtx->domain},
                        {"path", std::move(path)},
                        {"start_end", selector.nvtx->start_end}};
  }
  if (selector.launch_count)
    document["launch_count"] = *selector.launch_count;
  if (selector.process.rank)
    document["rank"] = *selector.process.rank;
  if (selector.process.executable)
    document["executable"] = pattern_to_json(*selector.process.executable);
  document["where"] = {
      {"file", selector.where.file}, {"line", selector.where.line}, {"column", selector.where.column}};
  return document;
}

launch_selector launch_selector_from_json(const nlohmann::json& document, const std::string& file,
                                          const std::string& field) {
  const json_reader reader(file);
  reader.require_object(document, field);
  launch_selector selector;
  selector.launch_skip = reader.integer(document, field, "launch_skip", 0, INT64_MAX);
  selector.max_launches = reader.integer(document, field, "max_launches", 1, INT64_MAX);
  if (reader.optional_member(document, field, "kernel") != nullptr)
    selector.kernel =
        pattern_from_json(reader, reader.member(document, field, "kernel"), field_at(field, "kernel"));
  if (reader.optional_member(document, field, "nvtx") != nullptr) {
    const std::string nvtx_field = field_at(field, "nvtx");
    const nlohmann::json& nvtx = reader.object(document, field, "nvtx");
    nvtx_selector parsed;
    parsed.domain = reader.string(nvtx, nvtx_field, "domain");
    parsed.start_end = reader.boolean(nvtx, nvtx_field, "start_end");
    const nlohmann::json& path = reader.array(nvtx, nvtx_field, "path");
    for (std::size_t i = 0; i < path.size(); ++i)
      parsed.path.push_back(pattern_from_json(reader, path[i], index_at(field_at(nvtx_field, "path"), i)));
    selector.nvtx = std::move(parsed);
  }
  if (reader.optional_member(document, field, "launch_count") != nullptr)
    selector.launch_count = reader.integer(document, field, "launch_count", 1, INT64_MAX);
  if (reader.optional_member(document, field, "rank") != nullptr)
    selector.process.rank = reader.integer(document, field, "rank", 0, INT64_MAX);
  if (reader.optional_member(document, field, "executable") != nullptr) {
    selector.process.executable = pattern_from_json(reader, reader.member(document, field, "executable"),
                                                    field_at(field, "executable"));
  }
  if (const nlohmann::json* where = reader.optional_member(document, field, "where")) {
    const std::string where_field = field_at(field, "where");
    selector.where.file = reader.string(*where, where_field, "file");
    selector.where.line = static_cast<int>(reader.integer(*where, where_field, "line", 0, INT32_MAX));
    selector.where.column = static_cast<int>(reader.integer(*where, where_field, "column", 0, INT32_MAX));
  }
  return selector;
}

}  // namespace counterguard
