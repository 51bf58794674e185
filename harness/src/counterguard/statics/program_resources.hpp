// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/statics/binary_resources.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// The static resources of every kernel in this program: the compile-time reports embedded by
// counterguard_add_kernels / counterguard_link_kernels first (they carry the compiler flags), then, for
// kernels no report describes (a user library compiled as usual, with no counterguard launcher), what this
// program's own cubins say (read_binary_resources on /proc/self/exe). Read once per process.
[[nodiscard]] const std::vector<kernel_resources>& program_kernel_resources();

// The kernels this program holds only as PTX (read_ptx_only_kernels on /proc/self/exe), which therefore have
// no resources: what explains a kernel missing from program_kernel_resources() in a `90-virtual` build.
[[nodiscard]] const std::vector<ptx_only_kernel>& program_ptx_only_kernels();

}  // namespace counterguard
