// SPDX-License-Identifier: Apache-2.0
#include "counterguard/measurement/fill_measurements.hpp"

#include <algorithm>
#include <optional>

#include "counterguard/core/error.hpp"
#include "counterguard/measurement/ncu_launch_values.hpp"
#include "counterguard/metrics/derived_metric.hpp"

namespace counterguard {
namespace {

double static_value(const kernel_resources& r, const std::string& field) {
  if (field == "registers")
    return r.registers;
  if (field == "spill_store_bytes")
    return static_cast<double>(r.spill_store_bytes);
  if (field == "spill_load_bytes")
    return static_cast<double>(r.spill_load_bytes);
  if (field == "stack_frame_bytes")
    return static_cast<double>(r.stack_frame_bytes);
  if (field == "static_shared_bytes")
    return static_cast<double>(r.static_shared_bytes);
  if (field == "constant_bytes")
    return static_cast<double>(r.constant_bytes);
  if (field == "barriers")
    return r.barriers;
  throw internal_error("unknown compiler resource field '" + field + "'");
}

// Spill bytes a binary does not record, and the spills and barriers of a function known only from what the
// driver states of it, are unknown: the metric stays unmeasured instead of reading 0.
bool has_static_value(const kernel_resources& r, const std::string& field) {
  if (field == "spill_store_bytes" || field == "spill_load_bytes")
    return r.spill_bytes_known;
  if (field == "barriers")
    return r.barriers_known;
  return true;
}

// Why a launch has no value for a static metric.
std::string why_no_static_value(const profiled_launch& launch, const kernel_resources* code) {
  if (code != nullptr)
    return code->unknown_because.empty() ? "the binary does not record it" : code->unknown_because;
  if (!launch.code.empty())
    return "the recording holds no resources for its code (" + launch.code + ")";
  return "no binary or loaded module describes '" + launch.function + "'";
}

bool has_all(const std::vector<std::string>& inputs, const std::map<std::string, double>& raw) {
  return std::all_of(inputs.begin(), inputs.end(),
                     [&](const std::string& input) { return raw.count(input) != 0; });
}

// The metric's value from these raw counters, if they hold its inputs (or, in a recording made before the
// metric read them, the inputs it read then). A counter the recording lacks (an expectation added after it)
// leaves the metric unmeasured: the checker reports it as missing instead of the whole evaluation failing.
std::optional<double> evaluate_from(const metric_definition& m, const std::map<std::string, double>& raw) {
  if (has_all(m.raw_inputs, raw))
    return evaluate_derived_metric(m, raw);
  if (m.raw_inputs_before.empty() || !has_all(m.raw_inputs_before, raw))
    return std::nullopt;
  metric_definition before = m;
  before.formula = m.formula_before;
  before.raw_inputs = m.raw_inputs_before;
  return evaluate_derived_metric(before, raw);
}

void set_total(case_result& result, const metric_definition& m, double value) {
  result.totals[m.name] = metric_value{value, m.cls};
}

// The largest per-kernel value of a metric (static and launch metrics: the worst kernel decides); none when a
// launch could not be given the metric (the worst might be that one).
void total_as_maximum(case_result& result, const metric_definition& m) {
  bool any = false;
  double best = 0.0;
  for (const auto& kernel : result.kernels) {
    if (kernel.unmeasured.count(m.name) != 0)
      return;
    const auto found = kernel.metrics.find(m.name);
    if (found == kernel.metrics.end())
      continue;
    best = any ? std::max(best, found->second) : found->second;
    any = true;
  }
  if (any)
    set_total(result, m, best);
}

}  // namespace

const kernel_resources* find_kernel_resources(const std::vector<kernel_resources>& resources,
                                              const std::string& function) {
  const auto found = std::find_if(resources.begin(), resources.end(),
                                  [&](const kernel_resources& r) { return r.function == function; });
  return found == resources.end() ? nullptr : &*found;
}

const kernel_resources* find_launched_code(const std::vector<kernel_resources>& resources,
                                           const profiled_launch& launch) {
  if (launch.code.empty())
    return find_kernel_resources(resources, launch.function);
  // The launch names its function's own code: never another module's function of the same name.
  const auto own = std::find_if(resources.begin(), resources.end(), [&](const kernel_resources& r) {
    return r.module == launch.code && r.mangled == launch.mangled;
  });
  if (own != resources.end() && own->spill_bytes_known)
    return &*own;
  // Without that code's cubin (run and evaluate measure with the program's compile-time reports; a module
  // loaded before profiling began has what the driver states): the program's report of that function when it
  // agrees with what the driver stated of the launched one (the same registers and static shared bytes, a
  // stack frame its local bytes hold: the same code).
  const auto reported = std::find_if(resources.begin(), resources.end(), [&](const kernel_resources& r) {
    return r.module.empty() && (r.mangled == launch.mangled || r.function == launch.function) &&
           r.registers == launch.registers_per_thread &&
           r.stack_frame_bytes <= launch.local_bytes_per_thread &&
           r.static_shared_bytes == launch.static_shared_bytes;
  });
  if (reported != resources.end())
    return &*reported;
  return own == resources.end() ? nullptr : &*own;
}

void fill_measurements(case_result& result, const metric_plan& plan,
                       const std::vector<profiled_launch>& launches,
                       const std::vector<evaluated_range>& ranges,
                       const std::vector<kernel_resources>& resources,
                       const std::map<std::string, double>& kernel_metrics) {
  result.kernels.clear();
  result.totals.clear();
  std::map<std::string, double> summed_raw;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const profiled_launch& launch = launches[i];
    kernel_measurement kernel;
    kernel.function = launch.function;
    kernel.mangled = launch.mangled;
    kernel.launch_index = static_cast<int>(i);
    const kernel_resources* compiled = find_launched_code(resources, launch);
    const std::map<std::string, double>* raw = i < ranges.size() ? &ranges[i].values : nullptr;
    for (const auto& m : plan.metrics) {
      if (m.source == metric_source::cupti && raw != nullptr) {
        if (const std::optional<double> value = evaluate_from(m, *raw))
          kernel.metrics[m.name] = *value;
      } else if (m.source == metric_source::launch) {
        if (const std::optional<double> value = launch_metric_value(launch, m.formula, compiled))
          kernel.metrics[m.name] = *value;
        else
          kernel.unmeasured[m.name] = why_no_launch_value(launch, m.formula, compiled);
      } else if (m.source == metric_source::compiler) {
        if (compiled != nullptr && has_static_value(*compiled, m.formula))
          kernel.metrics[m.name] = static_value(*compiled, m.formula);
        else if (compiled != nullptr || !launch.code.empty())
          kernel.unmeasured[m.name] = why_no_static_value(launch, compiled);
      }
    }
    if (raw != nullptr) {
      for (const auto& [name, value] : *raw)
        summed_raw[name] += value;
    }
    result.kernels.push_back(std::move(kernel));
  }

  for (const auto& m : plan.metrics) {
    if (const auto own = kernel_metrics.find(m.name); own != kernel_metrics.end()) {
      set_total(result, m, own->second);
    } else if (m.source != metric_source::cupti) {
      total_as_maximum(result, m);
    } else if (result.kernels.size() == 1) {
      const auto& metrics = result.kernels.front().metrics;
      if (const auto found = metrics.find(m.name); found != metrics.end())
        set_total(result, m, found->second);
    } else if (m.summable && !ranges.empty()) {
      if (const std::optional<double> value = evaluate_from(m, summed_raw))
        set_total(result, m, *value);
    }
  }
}

void fill_static_measurements(case_result& result, const metric_plan& plan,
                              const std::vector<std::string>& device_functions,
                              const std::vector<kernel_resources>& resources) {
  result.kernels.clear();
  result.totals.clear();
  for (std::size_t i = 0; i < device_functions.size(); ++i) {
    kernel_measurement kernel;
    kernel.function = device_functions[i];
    kernel.launch_index = static_cast<int>(i);
    if (const kernel_resources* compiled = find_kernel_resources(resources, device_functions[i])) {
      kernel.mangled = compiled->mangled;
      for (const auto& m : plan.metrics) {
        if (m.source == metric_source::compiler && has_static_value(*compiled, m.formula))
          kernel.metrics[m.name] = static_value(*compiled, m.formula);
      }
    }
    result.kernels.push_back(std::move(kernel));
  }
  for (const auto& m : plan.metrics) {
    if (m.source == metric_source::compiler)
      total_as_maximum(result, m);
  }
}

}  // namespace counterguard
