// SPDX-License-Identifier: Apache-2.0
// What the evaluation of a recording and the diagnosis of an empty selection both ask of a case: its progress
// in a process's record, and its selector as messages name it.
#pragma once

#include <string>

#include "counterguard/exec/process_record.hpp"
#include "counterguard/model/case_instance.hpp"

namespace counterguard::detail {

// The record's progress entry of case `name`; null when the process recorded none for it.
[[nodiscard]] inline const case_progress* progress_of(const process_record& record, const std::string& name) {
  for (const auto& progress : record.cases) {
    if (progress.name == name)
      return &progress;
  }
  return nullptr;
}

// The case's selector, described; a case without one selects the NVTX range of its name.
[[nodiscard]] inline std::string selector_text(const case_instance& instance) {
  return instance.select ? instance.select->describe() : "NVTX '" + instance.name + "'";
}

}  // namespace counterguard::detail
