// SPDX-License-Identifier: Apache-2.0
#include "counterguard/planning/raw_metric_name_check.hpp"

#include "counterguard/core/error.hpp"
#include "counterguard/core/input_errors.hpp"
#include "counterguard/core/name_suggestions.hpp"

namespace counterguard {

void raw_metric_name_check::check(const case_instance& instance) {
  input_error_collector errors;
  for (const auto& expectation : instance.expectations) {
    const metric_definition definition = m_catalog.resolve(expectation.metric);
    for (const auto& raw : definition.raw_inputs) {
      auto [verdict, inserted] = m_verdicts.emplace(raw, false);
      if (inserted)
        verdict->second = m_validator.is_valid(raw);
      if (verdict->second)
        continue;
      const std::string& chip = m_validator.chip();
      errors.add(input_error(
          expectation.where, expectation.field.empty() ? "expect." + expectation.metric : expectation.field,
          definition.name != raw
              ? "alias needs CUPTI metric '" + raw + "', which chip " + chip + " does not have"
              : "no CUPTI metric of this name on chip " + chip,
          "did you mean: " + comma_list(m_validator.suggestions(raw)) +
              " (`counterguard metrics list --chip " + chip + " --raw` lists them all)"));
    }
  }
  errors.throw_if_any();
}

}  // namespace counterguard
