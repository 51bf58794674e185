// SPDX-License-Identifier: Apache-2.0
#include "counterguard/measurement/fill_measurements.hpp"

#include <algorithm>
#include <optional>

#include "counterguard/core/error.hpp"
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

// Spill bytes a binary does not record are unknown: the metric stays unmeasured instead of reading 0.
bool has_static_value(const kernel_resources& r, const std::string& field) {
  return r.spill_bytes_known || (field != "spill_store_bytes" && field != "spill_load_bytes");
}

double launch_value(const profiled_launch& l, const std::string& field) {
  if (field == "registers")
    return l.registers_per_thread;
  if (field == "local_bytes_per_thread")
    return static_cast<double>(l.local_bytes_per_thread);
  if (field == "theoretical_occupancy_pct")
    return l.theoretical_occupancy_pct;
  throw internal_error("unknown launch attribute '" + field + "'");
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

// The largest per-kernel value of a metric (static and launch metrics: the worst kernel decides).
void total_as_maximum(case_result& result, const metric_definition& m) {
  bool any = false;
  double best = 0.0;
  for (const auto& kernel : result.kernels) {
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
    const kernel_resources* compiled = find_kernel_resources(resources, launch.function);
    const std::map<std::string, double>* raw = i < ranges.size() ? &ranges[i].values : nullptr;
    for (const auto& m : plan.metrics) {
      if (m.source == metric_source::cupti && raw != nullptr) {
        if (const std::optional<double> value = evaluate_from(m, *raw))
          kernel.metrics[m.name] = *value;
      } else if (m.source == metric_source::launch) {
        kernel.metrics[m.name] = launch_value(launch, m.formula);
      } else if (m.source == metric_source::compiler && compiled != nullptr &&
                 has_static_value(*compiled, m.formula)) {
        kernel.metrics[m.name] = static_value(*compiled, m.formula);
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
