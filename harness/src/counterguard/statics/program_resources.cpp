// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/program_resources.hpp"

#include <set>
#include <string>

#include "counterguard/core/error.hpp"
#include "counterguard/statics/binary_resources.hpp"
#include "counterguard/statics/embedded_resource_report.hpp"

namespace counterguard {
namespace {

std::vector<kernel_resources> collect() {
  std::vector<kernel_resources> kernels = embedded_kernel_resources();
  std::set<std::string> described;
  for (const auto& kernel : kernels)
    described.insert(kernel.mangled);
  try {
    for (auto& kernel : read_binary_kernel_resources("/proc/self/exe")) {
      if (described.count(kernel.mangled) == 0)
        kernels.push_back(std::move(kernel));
    }
  } catch (const input_error&) {
    // No device code of its own (or only PTX): the embedded reports are all there is.
  }
  return kernels;
}

}  // namespace

const std::vector<kernel_resources>& program_kernel_resources() {
  static const std::vector<kernel_resources> kernels = collect();
  return kernels;
}

const std::vector<ptx_only_kernel>& program_ptx_only_kernels() {
  static const std::vector<ptx_only_kernel> kernels = [] {
    try {
      return read_ptx_only_kernels("/proc/self/exe");
    } catch (const input_error&) {
      return std::vector<ptx_only_kernel>{};  // no device code of its own
    }
  }();
  return kernels;
}

}  // namespace counterguard
