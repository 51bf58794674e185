// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/model/case_spec.hpp"

namespace counterguard {

// One YAML file: a named list of cases.
struct suite {
  std::string name;
  std::string description;
  std::string path;
  std::vector<case_spec> cases;
};

}  // namespace counterguard
