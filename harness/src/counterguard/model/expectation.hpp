// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>

#include "counterguard/core/source_location.hpp"
#include "counterguard/metrics/metric_class.hpp"
#include "counterguard/model/formula.hpp"

namespace counterguard {

enum class comparison { equals, max, min, between };

// What a case states about one metric, as written in the YAML:
//   shared_store_bank_conflicts: {equals: "31 * n * n / 32"}
//   global_load_sectors_per_request: {between: [4, 5], kernel: vec_add}
struct expectation {
  std::string metric;  // an alias from the metric catalog or a raw CUPTI name
  comparison kind = comparison::equals;
  formula value;                               // equals / max / min, or the lower bound of between
  formula upper;                               // upper bound of between
  std::optional<double> tolerance;             // relative (0.05 = 5%); none: exact for equals
  std::optional<metric_class> declared_class;  // overrides the catalog's class for raw names
  std::string kernel;                          // a device function name; empty = the case as a whole
  source_location where;
  std::string field;  // its path in the file, as errors name it: "cases[1].expect.shared_load_bank_conflicts"
};

// An expectation evaluated for one case instance.
struct resolved_expectation {
  std::string metric;
  comparison kind = comparison::equals;
  double lower = 0.0;  // equals: the value; min: the bound; between: lower bound; max: -infinity
  double upper = 0.0;  // equals: the value; max: the bound; between: upper bound; min: +infinity
  double tolerance = 0.0;
  metric_class cls = metric_class::exact;
  std::string kernel;
  std::string text;  // how it reads in reports: "== 4063232", "<= 0", "in [4, 5]"
  source_location where;
  std::string field;  // as expectation::field
};

}  // namespace counterguard
