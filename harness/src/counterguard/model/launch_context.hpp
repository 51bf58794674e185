// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace counterguard {

// The names a kernel launch answers to: a kernel pattern matches when it matches any of them.
struct kernel_names {
  std::string mangled;      // "_ZN2ns6reduceILi256EEvPKfPfi"
  std::string function;     // demangled, without return type and parameters: "ns::reduce<256>"
  std::string demangled;    // in full: "void ns::reduce<256>(float const*, float*, int)"
  std::string unqualified;  // without namespaces, with template arguments: "reduce<256>"
  std::string base;         // without namespaces and template arguments: "reduce" (ncu's "function" name)
};
// The names of a kernel from its symbol (a mangled C++ name, or a C name).
[[nodiscard]] kernel_names names_of_kernel(const std::string& symbol);

// The NVTX ranges open around a kernel launch.
struct nvtx_context {
  // One push/pop stack per NVTX domain on the launching thread, outermost range first. The default domain
  // (nvtxRangePushA) has the empty name.
  struct domain_stack {
    std::string domain;
    std::vector<std::string> ranges;
  };
  std::vector<domain_stack> stacks;
  // Start/end ranges open anywhere in the process (nvtxRangeStartA ... nvtxRangeEnd).
  struct open_range {
    std::string domain;
    std::string name;
  };
  std::vector<open_range> start_end;

  // The push/pop ranges open in a domain, outermost first; empty when none is.
  [[nodiscard]] const std::vector<std::string>& ranges_of(const std::string& domain) const;
  // "outer/inner", "MyLib@outer/inner" for another domain, start/end ranges as "[name]"; several joined
  // with "; ", "(none)" when nothing is open: how messages show where a launch happened.
  [[nodiscard]] std::string describe() const;
};

}  // namespace counterguard
