// SPDX-License-Identifier: Apache-2.0
#include "counterguard/metrics/derived_metric.hpp"

#include <muParser.h>

#include <cmath>
#include <vector>

#include "counterguard/core/error.hpp"

namespace counterguard {

double evaluate_derived_metric(const metric_definition& definition,
                               const std::map<std::string, double>& raw_values) {
  if (definition.raw_inputs.size() == 1 && definition.formula == definition.raw_inputs.front()) {
    const auto found = raw_values.find(definition.formula);
    if (found == raw_values.end())
      throw internal_error("metric input '" + definition.formula + "' was not measured");
    return found->second;
  }
  mu::Parser parser;
  // CUPTI names contain dots ("smsp__inst_executed.sum").
  parser.DefineNameChars("0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.");
  std::vector<double> inputs(definition.raw_inputs.size());
  for (std::size_t i = 0; i < definition.raw_inputs.size(); ++i) {
    const auto found = raw_values.find(definition.raw_inputs[i]);
    if (found == raw_values.end()) {
      throw internal_error("metric '" + definition.name + "' needs '" + definition.raw_inputs[i] +
                           "', which was not measured");
    }
    // A counter CUPTI could not evaluate stays NaN: never let it pass as a zero.
    if (std::isnan(found->second))
      return found->second;
    inputs[i] = found->second;
    parser.DefineVar(definition.raw_inputs[i], &inputs[i]);
  }
  parser.SetExpr(definition.formula);
  const double value = parser.Eval();
  // A ratio over zero requests means there was nothing to measure, not an infinite cost.
  return std::isfinite(value) ? value : 0.0;
}

}  // namespace counterguard
