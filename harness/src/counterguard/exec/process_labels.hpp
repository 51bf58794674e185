// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "counterguard/model/process_identity.hpp"

namespace counterguard {

// How the result of a case measured in several processes names each of them, as parameters of the instance:
// "suite/case?rank=1". A process with a rank is labelled by it; processes without one (or sharing one) get
// "process=<executable>.<n>", numbered in the order they started; a case measured in one process without
// a rank keeps its plain name.
struct process_label {
  std::vector<std::pair<std::string, std::string>> parameters;  // ("rank", "1"), ("process", "app.2")
  // "?rank=1" or "" when the label is empty; appended to the instance name.
  [[nodiscard]] std::string suffix() const;
  // The instance name with the label: "s/c?rank=1", or "s/c?n=2,rank=1" when the name has parameters.
  [[nodiscard]] std::string applied_to(const std::string& name) const;
};

// One label per process, in the order given; different processes always get different labels.
[[nodiscard]] std::vector<process_label> label_processes(const std::vector<process_identity>& processes);

}  // namespace counterguard
