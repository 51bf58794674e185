// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/symbol_names.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace counterguard {

std::string demangle(const std::string& symbol) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && demangled ? std::string(demangled.get()) : symbol;
}

std::string strip_signature(const std::string& demangled) {
  // Drop the parameter list: the last top-level "(...)".
  std::string name = demangled;
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')')
        ++depth;
      if (name[i] == '(' && --depth == 0) {
        name.erase(i);
        break;
      }
    }
  }
  // Template functions demangle with their return type ("void ns::f<3>"); kernels return void.
  const std::string return_type = "void ";
  if (name.compare(0, return_type.size(), return_type) == 0)
    name.erase(0, return_type.size());
  return name;
}

}  // namespace counterguard
