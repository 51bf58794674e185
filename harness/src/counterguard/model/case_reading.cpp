// SPDX-License-Identifier: Apache-2.0
// Reading one entry of a suite's `cases:` and the suite's `defaults:`.
#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "counterguard/core/input_errors.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/model/launch_selector_parser.hpp"
#include "detail/suite_reading.hpp"
#include "detail/yaml_values.hpp"

namespace counterguard::detail {
namespace {

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

// The entries every case reads alike, a registered kernel's or a program's: the suite's `defaults.measure`
// then its own `measure`, `description`, `skip`, `launch` and `expect`. With `errors`, the problems of
// `launch` and `expect` are collected there; without, the first is thrown.
void read_shared_entries(const load_context& context, const std::vector<yaml_entry>& entries,
                         const std::string& field, const suite_defaults& defaults, case_spec& result,
                         input_error_collector* errors) {
  const yaml_reader& reader = context.reader;
  const auto attempt = [&](const auto& part) {
    if (errors != nullptr)
      errors->attempt(part);
    else
      part();
  };
  add_measured_metrics(result, defaults.measured_metrics);
  for (const yaml_entry& entry : entries) {
    const std::string entry_field = field_at(field, entry.key);
    if (entry.key == "measure") {
      add_measured_metrics(result, read_measured_metrics(context, entry.value, entry_field));
    } else if (entry.key == "description") {
      result.description = reader.scalar(entry.value, entry_field, "a description");
    } else if (entry.key == "launch") {
      attempt([&] { result.launch = read_launch(context, entry.value, entry_field); });
    } else if (entry.key == "skip") {
      result.skip_reason = reader.scalar(entry.value, entry_field, "the reason the case is skipped");
      if (result.skip_reason->empty())
        reader.fail(entry.value, entry_field, "the skip reason is empty", "say why");
    } else if (entry.key == "expect") {
      attempt([&] { read_expectations(context, entry.value, entry_field, result.expectations); });
    }
  }
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
  read_shared_entries(context, entries, field, defaults, result, nullptr);
  return result;
}

// The registered kernel a case names (`kernel:`), which must exist.
const kernel_signature& read_kernel(const load_context& context, const YAML::Node& node,
                                    const std::vector<yaml_entry>& entries, const std::string& field,
                                    case_spec& result) {
  const yaml_reader& reader = context.reader;
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
  return *kernel;
}

// The suite's `defaults.parameters` that the case's kernel declares, marked used.
void apply_default_parameters(const load_context& context, suite_defaults& defaults,
                              const kernel_signature& kernel, case_spec& result) {
  for (default_parameter& parameter : defaults.parameters) {
    const parameter_spec* spec = kernel.find_parameter(parameter.entry.key);
    if (spec == nullptr)
      continue;
    parameter.used = true;
    set_parameter(result.parameters, spec->name,
                  read_parameter_value(context, parameter.entry.value, "defaults.parameters." + spec->name,
                                       kernel, *spec));
  }
}

// The case's `parameters:`; returns the names it sets.
std::vector<std::string> read_own_parameters(const load_context& context,
                                             const std::vector<yaml_entry>& entries, const std::string& field,
                                             const kernel_signature& kernel, case_spec& result,
                                             input_error_collector& errors) {
  std::vector<std::string> own_parameters;
  const yaml_entry* parameters = find_entry(entries, "parameters");
  if (parameters == nullptr)
    return own_parameters;
  const std::string parameters_field = field_at(field, "parameters");
  for (const yaml_entry& parameter : context.reader.map_entries(parameters->value, parameters_field)) {
    errors.attempt([&] {
      const std::string parameter_field = field_at(parameters_field, parameter.key);
      const parameter_spec& spec =
          require_parameter(context, parameter.key_node, parameter_field, kernel, parameter.key);
      own_parameters.push_back(spec.name);
      set_parameter(result.parameters, spec.name,
                    read_parameter_value(context, parameter.value, parameter_field, kernel, spec));
    });
  }
  return own_parameters;
}

// One axis of `axes:`: its values, each once, none of them a parameter the case fixes.
axis read_axis(const load_context& context, const yaml_entry& axis_entry, const std::string& axis_field,
               const kernel_signature& kernel, const std::vector<std::string>& own_parameters) {
  const yaml_reader& reader = context.reader;
  const parameter_spec& spec =
      require_parameter(context, axis_entry.key_node, axis_field, kernel, axis_entry.key);
  if (std::find(own_parameters.begin(), own_parameters.end(), spec.name) != own_parameters.end()) {
    reader.fail(axis_entry.key_node, axis_field,
                "'" + spec.name + "' is both an axis and a fixed parameter of this case",
                "remove it from 'parameters' or from 'axes'");
  }
  axis result_axis{spec.name, {}, reader.where(axis_entry.key_node)};
  const std::vector<YAML::Node> values = reader.sequence(axis_entry.value, axis_field);
  if (values.empty()) {
    reader.fail(axis_entry.value, axis_field, "axis '" + spec.name + "' has no values",
                "give at least one value, e.g. " + spec.name + ": [" + spec.default_value.to_string() + "]");
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    parameter_value value = read_parameter_value(context, values[i], index_at(axis_field, i), kernel, spec);
    if (std::find(result_axis.values.begin(), result_axis.values.end(), value) != result_axis.values.end()) {
      reader.fail(values[i], index_at(axis_field, i),
                  "value " + value.to_string() + " appears twice in axis '" + spec.name + "'",
                  "give each value once");
    }
    result_axis.values.push_back(std::move(value));
  }
  return result_axis;
}

// The case's `axes:`; an axis overrides a suite default of the same name.
void read_axes(const load_context& context, const std::vector<yaml_entry>& entries, const std::string& field,
               const kernel_signature& kernel, const std::vector<std::string>& own_parameters,
               case_spec& result, input_error_collector& errors) {
  const yaml_entry* axes = find_entry(entries, "axes");
  if (axes == nullptr)
    return;
  const std::string axes_field = field_at(field, "axes");
  for (const yaml_entry& axis_entry : context.reader.map_entries(axes->value, axes_field)) {
    errors.attempt([&] {
      axis read =
          read_axis(context, axis_entry, field_at(axes_field, axis_entry.key), kernel, own_parameters);
      result.parameters.erase(
          std::remove_if(result.parameters.begin(), result.parameters.end(),
                         [&](const auto& parameter) { return parameter.first == read.name; }),
          result.parameters.end());
      result.axes.push_back(std::move(read));
    });
  }
}

// An expectation's formula naming no parameter of the kernel fails for every instance: say so as the file
// loads, beside the file's other problems.
void check_expectation_formulas(const kernel_signature& kernel, const case_spec& result,
                                input_error_collector& errors) {
  parameter_list declared;
  for (const parameter_spec& spec : kernel.parameters)
    declared.emplace_back(spec.name, spec.default_value);
  for (const expectation& expected : result.expectations) {
    errors.attempt([&] {
      static_cast<void>(expected.value.evaluate(declared));
      if (expected.kind == comparison::between)
        static_cast<void>(expected.upper.evaluate(declared));
    });
  }
}

}  // namespace

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
  const kernel_signature& kernel = read_kernel(context, node, entries, field, result);
  apply_default_parameters(context, defaults, kernel, result);

  // Past the kernel, the parts of a case are independent: each of their problems is reported.
  input_error_collector errors;
  const std::vector<std::string> own_parameters =
      read_own_parameters(context, entries, field, kernel, result, errors);
  read_axes(context, entries, field, kernel, own_parameters, result, errors);
  read_shared_entries(context, entries, field, defaults, result, &errors);
  check_expectation_formulas(kernel, result, errors);
  errors.throw_if_any();
  apply_launch_defaults(result.launch, defaults.launch);
  return result;
}

}  // namespace counterguard::detail
