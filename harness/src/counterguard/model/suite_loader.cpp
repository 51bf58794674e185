// SPDX-License-Identifier: Apache-2.0
#include "counterguard/model/suite_loader.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "counterguard/core/error.hpp"
#include "counterguard/core/input_errors.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/core/yaml_reader.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/launch_selector_parser.hpp"
#include "detail/yaml_values.hpp"

namespace counterguard {
namespace {

using detail::read_formula;
using detail::read_parameter_scalar;

constexpr const char* name_charset = "names use letters, digits, '_', '.' and '-'";

bool is_valid_name(const std::string& name) {
  if (name.empty())
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
  });
}

std::string declared_parameters(const kernel_signature& kernel) {
  if (kernel.parameters.empty())
    return "kernel '" + kernel.name + "' declares no parameters";
  std::string text = "kernel '" + kernel.name + "' declares ";
  bool first = true;
  for (const auto& spec : kernel.parameters) {
    if (!first)
      text += ", ";
    first = false;
    text += spec.name + " (" + spec.default_value.type_name() + ")";
  }
  return text;
}

// Everything the parts of one file need to report errors and look names up.
struct load_context {
  yaml_reader reader;
  const kernel_catalog& kernels;
  const metric_catalog& metrics;
};

// A YAML scalar as a value of the kernel parameter's type, within the range the kernel declares for it.
// Integers are accepted for real-valued parameters (and stored as reals); any scalar's text is accepted for
// a string parameter.
parameter_value read_parameter_value(const load_context& context, const YAML::Node& node,
                                     const std::string& field, const kernel_signature& kernel,
                                     const parameter_spec& spec) {
  const parameter_value& model = spec.default_value;
  parameter_value value;
  if (model.is_string()) {
    value = parameter_value(context.reader.scalar(node, field, "a string"));
  } else {
    value = read_parameter_scalar(context.reader, node, field, std::string("a ") + model.type_name());
    const std::string problem_prefix =
        "kernel '" + kernel.name + "' declares parameter '" + spec.name + "' as ";
    if (model.is_integer() && !value.is_integer()) {
      context.reader.fail(
          node, field, problem_prefix + "an integer, got " + value.type_name() + " '" + node.Scalar() + "'",
          "give a whole number such as " + model.to_string());
    }
    if (!value.is_number()) {
      context.reader.fail(node, field, problem_prefix + "a number, got string '" + node.Scalar() + "'",
                          "give a number such as " + model.to_string());
    }
    if (!model.is_integer())
      value = parameter_value(value.as_double());
  }
  const std::string violation = spec.allowed.violation(value);
  if (!violation.empty()) {
    context.reader.fail(node, field,
                        "parameter '" + spec.name + "' of kernel '" + kernel.name + "': " + violation,
                        "give " + spec.allowed.describe());
  }
  return value;
}

const parameter_spec& require_parameter(const load_context& context, const YAML::Node& key_node,
                                        const std::string& field, const kernel_signature& kernel,
                                        const std::string& name) {
  if (const parameter_spec* spec = kernel.find_parameter(name))
    return *spec;
  std::vector<std::string> names;
  for (const auto& spec : kernel.parameters)
    names.push_back(spec.name);
  context.reader.fail(key_node, field, "kernel '" + kernel.name + "' has no parameter '" + name + "'",
                      did_you_mean(name, closest_names(name, names, 1)) + declared_parameters(kernel));
}

void set_parameter(parameter_list& parameters, const std::string& name, parameter_value value) {
  for (auto& [existing, current] : parameters) {
    if (existing == name) {
      current = std::move(value);
      return;
    }
  }
  parameters.emplace_back(name, std::move(value));
}

std::array<formula, 3> read_dimensions(const load_context& context, const YAML::Node& node,
                                       const std::string& field) {
  constexpr const char* valid =
      "give one to three dimensions: 256, [32, 8] or [32, 8, 1] (numbers or formulas)";
  std::array<formula, 3> dimensions{formula(1.0), formula(1.0), formula(1.0)};
  if (node.IsScalar()) {
    dimensions[0] = read_formula(context.reader, node, field);
    return dimensions;
  }
  if (!node.IsSequence()) {
    context.reader.fail(node, field,
                        "expected a dimension or a list of dimensions, got " + describe_node(node), valid);
  }
  const std::vector<YAML::Node> items = context.reader.sequence(node, field);
  if (items.empty() || items.size() > 3) {
    context.reader.fail(node, field, "expected 1 to 3 dimensions, got " + std::to_string(items.size()),
                        valid);
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    dimensions[i] = read_formula(context.reader, items[i], index_at(field, i));
  }
  return dimensions;
}

launch_spec read_launch(const load_context& context, const YAML::Node& node, const std::string& field) {
  launch_spec launch;
  for (const yaml_entry& entry :
       context.reader.map_entries(node, field, {"block", "grid", "cluster", "dynamic_shared_bytes"})) {
    const std::string entry_field = field_at(field, entry.key);
    if (entry.key == "block")
      launch.block = read_dimensions(context, entry.value, entry_field);
    if (entry.key == "grid")
      launch.grid = read_dimensions(context, entry.value, entry_field);
    if (entry.key == "cluster")
      launch.cluster = read_dimensions(context, entry.value, entry_field);
    if (entry.key == "dynamic_shared_bytes") {
      launch.dynamic_shared_bytes = read_formula(context.reader, entry.value, entry_field);
    }
  }
  return launch;
}

// The case's own launch fields win; the suite's defaults fill the ones it leaves out.
void apply_launch_defaults(launch_spec& launch, const launch_spec& defaults) {
  if (!launch.block)
    launch.block = defaults.block;
  if (!launch.grid)
    launch.grid = defaults.grid;
  if (!launch.cluster)
    launch.cluster = defaults.cluster;
  if (!launch.dynamic_shared_bytes)
    launch.dynamic_shared_bytes = defaults.dynamic_shared_bytes;
}

void check_metric_name(const load_context& context, const YAML::Node& node, const std::string& name,
                       const std::string& field) {
  if (context.metrics.knows(name))
    return;
  context.reader.fail(node, field, "unknown metric '" + name + "'",
                      did_you_mean(name, context.metrics.closest_aliases(name)) +
                          "a metric is an alias from docs/metrics.md, one of ncu's launch__ or "
                          "device__attribute_ names listed there, or a raw CUPTI name such as "
                          "'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'");
}

void check_metric_name(const load_context& context, const yaml_entry& entry, const std::string& field) {
  check_metric_name(context, entry.key_node, entry.key, field);
}

// `measure: [metric, ...]`: metrics measured for the baselines alone, each once.
std::vector<std::string> read_measured_metrics(const load_context& context, const YAML::Node& node,
                                               const std::string& field) {
  std::vector<std::string> metrics;
  const std::vector<YAML::Node> items = context.reader.sequence(node, field);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string item_field = index_at(field, i);
    std::string name = context.reader.scalar(items[i], item_field, "a metric name");
    check_metric_name(context, items[i], name, item_field);
    if (std::find(metrics.begin(), metrics.end(), name) != metrics.end())
      context.reader.fail(items[i], item_field, "metric '" + name + "' is listed twice", "list it once");
    metrics.push_back(std::move(name));
  }
  return metrics;
}

// The suite's `defaults.measure` first, then the case's own (each metric once).
void add_measured_metrics(case_spec& result, const std::vector<std::string>& metrics) {
  for (const auto& metric : metrics) {
    if (std::find(result.measured_metrics.begin(), result.measured_metrics.end(), metric) ==
        result.measured_metrics.end())
      result.measured_metrics.push_back(metric);
  }
}

expectation read_expectation(const load_context& context, const yaml_entry& entry, const std::string& field) {
  constexpr const char* one_comparison = "give exactly one of equals, max, min or between";
  const yaml_reader& reader = context.reader;
  check_metric_name(context, entry, field);
  expectation result;
  result.metric = entry.key;
  result.where = reader.where(entry.key_node);
  result.field = field;
  if (entry.value.IsScalar()) {  // `metric: 0` is short for `metric: {equals: 0}`
    result.value = read_formula(reader, entry.value, field);
    return result;
  }
  if (!entry.value.IsMap()) {
    reader.fail(entry.value, field, "expected a value or a map, got " + describe_node(entry.value),
                "e.g. 'spill_store_bytes: 0' or 'global_load_sectors_per_request: {between: [4, 5]}'");
  }
  const yaml_entry* comparison_entry = nullptr;
  for (const yaml_entry& part : reader.map_entries(
           entry.value, field, {"equals", "max", "min", "between", "tolerance", "class", "kernel"})) {
    const std::string part_field = field_at(field, part.key);
    const bool is_comparison =
        part.key == "equals" || part.key == "max" || part.key == "min" || part.key == "between";
    if (is_comparison) {
      if (comparison_entry != nullptr) {
        reader.fail(part.key_node, part_field,
                    "both '" + comparison_entry->key + "' and '" + part.key + "' are given", one_comparison);
      }
      comparison_entry = &part;
    }
    if (part.key == "equals" || part.key == "max" || part.key == "min") {
      result.kind = part.key == "equals" ? comparison::equals
                    : part.key == "max"  ? comparison::max
                                         : comparison::min;
      result.value = read_formula(reader, part.value, part_field);
    } else if (part.key == "between") {
      result.kind = comparison::between;
      if (!part.value.IsSequence() || part.value.size() != 2) {
        const std::string got = part.value.IsSequence() ? std::to_string(part.value.size()) +
                                                              (part.value.size() == 1 ? " value" : " values")
                                                        : describe_node(part.value);
        reader.fail(part.value, part_field, "between needs exactly 2 values, got " + got,
                    "give [lower, upper], e.g. between: [4, 5]");
      }
      result.value = read_formula(reader, part.value[0], index_at(part_field, 0));
      result.upper = read_formula(reader, part.value[1], index_at(part_field, 1));
      if (result.value.is_constant() && result.upper.is_constant() &&
          result.value.evaluate({}) > result.upper.evaluate({})) {
        reader.fail(part.value, part_field,
                    "lower bound " + result.value.text() + " is above upper bound " + result.upper.text(),
                    "give [lower, upper] with lower <= upper");
      }
    } else if (part.key == "tolerance") {
      const parameter_value tolerance = read_parameter_scalar(reader, part.value, part_field, "a number");
      if (!tolerance.is_number() || !std::isfinite(tolerance.as_double()) || tolerance.as_double() < 0) {
        reader.fail(part.value, part_field,
                    "tolerance must be a number >= 0, got '" + part.value.Scalar() + "'",
                    "a tolerance is relative: 0.05 allows 5%");
      }
      result.tolerance = tolerance.as_double();
    } else if (part.key == "class") {
      const std::string text = reader.scalar(part.value, part_field, "a metric class");
      result.declared_class = parse_metric_class(text);
      if (!result.declared_class) {
        reader.fail(part.value, part_field, "unknown metric class '" + text + "'",
                    "valid classes: static, exact, noisy");
      }
    } else if (part.key == "kernel") {
      result.kernel = reader.scalar(part.value, part_field, "a device function name");
      if (result.kernel.empty())
        reader.fail(part.value, part_field, "the kernel name is empty");
    }
  }
  if (comparison_entry == nullptr) {
    reader.fail(entry.value, field, "no comparison for metric '" + entry.key + "'", one_comparison);
  }
  return result;
}

// Every metric of an `expect:` map; the problems of all of them, not only the first.
void read_expectations(const load_context& context, const YAML::Node& node, const std::string& field,
                       std::vector<expectation>& expectations) {
  input_error_collector errors;
  for (const yaml_entry& metric : context.reader.map_entries(node, field)) {
    errors.attempt(
        [&] { expectations.push_back(read_expectation(context, metric, field_at(field, metric.key))); });
  }
  errors.throw_if_any();
}

// A `defaults.parameters` entry, applied to each case whose kernel declares it.
struct default_parameter {
  yaml_entry entry;
  bool used = false;
};

struct suite_defaults {
  std::vector<default_parameter> parameters;
  launch_spec launch;
  std::vector<std::string> measured_metrics;
};

suite_defaults read_defaults(const load_context& context, const YAML::Node& node) {
  suite_defaults defaults;
  for (const yaml_entry& entry :
       context.reader.map_entries(node, "defaults", {"parameters", "launch", "measure"})) {
    if (entry.key == "measure") {
      defaults.measured_metrics = read_measured_metrics(context, entry.value, "defaults.measure");
    } else if (entry.key == "parameters") {
      for (const yaml_entry& parameter : context.reader.map_entries(entry.value, "defaults.parameters")) {
        defaults.parameters.push_back({parameter, false});
      }
    } else {
      defaults.launch = read_launch(context, entry.value, "defaults.launch");
    }
  }
  return defaults;
}

// A case of an unmodified program (`counterguard exec`): `select:` says which launches it measures, in place
// of a registered kernel with parameters, axes and a launch configuration.
case_spec read_selecting_case(const load_context& context, const std::vector<yaml_entry>& entries,
                              const std::string& field, const yaml_entry& select,
                              const suite_defaults& defaults, case_spec result) {
  const yaml_reader& reader = context.reader;
  for (const char* registered_only : {"kernel", "parameters", "axes", "launch"}) {
    if (const yaml_entry* entry = find_entry(entries, registered_only)) {
      reader.fail(entry->key_node, field_at(field, entry->key),
                  "'" + entry->key + "' belongs to registered kernel variants, this case has 'select'",
                  "a case either names a registered kernel (kernel:, for `counterguard run`) or selects "
                  "launches of a program (select:, for `counterguard exec`)");
    }
  }
  result.select = read_launch_selector(reader, select.value, field_at(field, "select"));
  add_measured_metrics(result, defaults.measured_metrics);
  for (const yaml_entry& entry : entries) {
    const std::string entry_field = field_at(field, entry.key);
    if (entry.key == "measure") {
      add_measured_metrics(result, read_measured_metrics(context, entry.value, entry_field));
    } else if (entry.key == "description") {
      result.description = reader.scalar(entry.value, entry_field, "a description");
    } else if (entry.key == "skip") {
      result.skip_reason = reader.scalar(entry.value, entry_field, "the reason the case is skipped");
      if (result.skip_reason->empty())
        reader.fail(entry.value, entry_field, "the skip reason is empty", "say why");
    } else if (entry.key == "expect") {
      read_expectations(context, entry.value, entry_field, result.expectations);
    }
  }
  return result;
}

case_spec read_case(const load_context& context, const YAML::Node& node, const std::string& field,
                    suite_defaults& defaults) {
  const yaml_reader& reader = context.reader;
  const std::vector<yaml_entry> entries =
      reader.map_entries(node, field,
                         {"name", "kernel", "description", "parameters", "axes", "launch", "skip", "expect",
                          "measure", "select"});
  case_spec result;
  result.where = reader.where(node);

  const yaml_entry* name = find_entry(entries, "name");
  if (name == nullptr)
    reader.fail(node, field_at(field, "name"), "missing required field 'name'", "add name: <case name>");
  result.name = reader.scalar(name->value, field_at(field, "name"), "a case name");
  if (!is_valid_name(result.name)) {
    reader.fail(name->value, field_at(field, "name"), "invalid case name '" + result.name + "'",
                name_charset);
  }

  if (const yaml_entry* select = find_entry(entries, "select"))
    return read_selecting_case(context, entries, field, *select, defaults, std::move(result));
  const yaml_entry* kernel_entry = find_entry(entries, "kernel");
  if (kernel_entry == nullptr) {
    reader.fail(node, field_at(field, "kernel"), "missing required field 'kernel'",
                "add kernel: <registered kernel name>, or select: <launches> for `counterguard exec`");
  }
  result.kernel = reader.scalar(kernel_entry->value, field_at(field, "kernel"), "a kernel name");
  const kernel_signature* kernel = context.kernels.find_signature(result.kernel);
  if (kernel == nullptr) {
    const std::vector<std::string> registered = context.kernels.kernel_names();
    reader.fail(kernel_entry->value, field_at(field, "kernel"), "unknown kernel '" + result.kernel + "'",
                registered.empty()
                    ? std::string("no kernels are registered in this runner")
                    : did_you_mean(result.kernel, closest_names(result.kernel, registered, 3)) +
                          "registered kernels: " + quoted_list(registered));
  }

  for (default_parameter& parameter : defaults.parameters) {
    const parameter_spec* spec = kernel->find_parameter(parameter.entry.key);
    if (spec == nullptr)
      continue;
    parameter.used = true;
    set_parameter(result.parameters, spec->name,
                  read_parameter_value(context, parameter.entry.value, "defaults.parameters." + spec->name,
                                       *kernel, *spec));
  }

  // Past the kernel, the parts of a case are independent: each of their problems is reported.
  input_error_collector errors;
  std::vector<std::string> own_parameters;
  if (const yaml_entry* parameters = find_entry(entries, "parameters")) {
    const std::string parameters_field = field_at(field, "parameters");
    for (const yaml_entry& parameter : reader.map_entries(parameters->value, parameters_field)) {
      errors.attempt([&] {
        const std::string parameter_field = field_at(parameters_field, parameter.key);
        const parameter_spec& spec =
            require_parameter(context, parameter.key_node, parameter_field, *kernel, parameter.key);
        own_parameters.push_back(spec.name);
        set_parameter(result.parameters, spec.name,
                      read_parameter_value(context, parameter.value, parameter_field, *kernel, spec));
      });
    }
  }

  if (const yaml_entry* axes = find_entry(entries, "axes")) {
    const std::string axes_field = field_at(field, "axes");
    for (const yaml_entry& axis_entry : reader.map_entries(axes->value, axes_field)) {
      errors.attempt([&] {
        const std::string axis_field = field_at(axes_field, axis_entry.key);
        const parameter_spec& spec =
            require_parameter(context, axis_entry.key_node, axis_field, *kernel, axis_entry.key);
        if (std::find(own_parameters.begin(), own_parameters.end(), spec.name) != own_parameters.end()) {
          reader.fail(axis_entry.key_node, axis_field,
                      "'" + spec.name + "' is both an axis and a fixed parameter of this case",
                      "remove it from 'parameters' or from 'axes'");
        }
        axis result_axis{spec.name, {}, reader.where(axis_entry.key_node)};
        const std::vector<YAML::Node> values = reader.sequence(axis_entry.value, axis_field);
        if (values.empty()) {
          reader.fail(
              axis_entry.value, axis_field, "axis '" + spec.name + "' has no values",
              "give at least one value, e.g. " + spec.name + ": [" + spec.default_value.to_string() + "]");
        }
        for (std::size_t i = 0; i < values.size(); ++i) {
          parameter_value value =
              read_parameter_value(context, values[i], index_at(axis_field, i), *kernel, spec);
          if (std::find(result_axis.values.begin(), result_axis.values.end(), value) !=
              result_axis.values.end()) {
            reader.fail(values[i], index_at(axis_field, i),
                        "value " + value.to_string() + " appears twice in axis '" + spec.name + "'",
                        "give each value once");
          }
          result_axis.values.push_back(std::move(value));
        }
        // An axis overrides a suite default of the same name.
        result.parameters.erase(
            std::remove_if(result.parameters.begin(), result.parameters.end(),
                           [&](const auto& parameter) { return parameter.first == spec.name; }),
            result.parameters.end());
        result.axes.push_back(std::move(result_axis));
      });
    }
  }

  add_measured_metrics(result, defaults.measured_metrics);
  for (const yaml_entry& entry : entries) {
    const std::string entry_field = field_at(field, entry.key);
    if (entry.key == "measure") {
      add_measured_metrics(result, read_measured_metrics(context, entry.value, entry_field));
    } else if (entry.key == "description") {
      result.description = reader.scalar(entry.value, entry_field, "a description");
    } else if (entry.key == "launch") {
      errors.attempt([&] { result.launch = read_launch(context, entry.value, entry_field); });
    } else if (entry.key == "skip") {
      result.skip_reason = reader.scalar(entry.value, entry_field, "the reason the case is skipped");
      if (result.skip_reason->empty())
        reader.fail(entry.value, entry_field, "the skip reason is empty", "say why");
    } else if (entry.key == "expect") {
      errors.attempt([&] { read_expectations(context, entry.value, entry_field, result.expectations); });
    }
  }
  // An expectation's formula naming no parameter of the kernel fails for every instance: say so as the file
  // loads, beside the file's other problems.
  parameter_list declared;
  for (const parameter_spec& spec : kernel->parameters)
    declared.emplace_back(spec.name, spec.default_value);
  for (const expectation& expected : result.expectations) {
    errors.attempt([&] {
      static_cast<void>(expected.value.evaluate(declared));
      if (expected.kind == comparison::between)
        static_cast<void>(expected.upper.evaluate(declared));
    });
  }
  errors.throw_if_any();
  apply_launch_defaults(result.launch, defaults.launch);
  return result;
}

std::string read_file(const std::string& path) {
  const source_location where{path, 0, 0};
  std::error_code status;
  if (!std::filesystem::exists(path, status)) {
    throw input_error(where, "", "no such file", "give the path of a suite file (*.yaml)");
  }
  if (std::filesystem::is_directory(path, status)) {
    throw input_error(where, "", "is a directory, not a suite file",
                      "give the path of a suite file (*.yaml)");
  }
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream text;
  text << stream.rdbuf();
  if (!stream || stream.bad())
    throw input_error(where, "", "cannot read the file", "check that it is readable");
  return text.str();
}

std::vector<YAML::Node> parse_documents(const std::string& path, const std::string& text) {
  try {
    return YAML::LoadAll(text);
  } catch (const YAML::Exception& failure) {
    source_location where{path, 0, 0};
    if (!failure.mark.is_null())
      where = {path, failure.mark.line + 1, failure.mark.column + 1};
    throw input_error(where, "", "YAML syntax error: " + failure.msg,
                      "see docs/schema.md for the suite format");
  }
}

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
  const std::string text = read_file(path);
  const std::vector<YAML::Node> documents = parse_documents(path, text);
  const load_context context{yaml_reader(path), kernels, metrics};
  if (documents.empty() || documents[0].IsNull()) {
    throw input_error({path, 0, 0}, "", "the file holds no suite (it is empty)",
                      "a suite is a map with 'suite: <name>' and 'cases:' (see docs/schema.md)");
  }
  if (documents.size() > 1) {
    context.reader.fail(documents[1], "",
                        "the file holds " + std::to_string(documents.size()) + " YAML documents",
                        "put one suite in each file");
  }
  try {
    return read_suite(context, documents[0]);
  } catch (const YAML::Exception& failure) {  // a node access the checks above did not foresee
    source_location where{path, 0, 0};
    if (!failure.mark.is_null())
      where = {path, failure.mark.line + 1, failure.mark.column + 1};
    throw input_error(where, "", "malformed suite: " + failure.msg,
                      "see docs/schema.md for the suite format");
  }
}

namespace {

// The suite files `paths` name: files as they are, directories as their *.yaml files in name order, each
// once.
std::vector<std::string> suite_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  input_error_collector errors;
  for (const std::string& path : paths) {
    std::error_code status;
    if (!std::filesystem::exists(path, status)) {
      errors.add(input_error({path, 0, 0}, "", "no such file or directory",
                             "give suite files (*.yaml) or directories that hold them"));
      continue;
    }
    if (!std::filesystem::is_directory(path, status)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::filesystem::path> found;
    for (const auto& item : std::filesystem::directory_iterator(path)) {
      if (item.is_regular_file() && item.path().extension() == ".yaml")
        found.push_back(item.path());
    }
    if (found.empty()) {
      errors.add(input_error({path, 0, 0}, "", "the directory holds no *.yaml files",
                             "give suite files (*.yaml) or directories that hold them"));
      continue;
    }
    std::sort(found.begin(), found.end(),
              [](const auto& a, const auto& b) { return a.filename() < b.filename(); });
    for (const auto& file : found)
      files.push_back(file.string());
  }
  errors.throw_if_any();
  std::vector<std::string> unique;
  std::vector<std::filesystem::path> seen;
  for (const std::string& file : files) {
    std::error_code status;
    std::filesystem::path canonical = std::filesystem::weakly_canonical(file, status);
    if (status)
      canonical = file;
    if (std::find(seen.begin(), seen.end(), canonical) != seen.end())
      continue;  // named twice
    seen.push_back(canonical);
    unique.push_back(file);
  }
  return unique;
}

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
    source_location where{origin, 0, 0};
    if (!failure.mark.is_null())
      where = {origin, failure.mark.line + 1, failure.mark.column + 1};
    throw input_error(where, "expect", "malformed expectations: " + failure.msg,
                      "see docs/schema.md, \"Expectations\"");
  }
  return result;
}

}  // namespace counterguard
