// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard {

// Demangles a symbol with the C++ ABI; returns it unchanged when it is not a mangled name.
[[nodiscard]] std::string demangle(const std::string& symbol);

// "void ns::f<3>(float*)" -> "ns::f<3>": a demangled kernel name without return type and parameter list.
[[nodiscard]] std::string strip_signature(const std::string& demangled);

}  // namespace counterguard
