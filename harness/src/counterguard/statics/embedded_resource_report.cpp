// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/embedded_resource_report.hpp"

namespace counterguard {
namespace {

std::vector<kernel_resources>& embedded_storage() {
  static std::vector<kernel_resources> kernels;
  return kernels;
}

}  // namespace

embedded_resource_report::embedded_resource_report(const char* translation_unit, const char* report) {
  for (auto& kernel : parse_resource_report(report, translation_unit))
    embedded_storage().push_back(std::move(kernel));
}

const std::vector<kernel_resources>& embedded_kernel_resources() {
  return embedded_storage();
}

}  // namespace counterguard
