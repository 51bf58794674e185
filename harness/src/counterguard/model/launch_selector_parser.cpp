// SPDX-License-Identifier: Apache-2.0
#include "counterguard/model/launch_selector_parser.hpp"

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

constexpr const char* pattern_forms =
    "a name or glob such as 'reduce*', 'regex:^reduce', or a map {regex: '^reduce'} or {glob: 'reduce*'}";
constexpr const char* nvtx_forms =
    "a range path 'outer/inner' (optionally 'Domain@outer/inner'), a list [outer, inner], or a map "
    "{range: ..., domain: ..., kind: push_pop|start_end}";
constexpr const char* regex_prefix = "regex:";

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// A pattern from its text: "regex:..." is a regular expression, anything else a glob. `fail` reports a
// problem at the right place (a YAML node or a command-line flag).
template <typename Fail>
name_pattern pattern_from_text(const std::string& text, const Fail& fail) {
  if (starts_with(text, regex_prefix)) {
    const std::string expression = text.substr(std::string(regex_prefix).size());
    if (expression.empty())
      fail("the regular expression after 'regex:' is empty", pattern_forms);
    try {
      return name_pattern::regex(expression);
    } catch (const std::regex_error& e) {
      fail("'" + expression + "' is not a valid regular expression (" + e.what() + ")",
           "an ECMAScript regular expression such as '^reduce_(sum|max)'");
    }
  }
  if (text.empty())
    fail("the name pattern is empty", pattern_forms);
  return name_pattern::glob(text);
}

name_pattern read_pattern(const yaml_reader& reader, const YAML::Node& node, const std::string& field) {
  const auto fail_at = [&](const YAML::Node& where, const std::string& at) {
    return [&reader, where, at](const std::string& problem, const std::string& valid) {
      reader.fail(where, at, problem, valid);
    };
  };
  if (node.IsMap()) {
    const std::vector<yaml_entry> entries = reader.map_entries(node, field, {"regex", "glob"});
    if (entries.size() != 1)
      reader.fail(node, field, "give exactly one of 'regex' or 'glob'", pattern_forms);
    const yaml_entry& entry = entries.front();
    const std::string at = field_at(field, entry.key);
    const std::string text = reader.scalar(entry.value, at, "a pattern");
    if (text.empty())
      reader.fail(entry.value, at, "the pattern is empty", pattern_forms);
    if (entry.key == "glob")
      return name_pattern::glob(text);
    return pattern_from_text(regex_prefix + text, fail_at(entry.value, at));
  }
  if (!node.IsScalar())
    reader.fail(node, field, "expected a name pattern, got " + describe_node(node), pattern_forms);
  return pattern_from_text(reader.scalar(node, field, "a name pattern"), fail_at(node, field));
}

// "Domain@outer/inner/" -> domain and elements (a trailing '/' is allowed, as ncu writes push/pop ranges).
template <typename Fail>
void split_path(const std::string& text, nvtx_selector& selector, bool read_domain, const Fail& fail) {
  std::string rest = text;
  if (read_domain) {
    const std::size_t at = rest.find('@');
    if (at != std::string::npos && !starts_with(rest, regex_prefix)) {
      selector.domain = rest.substr(0, at);
      rest = rest.substr(at + 1);
      if (selector.domain.empty())
        fail("the NVTX domain before '@' is empty", nvtx_forms);
    }
  }
  if (!rest.empty() && rest.back() == '/')
    rest.pop_back();
  if (rest.empty())
    fail("the NVTX range path is empty", nvtx_forms);
  std::size_t begin = 0;
  while (true) {
    const std::size_t slash = rest.find('/', begin);
    const std::string element =
        rest.substr(begin, slash == std::string::npos ? std::string::npos : slash - begin);
    if (element.empty())
      fail("the NVTX range path '" + text + "' has an empty range name", nvtx_forms);
    selector.path.push_back(pattern_from_text(element, fail));
    if (slash == std::string::npos)
      break;
    begin = slash + 1;
  }
}

void read_nvtx_path(const yaml_reader& reader, const YAML::Node& node, const std::string& field,
                    nvtx_selector& selector, bool read_domain) {
  if (node.IsSequence()) {
    const std::vector<YAML::Node> items = reader.sequence(node, field);
    if (items.empty())
      reader.fail(node, field, "the NVTX range list is empty", nvtx_forms);
    for (std::size_t i = 0; i < items.size(); ++i)
      selector.path.push_back(read_pattern(reader, items[i], index_at(field, i)));
    return;
  }
  if (!node.IsScalar())
    reader.fail(node, field, "expected an NVTX range path, got " + describe_node(node), nvtx_forms);
  split_path(reader.scalar(node, field, "an NVTX range path"), selector, read_domain,
             [&](const std::string& problem, const std::string& valid) {
               reader.fail(node, field, problem, valid);
             });
}

nvtx_selector read_nvtx(const yaml_reader& reader, const YAML::Node& node, const std::string& field) {
  nvtx_selector selector;
  if (!node.IsMap()) {
    read_nvtx_path(reader, node, field, selector, true);
    return selector;
  }
  const std::vector<yaml_entry> entries = reader.map_entries(node, field, {"range", "domain", "kind"});
  const yaml_entry& range = reader.required(node, entries, field, "range", "add range: <outer/inner>");
  for (const yaml_entry& entry : entries) {
    const std::string at = field_at(field, entry.key);
    if (entry.key == "domain") {
      selector.domain = reader.scalar(entry.value, at, "an NVTX domain name");
      if (selector.domain.empty())
        reader.fail(entry.value, at, "the domain name is empty", "leave 'domain' out for the default domain");
    } else if (entry.key == "kind") {
      const std::string kind = reader.scalar(entry.value, at, "a range kind");
      if (kind != "push_pop" && kind != "start_end")
        reader.fail(entry.value, at, "unknown NVTX range kind '" + kind + "'", "push_pop or start_end");
      selector.start_end = kind == "start_end";
    }
  }
  read_nvtx_path(reader, range.value, field_at(field, "range"), selector, false);
  if (selector.start_end && selector.path.size() != 1) {
    reader.fail(range.value, field_at(field, "range"),
                "a start/end range is one name, got a path of " + std::to_string(selector.path.size()),
                "start/end ranges do not nest: give one name (a pattern)");
  }
  return selector;
}

void read_launch(const yaml_reader& reader, const YAML::Node& node, const std::string& field,
                 launch_selector& selector) {
  constexpr const char* valid =
      "an ordinal among the matching launches (0 is the first), or {skip: N, count: M}";
  if (node.IsScalar()) {
    selector.launch_skip = reader.integer(node, field, 0, INT64_MAX);
    selector.launch_count = 1;
    return;
  }
  if (!node.IsMap())
    reader.fail(node, field, "expected a launch ordinal or a map, got " + describe_node(node), valid);
  const std::vector<yaml_entry> entries = reader.map_entries(node, field, {"skip", "count"});
  if (entries.empty())
    reader.fail(node, field, "the launch map is empty", valid);
  for (const yaml_entry& entry : entries) {
    const std::string at = field_at(field, entry.key);
    if (entry.key == "skip")
      selector.launch_skip = reader.integer(entry.value, at, 0, INT64_MAX);
    else
      selector.launch_count = reader.integer(entry.value, at, 1, INT64_MAX);
  }
}

process_selector read_process(const yaml_reader& reader, const YAML::Node& node, const std::string& field) {
  process_selector selector;
  const std::vector<yaml_entry> entries = reader.map_entries(node, field, {"rank", "executable"});
  if (entries.empty()) {
    reader.fail(node, field, "the process map is empty",
                "give rank: N (from OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, SLURM_PROCID or LOCAL_RANK) "
                "and/or executable: <pattern>");
  }
  for (const yaml_entry& entry : entries) {
    const std::string at = field_at(field, entry.key);
    if (entry.key == "rank")
      selector.rank = reader.integer(entry.value, at, 0, INT64_MAX);
    else
      selector.executable = read_pattern(reader, entry.value, at);
  }
  return selector;
}

}  // namespace

launch_selector read_launch_selector(const yaml_reader& reader, const YAML::Node& node,
                                     const std::string& field) {
  launch_selector selector;
  selector.where = reader.where(node);
  if (node.IsScalar()) {
    selector.kernel = read_pattern(reader, node, field);
    return selector;
  }
  if (!node.IsMap()) {
    reader.fail(node, field, "expected a kernel name pattern or a map, got " + describe_node(node),
                "select: \"reduce*\", or a map of kernel, nvtx, launch, max_launches, process");
  }
  const std::vector<yaml_entry> entries =
      reader.map_entries(node, field, {"kernel", "nvtx", "launch", "max_launches", "process"});
  const yaml_entry* max_entry = nullptr;
  for (const yaml_entry& entry : entries) {
    const std::string at = field_at(field, entry.key);
    if (entry.key == "kernel") {
      selector.kernel = read_pattern(reader, entry.value, at);
    } else if (entry.key == "nvtx") {
      selector.nvtx = read_nvtx(reader, entry.value, at);
    } else if (entry.key == "launch") {
      read_launch(reader, entry.value, at, selector);
    } else if (entry.key == "max_launches") {
      selector.max_launches = reader.integer(entry.value, at, 1, INT64_MAX);
      max_entry = &entry;
    } else {
      selector.process = read_process(reader, entry.value, at);
    }
  }
  if (!selector.kernel && !selector.nvtx && selector.launch_skip == 0 && !selector.launch_count) {
    reader.fail(node, field, "the selector selects every launch of every kernel",
                "say which launches: kernel: <pattern>, nvtx: <ranges> and/or launch: <ordinal>");
  }
  if (max_entry != nullptr && selector.launch_count && *selector.launch_count > selector.max_launches) {
    reader.fail(max_entry->value, field_at(field, "max_launches"),
                "is " + std::to_string(selector.max_launches) + ", below launch count " +
                    std::to_string(*selector.launch_count),
                "raise max_launches or lower launch.count");
  }
  if (max_entry == nullptr && selector.launch_count && *selector.launch_count > selector.max_launches)
    selector.max_launches = *selector.launch_count;  // an explicit count is the bound
  return selector;
}

launch_selector selector_from_flags(const selector_flags& flags) {
  launch_selector selector;
  if (!flags.kernel_name.empty()) {
    selector.kernel =
        pattern_from_text(flags.kernel_name, [](const std::string& problem, const std::string& valid) {
          throw input_error({}, "--kernel-name", problem, valid);
        });
  }
  if (!flags.nvtx_include.empty()) {
    nvtx_selector nvtx;
    // ncu: "outer/inner/" names push/pop ranges, "name" without a trailing '/' a start/end range.
    nvtx.start_end = flags.nvtx_include.back() != '/';
    split_path(flags.nvtx_include, nvtx, true, [](const std::string& problem, const std::string& valid) {
      throw input_error({}, "--nvtx-include", problem, valid);
    });
    if (nvtx.start_end && nvtx.path.size() != 1) {
      throw input_error({}, "--nvtx-include",
                        "'" + flags.nvtx_include + "' is a path but has no trailing '/'",
                        "end push/pop range paths with '/' ('outer/inner/'); a start/end range is one name");
    }
    selector.nvtx = std::move(nvtx);
  }
  if (flags.launch_skip < 0)
    throw input_error({}, "--launch-skip", "is negative", "a number of matching launches to let through");
  selector.launch_skip = flags.launch_skip;
  if (flags.launch_count) {
    if (*flags.launch_count < 1)
      throw input_error({}, "--launch-count", "is below 1", "the number of matching launches to profile");
    selector.launch_count = flags.launch_count;
  }
  if (flags.max_launches) {
    if (*flags.max_launches < 1)
      throw input_error({}, "--max-launches", "is below 1", "a bound of at least 1");
    selector.max_launches = *flags.max_launches;
  }
  if (selector.launch_count && *selector.launch_count > selector.max_launches)
    selector.max_launches = *selector.launch_count;
  return selector;
}

}  // namespace counterguard
