// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace counterguard {

// What the compiler (ptxas) reports for one kernel function of one translation unit: the "static" metrics.
struct kernel_resources {
  std::string mangled;             // "_ZN12counterguard7kernels9transpose5naiveEPfPKfi"
  std::string function;            // demangled, without return type and parameters
  std::string architecture;        // "sm_90"
  std::string translation_unit;    // "<kernel library>/<source>.cu"
  std::vector<std::string> flags;  // flags that change code generation (-maxrregcount=32, -O3, ...)
  int registers = 0;
  int barriers = 0;
  std::size_t stack_frame_bytes = 0;
  std::size_t spill_store_bytes = 0;
  std::size_t spill_load_bytes = 0;
  bool spill_bytes_known = true;  // false: the binary does not say (both spill fields are then meaningless)
  std::size_t static_shared_bytes = 0;
  std::size_t constant_bytes = 0;  // user constant banks the report names (cmem[N], N > 0)
};

// Parses nvcc --resource-usage / -Xptxas -v output. Lines it does not know are ignored; a function whose
// properties are incomplete is still returned with what was found.
[[nodiscard]] std::vector<kernel_resources> parse_resource_report(const std::string& report,
                                                                  const std::string& translation_unit);

}  // namespace counterguard
