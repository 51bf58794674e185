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

// A list of parameter values; a case's axes expand into the cartesian product of instances.
struct axis {
  std::string name;
  std::vector<parameter_value> values;
  source_location where;
};

// One named kernel variant with its launch, parameters and expectations, as written in a suite.
struct case_spec {
  std::string name;
  std::string kernel;  // a name in the kernel registry, e.g. "transpose/smem"; empty with `select`
  // Instead of a registered variant: which launches of an unmodified program the case measures
  // (`counterguard exec`, docs/exec.md). Such a case has no parameters, axes or launch.
  std::optional<launch_selector> select;
  std::string description;
  parameter_list parameters;  // fixed values (suite defaults, then the case's own)
  std::vector<axis> axes;     // in declared order
  launch_spec launch;
  std::vector<expectation> expectations;
  // `measure:` (the suite's defaults' and the case's own): metrics measured without an expectation, for the
  // per-GPU baselines to judge (what `counterguard record` writes).
  std::vector<std::string> measured_metrics;
  std::optional<std::string> skip_reason;  // `skip: "why"` reports the case as skipped
  source_location where;
};

}  // namespace counterguard
