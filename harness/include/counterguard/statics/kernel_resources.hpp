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
  bool barriers_known = true;      // false: what describes the function does not say (see unknown_because)
  // In a process: the module the function was loaded from ("module 24", CUPTI's id, unique in the process),
  // or for a function whose module's image was not seen, "function 0x...": the key a launch of it names
  // (profiled_launch::code). Empty for resources read from files.
  std::string module;
  // Why some values are unknown (spill bytes, barriers): said with the metrics left unmeasured.
  std::string unknown_because;
};

// Parses nvcc --resource-usage / -Xptxas -v output. Lines it does not know are ignored; a function whose
// properties are incomplete is still returned with what was found.
[[nodiscard]] std::vector<kernel_resources> parse_resource_report(const std::string& report,
                                                                  const std::string& translation_unit);

}  // namespace counterguard
