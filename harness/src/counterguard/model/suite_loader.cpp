// SPDX-License-Identifier: Apache-2.0
#include "counterguard/model/suite_loader.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "counterguard/core/error.hpp"
#include "counterguard/core/input_errors.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/core/yaml_reader.hpp"
#include "detail/suite_files.hpp"
#include "detail/suite_reading.hpp"

namespace counterguard {

namespace detail {

bool is_valid_name(const std::string& name) {
  if (name.empty())
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
  });
}

}  // namespace detail

namespace {

using detail::default_parameter;
using detail::is_valid_name;
using detail::load_context;
using detail::name_charset;
using detail::parse_documents;
using detail::read_case;
using detail::read_defaults;
using detail::read_expectation;
using detail::read_suite_document;
using detail::suite_defaults;
using detail::suite_files;
using detail::yaml_failure;

suite read_suite(const load_context& context, const YAML::Node& root) {
  const yaml_reader& reader = context.reader;
  constexpr const char* shape = "a suite is a map with 'suite: <name>' and 'cases:' (see docs/schema.md)";
  if (!root.IsMap())
    reader.fail(root, "", "the document is " + describe_node(root) + ", not a map", shape);
  const std::vector<yaml_entry> entries =
      reader.map_entries(root, "", {"suite", "description", "defaults", "cases"});

  suite result;
  result.path = reader.file();
  const yaml_entry* name = find_entry(entries, "suite");
  if (name == nullptr)
    reader.fail(root, "suite", "missing required field 'suite'", "add suite: <name>");
  result.name = reader.scalar(name->value, "suite", "a suite name");
  if (!is_valid_name(result.name)) {
    reader.fail(name->value, "suite", "invalid suite name '" + result.name + "'", name_charset);
  }
  if (const yaml_entry* description = find_entry(entries, "description")) {
    result.description = reader.scalar(description->value, "description", "a description");
  }
  suite_defaults defaults;
  if (const yaml_entry* defaults_entry = find_entry(entries, "defaults")) {
    defaults = read_defaults(context, defaults_entry->value);
  }

  const yaml_entry* cases = find_entry(entries, "cases");
  if (cases == nullptr)
    reader.fail(root, "cases", "missing required field 'cases'", "add cases: with at least one case");
  const std::vector<YAML::Node> case_nodes = reader.sequence(cases->value, "cases");
  if (case_nodes.empty())
    reader.fail(cases->value, "cases", "the suite has no cases", "add at least one case");
  // Each case is read on its own: the problems of every case are reported together.
  input_error_collector errors;
  for (std::size_t i = 0; i < case_nodes.size(); ++i) {
    errors.attempt([&] {
      const std::string field = index_at("cases", i);
      if (!case_nodes[i].IsMap()) {
        reader.fail(case_nodes[i], field, "a case must be a map, got " + describe_node(case_nodes[i]),
                    "write a case as '- name: <name>' followed by 'kernel:', 'expect:' ... lines");
      }
      case_spec spec = read_case(context, case_nodes[i], field, defaults);
      for (const case_spec& earlier : result.cases) {
        if (earlier.name == spec.name) {
          reader.fail(case_nodes[i]["name"], field_at(field, "name"),
                      "duplicate case name '" + spec.name + "'",
                      "it is already used at line " + std::to_string(earlier.where.line) +
                          "; case names must be unique within a suite");
        }
      }
      result.cases.push_back(std::move(spec));
    });
  }
  if (!errors.empty()) {
    errors.throw_if_any();  // a case that failed may have used a default: the check below would mislead
  }

  for (const default_parameter& parameter : defaults.parameters) {
    if (parameter.used)
      continue;
    std::vector<std::string> names;
    for (const case_spec& spec : result.cases) {
      if (spec.select)
        continue;
      for (const auto& declared : context.kernels.find_signature(spec.kernel)->parameters) {
        if (std::find(names.begin(), names.end(), declared.name) == names.end())
          names.push_back(declared.name);
      }
    }
    reader.fail(
        parameter.entry.key_node, "defaults.parameters." + parameter.entry.key,
        "no kernel of this suite declares parameter '" + parameter.entry.key + "'",
        did_you_mean(parameter.entry.key, closest_names(parameter.entry.key, names, 1)) +
            "the suite's kernels declare: " + (names.empty() ? std::string("nothing") : quoted_list(names)));
  }
  return result;
}

// Expectations read on their own (parse_expectations) name no kernel.
class no_kernels : public kernel_catalog {
 public:
  [[nodiscard]] const kernel_signature* find_signature(const std::string&) const override { return nullptr; }
  [[nodiscard]] std::vector<std::string> kernel_names() const override { return {}; }
};

}  // namespace

suite load_suite(const std::string& path, const kernel_catalog& kernels, const metric_catalog& metrics) {
  const YAML::Node document = read_suite_document(path);
  const load_context context{yaml_reader(path), kernels, metrics};
  try {
    return read_suite(context, document);
  } catch (const YAML::Exception& failure) {  // a node access read_suite's checks did not foresee
    throw yaml_failure(path, failure, "", "malformed suite: ", "see docs/schema.md for the suite format");
  }
}

namespace {

// Loads every file, each on its own (a file's problems do not hide the next file's), and hands each suite
// that loads to `use`; throws every problem of every file together.
template <class Use>
void load_each_suite(const std::vector<std::string>& paths, const kernel_catalog& kernels,
                     const metric_catalog& metrics, Use&& use) {
  std::vector<std::pair<std::string, std::string>> names;  // suite name, file
  input_error_collector errors;
  for (const std::string& file : suite_files(paths)) {
    errors.attempt([&] {
      suite next = load_suite(file, kernels, metrics);
      for (const auto& [name, path] : names) {
        if (name == next.name) {
          throw input_error({file, 0, 0}, "suite", "suite name '" + next.name + "' is also used by " + path,
                            "suite names must be unique among the files loaded together");
        }
      }
      names.emplace_back(next.name, file);
      use(std::move(next));
    });
  }
  errors.throw_if_any();
}

}  // namespace

std::vector<suite> load_suites(const std::vector<std::string>& paths, const kernel_catalog& kernels,
                               const metric_catalog& metrics) {
  std::vector<suite> suites;
  load_each_suite(paths, kernels, metrics, [&](suite s) { suites.push_back(std::move(s)); });
  return suites;
}

std::vector<case_instance> load_suite_instances(const std::vector<std::string>& paths,
                                                const kernel_catalog& kernels,
                                                const metric_catalog& metrics) {
  std::vector<case_instance> instances;
  load_each_suite(paths, kernels, metrics, [&](const suite& s) {
    for (auto& instance : expand_instances(s, kernels, metrics))
      instances.push_back(std::move(instance));
  });
  return instances;
}

std::vector<expectation> parse_expectations(const std::string& text, const std::string& origin,
                                            const metric_catalog& metrics) {
  const std::vector<YAML::Node> documents = parse_documents(origin, text);
  const no_kernels kernels;
  const load_context context{yaml_reader(origin), kernels, metrics};
  std::vector<expectation> result;
  if (documents.empty() || documents[0].IsNull())
    return result;
  try {
    for (const yaml_entry& metric : context.reader.map_entries(documents[0], "expect"))
      result.push_back(read_expectation(context, metric, field_at("expect", metric.key)));
  } catch (const YAML::Exception& failure) {
    throw yaml_failure(origin, failure, "expect",
                       "malformed expectations: ", "see docs/schema.md, \"Expectations\"");
  }
  return result;
}

}  // namespace counterguard
