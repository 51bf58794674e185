// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// A translation unit's compiler resource report compiled into the runner (cmake/embed_resource_reports.cmake
// generates one of these per kernel object), so `counterguard static` needs neither a GPU nor a build folder.
class embedded_resource_report {
 public:
  embedded_resource_report(const char* translation_unit, const char* report);
};

// Every kernel function of every embedded report.
[[nodiscard]] const std::vector<kernel_resources>& embedded_kernel_resources();

}  // namespace counterguard
