// SPDX-License-Identifier: Apache-2.0
#include "counterguard/model/launch_context.hpp"

#include "counterguard/core/symbol_names.hpp"

namespace counterguard {
namespace {

// "(anonymous namespace)::ns::reduce<256>" -> "reduce<256>": the name after the last "::" outside template
// arguments and parentheses.
std::string unqualified_name(const std::string& function) {
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i + 1 < function.size(); ++i) {
    const char c = function[i];
    if (c == '<' || c == '(')
      ++depth;
    else if ((c == '>' || c == ')') && depth > 0)
      --depth;
    else if (depth == 0 && c == ':' && function[i + 1] == ':')
      start = i + 2;
  }
  return function.substr(start);
}

// "ns::reduce<256>" -> "reduce": drops template arguments (balanced <...>) and every namespace or class.
std::string base_name(const std::string& function) {
  std::string without_templates;
  int depth = 0;
  for (std::size_t i = 0; i < function.size(); ++i) {
    const char c = function[i];
    // "operator<" and friends keep their '<': a '<' right after "operator" is part of the name.
    const bool operator_sign =
        i >= 8 && function.compare(i - 8, 8, "operator") == 0 && (c == '<' || c == '>');
    if (c == '<' && !operator_sign) {
      ++depth;
    } else if (c == '>' && depth > 0 && !operator_sign) {
      --depth;
    } else if (depth == 0) {
      without_templates += c;
    }
  }
  const std::size_t scope = without_templates.rfind("::");
  return scope == std::string::npos ? without_templates : without_templates.substr(scope + 2);
}

}  // namespace

kernel_names names_of_kernel(const std::string& symbol) {
  kernel_names names;
  names.mangled = symbol;
  names.demangled = demangle(symbol);
  names.function = strip_signature(names.demangled);
  names.unqualified = unqualified_name(names.function);
  names.base = base_name(names.function);
  return names;
}

const std::vector<std::string>& nvtx_context::ranges_of(const std::string& domain) const {
  static const std::vector<std::string> none;
  for (const auto& stack : stacks) {
    if (stack.domain == domain)
      return stack.ranges;
  }
  return none;
}

std::string nvtx_context::describe() const {
  std::string text;
  for (const auto& stack : stacks) {
    if (stack.ranges.empty())
      continue;
    text += text.empty() ? "" : "; ";
    if (!stack.domain.empty())
      text += stack.domain + "@";
    for (std::size_t i = 0; i < stack.ranges.size(); ++i)
      text += (i == 0 ? "" : "/") + stack.ranges[i];
  }
  for (const auto& range : start_end) {
    text += text.empty() ? "" : "; ";
    text += "[" + (range.domain.empty() ? std::string() : range.domain + "@") + range.name + "]";
  }
  return text.empty() ? "(none)" : text;
}

}  // namespace counterguard
