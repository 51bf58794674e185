// SPDX-License-Identifier: Apache-2.0
#include <cmath>
#include <limits>
#include <optional>

#include "counterguard/core/error.hpp"
#include "counterguard/core/input_errors.hpp"
#include "counterguard/core/value_format.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/suite_loader.hpp"

namespace counterguard {
namespace {

double evaluate_finite(const formula& value, const parameter_list& parameters) {
  const double result = value.evaluate(parameters);
  if (!std::isfinite(result)) {
    throw input_error(value.where(), value.field(),
                      "formula '" + value.text() + "' evaluates to " + format_value(result),
                      "the value must be a finite number (check for a division by zero)");
  }
  return result;
}

// A launch dimension or byte count: a whole number in [minimum, maximum].
std::size_t evaluate_count(const formula& value, const parameter_list& parameters, double minimum,
                           double maximum) {
  const double result = evaluate_finite(value, parameters);
  if (result != std::floor(result) || result < minimum || result > maximum) {
    throw input_error(value.where(), value.field(),
                      "'" + value.text() + "' evaluates to " + format_value(result),
                      "give a whole number from " + format_value(minimum) + " to " + format_value(maximum));
  }
  return static_cast<std::size_t>(result);
}

std::array<unsigned, 3> resolve_dimensions(const std::array<formula, 3>& dimensions,
                                           const parameter_list& parameters) {
  constexpr double largest = std::numeric_limits<unsigned>::max();
  std::array<unsigned, 3> result{};
  for (std::size_t i = 0; i < 3; ++i) {
    result[i] = static_cast<unsigned>(evaluate_count(dimensions[i], parameters, 1, largest));
  }
  return result;
}

resolved_launch resolve_launch(const launch_spec& launch, const parameter_list& parameters) {
  resolved_launch result;
  if (launch.block)
    result.block = resolve_dimensions(*launch.block, parameters);
  if (launch.grid)
    result.grid = resolve_dimensions(*launch.grid, parameters);
  if (launch.cluster)
    result.cluster = resolve_dimensions(*launch.cluster, parameters);
  if (launch.dynamic_shared_bytes) {
    result.dynamic_shared_bytes = evaluate_count(*launch.dynamic_shared_bytes, parameters, 0, 4294967295.0);
  }
  return result;
}

void set_parameter(parameter_list& parameters, const std::string& name, const parameter_value& value) {
  for (auto& [existing, current] : parameters) {
    if (existing == name) {
      current = value;
      return;
    }
  }
  parameters.emplace_back(name, value);
}

std::string instance_name(const suite& s, const case_spec& spec, const parameter_list& parameters) {
  std::string name = s.name + "/" + spec.name;
  for (std::size_t i = 0; i < spec.axes.size(); ++i) {
    name += i == 0 ? "?" : ",";
    name += spec.axes[i].name + "=" + find_parameter(parameters, spec.axes[i].name)->to_string();
  }
  return name;
}

// The kernel's declared block size and requirements, for one instance; the error points at the case.
void check_kernel_requirements(const case_spec& spec, const std::string& field,
                               const kernel_signature& kernel, const case_instance& instance) {
  if (instance.launch.has_block()) {
    const std::string violation = kernel.block_size.violation(std::int64_t{instance.launch.block[0]});
    if (!violation.empty()) {
      const source_location where = spec.launch.block ? (*spec.launch.block)[0].where() : spec.where;
      throw input_error(where, field + ".launch.block",
                        "kernel '" + kernel.name + "' takes a block size (x) " +
                            kernel.block_size.describe() + ": " + violation + " (instance '" + instance.name +
                            "')",
                        "give a block size " + kernel.block_size.describe());
    }
  }
  for (const kernel_requirement& requirement : kernel.requirements) {
    if (!requirement.holds(instance.parameters, instance.launch)) {
      throw input_error(spec.where, field,
                        "instance '" + instance.name + "' breaks a requirement of kernel '" + kernel.name +
                            "': " + requirement.description,
                        "change the parameters or launch so that " + requirement.description);
    }
  }
}

case_instance make_instance(const suite& s, const case_spec& spec, const parameter_list& parameters,
                            const metric_catalog& metrics) {
  case_instance instance;
  instance.suite = s.name;
  instance.case_name = spec.name;
  instance.name = instance_name(s, spec, parameters);
  instance.kernel = spec.kernel;
  instance.parameters = parameters;
  instance.skip_reason = spec.skip_reason;
  instance.measured_metrics = spec.measured_metrics;
  instance.suite_path = s.path;
  instance.where = spec.where;
  try {
    instance.launch = resolve_launch(spec.launch, parameters);
    for (const expectation& expected : spec.expectations) {
      instance.expectations.push_back(resolve_expectation(expected, parameters, metrics));
    }
  } catch (const input_error& failure) {
    // The same formula may hold for some axis values and not for others: say which instance failed.
    throw input_error(failure.where(), failure.field(),
                      failure.problem() + " (instance '" + instance.name + "')", failure.valid());
  }
  return instance;
}

}  // namespace

resolved_expectation resolve_expectation(const expectation& spec, const parameter_list& parameters,
                                         const metric_catalog& metrics) {
  resolved_expectation result;
  result.metric = spec.metric;
  result.kind = spec.kind;
  result.tolerance = spec.tolerance.value_or(0.0);
  if (spec.declared_class) {
    result.cls = *spec.declared_class;
  } else {
    const std::optional<metric_definition> definition = metrics.try_resolve(spec.metric);
    if (!definition) {
      throw input_error(spec.where, spec.field.empty() ? "expect." + spec.metric : spec.field,
                        "unknown metric '" + spec.metric + "'",
                        "use an alias from docs/metrics.md or a raw CUPTI name");
    }
    result.cls = definition->cls;
  }
  result.kernel = spec.kernel;
  result.where = spec.where;
  result.field = spec.field;
  const double value = evaluate_finite(spec.value, parameters);
  constexpr double unbounded = std::numeric_limits<double>::infinity();
  switch (spec.kind) {
    case comparison::equals:
      result.lower = result.upper = value;
      result.text = "== " + format_value(value);
      break;
    case comparison::max:
      result.lower = -unbounded;
      result.upper = value;
      result.text = "<= " + format_value(value);
      break;
    case comparison::min:
      result.lower = value;
      result.upper = unbounded;
      result.text = ">= " + format_value(value);
      break;
    case comparison::between:
      result.lower = value;
      result.upper = evaluate_finite(spec.upper, parameters);
      if (result.lower > result.upper) {
        throw input_error(spec.value.where(), spec.value.field(),
                          "lower bound " + format_value(result.lower) + " is above upper bound " +
                              format_value(result.upper),
                          "give [lower, upper] with lower <= upper for every instance");
      }
      result.text = "in [" + format_value(result.lower) + ", " + format_value(result.upper) + "]";
      break;
  }
  return result;
}

std::vector<case_instance> expand_instances(const suite& s, const kernel_catalog& kernels,
                                            const metric_catalog& metrics) {
  std::vector<case_instance> instances;
  input_error_collector errors;
  for (std::size_t index = 0; index < s.cases.size(); ++index) {
    errors.attempt([&] {
      const case_spec& spec = s.cases[index];
      if (spec.select) {  // a case of an unmodified program: one instance, no parameters
        instances.push_back(make_instance(s, spec, {}, metrics));
        instances.back().select = spec.select;
        return;
      }
      const kernel_signature* kernel = kernels.find_signature(spec.kernel);
      if (kernel == nullptr) {
        throw input_error(spec.where, "kernel",
                          "unknown kernel '" + spec.kernel + "' in case '" + spec.name + "'",
                          "register the kernel in this runner");
      }
      parameter_list base;
      for (const parameter_spec& declared : kernel->parameters)
        base.emplace_back(declared.name, declared.default_value);
      for (const auto& [name, value] : spec.parameters)
        set_parameter(base, name, value);

      // An odometer over the axes: the last axis turns fastest, so the first declared axis varies slowest.
      std::vector<std::size_t> position(spec.axes.size(), 0);
      bool done = false;
      for (const axis& a : spec.axes)
        done = done || a.values.empty();
      while (!done) {
        parameter_list parameters = base;
        for (std::size_t i = 0; i < spec.axes.size(); ++i) {
          set_parameter(parameters, spec.axes[i].name, spec.axes[i].values[position[i]]);
        }
        instances.push_back(make_instance(s, spec, parameters, metrics));
        check_kernel_requirements(spec, "cases[" + std::to_string(index) + "]", *kernel, instances.back());
        done = true;
        for (std::size_t i = spec.axes.size(); i-- > 0;) {
          if (++position[i] < spec.axes[i].values.size()) {
            done = false;
            break;
          }
          position[i] = 0;
        }
      }
    });
  }
  errors.throw_if_any();
  return instances;
}

}  // namespace counterguard
