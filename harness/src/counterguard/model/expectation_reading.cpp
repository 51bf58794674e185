// SPDX-License-Identifier: Apache-2.0
// Reading a case's `expect:` and `measure:` (and an `expect:` map on its own).
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "counterguard/core/input_errors.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "detail/suite_reading.hpp"
#include "detail/yaml_values.hpp"

namespace counterguard::detail {
namespace {

void check_metric_name(const load_context& context, const YAML::Node& node, const std::string& name,
                       const std::string& field) {
  if (context.metrics.knows(name))
    return;
  context.reader.fail(node, field, metric_catalog::unknown_metric_problem(name),
                      did_you_mean(name, context.metrics.closest_aliases(name)) +
                          "a metric is an alias from docs/metrics.md, one of ncu's launch__ or "
                          "device__attribute_ names listed there, or a raw CUPTI name such as "
                          "'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'");
}

void check_metric_name(const load_context& context, const yaml_entry& entry, const std::string& field) {
  check_metric_name(context, entry.key_node, entry.key, field);
}

}  // namespace

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

void read_expectations(const load_context& context, const YAML::Node& node, const std::string& field,
                       std::vector<expectation>& expectations) {
  input_error_collector errors;
  for (const yaml_entry& metric : context.reader.map_entries(node, field)) {
    errors.attempt(
        [&] { expectations.push_back(read_expectation(context, metric, field_at(field, metric.key))); });
  }
  errors.throw_if_any();
}

}  // namespace counterguard::detail
