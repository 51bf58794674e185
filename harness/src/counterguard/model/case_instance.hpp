// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "counterguard/core/source_location.hpp"
#include "counterguard/model/expectation.hpp"
#include "counterguard/model/launch_selector.hpp"
#include "counterguard/model/launch_spec.hpp"
#include "counterguard/model/parameter_value.hpp"

namespace counterguard {

// A case with every axis fixed to one value: what the runner profiles and the checker judges.
struct case_instance {
  std::string suite;
  std::string case_name;
  std::string name;  // "transpose/smem?pad=1,n=2048" (axes in declared order), or "suite/case" without axes
  std::string kernel;
  std::optional<launch_selector> select;  // a case of an unmodified program (`counterguard exec`)
  parameter_list parameters;              // all of them, axis values included, kernel defaults filled in
  resolved_launch launch;
  std::vector<resolved_expectation> expectations;
  std::vector<std::string> measured_metrics;  // `measure:`: measured for the baselines, no expectation
  std::optional<std::string> skip_reason;
  std::string suite_path;
  source_location where;  // the case's definition in the suite file (shared by all its instances)
};

}  // namespace counterguard
