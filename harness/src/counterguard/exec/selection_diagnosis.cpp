// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/selection_diagnosis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "counterguard/core/double_quoted.hpp"

namespace counterguard {
namespace {

std::string element_text(const name_pattern& element) {
  return (element.is_regex() ? "regex:" : "") + element.text();
}

// Whether `selector` matches a context one of `among` ran in (records written before contexts were kept have
// none to compare).
bool any_context(const std::vector<const seen_kernel*>& among, const nvtx_selector& selector) {
  return std::any_of(among.begin(), among.end(), [&](const seen_kernel* kernel) {
    return std::any_of(kernel->contexts.begin(), kernel->contexts.end(),
                       [&](const nvtx_context& context) { return selector.matches(context); });
  });
}

// A range of a context that `pattern` matches, for the message.
std::optional<std::string> range_named(const std::vector<const seen_kernel*>& among,
                                       const name_pattern& pattern, const std::string& domain) {
  for (const seen_kernel* kernel : among) {
    for (const auto& context : kernel->contexts) {
      for (const auto& range : context.ranges_of(domain)) {
        if (pattern.matches(range))
          return range;
      }
    }
  }
  return std::nullopt;
}

std::set<std::string> domains_seen(const std::vector<const seen_kernel*>& among) {
  std::set<std::string> domains;
  for (const seen_kernel* kernel : among) {
    for (const auto& context : kernel->contexts) {
      for (const auto& stack : context.stacks)
        domains.insert(stack.domain);
      for (const auto& range : context.start_end)
        domains.insert(range.domain);
    }
  }
  return domains;
}

std::string domain_text(const std::string& domain) {
  return domain.empty() ? "the default domain" : "domain '" + domain + "'";
}

// The selector with its path read as one range name.
std::optional<nvtx_selector> joined(const nvtx_selector& selector) {
  if (selector.start_end || selector.path.size() < 2)
    return std::nullopt;
  std::string text;
  for (const auto& element : selector.path) {
    if (element.is_regex() || element.text() == "**")
      return std::nullopt;
    text += (text.empty() ? "" : "/") + element.text();
  }
  nvtx_selector one = selector;
  one.path = {selector.path.front().is_exact() ? name_pattern::exact(text) : name_pattern::glob(text)};
  return one;
}

// The selector with each element holding '/' read as nested ranges.
std::optional<nvtx_selector> split(const nvtx_selector& selector) {
  if (selector.start_end)
    return std::nullopt;
  nvtx_selector nested = selector;
  nested.path.clear();
  bool any = false;
  for (const auto& element : selector.path) {
    if (element.is_regex() || element.text().find('/') == std::string::npos) {
      nested.path.push_back(element);
      continue;
    }
    any = true;
    std::size_t begin = 0;
    while (begin <= element.text().size()) {
      const std::size_t slash = std::min(element.text().find('/', begin), element.text().size());
      const std::string part = element.text().substr(begin, slash - begin);
      if (part.empty())
        return std::nullopt;
      nested.path.push_back(element.is_exact() ? name_pattern::exact(part) : name_pattern::glob(part));
      begin = slash + 1;
    }
  }
  return any ? std::optional<nvtx_selector>(nested) : std::nullopt;
}

std::optional<std::string> diagnose_nvtx(const nvtx_selector& selector,
                                         const std::vector<const seen_kernel*>& among) {
  const std::string write_instead = "; write `nvtx: ";
  // A range whose name holds '/' (torch.cuda.nvtx.range_push("step/forward")), read as nested ranges.
  if (const std::optional<nvtx_selector> one = joined(selector)) {
    std::vector<nvtx_selector> tries{*one};
    for (const auto& domain : domains_seen(among)) {
      if (domain != selector.domain) {
        tries.push_back(*one);
        tries.back().domain = domain;
      }
    }
    for (const auto& candidate : tries) {
      if (!any_context(among, candidate))
        continue;
      const std::string name = range_named(among, candidate.path.front(), candidate.domain)
                                   .value_or(candidate.path.front().text());
      return fmt::format(
          "the program's NVTX range '{}' is one range whose name holds '/', and `nvtx: {}` asks for {} "
          "ranges "
          "nested one in another{}{}{}`",
          name, nvtx_selector_yaml(selector), selector.path.size(),
          candidate.domain == selector.domain ? "" : " (and it is in " + domain_text(candidate.domain) + ")",
          write_instead, nvtx_selector_yaml(candidate));
    }
  }
  // A list element holding '/' where the program nested two ranges.
  if (const std::optional<nvtx_selector> nested = split(selector); nested && any_context(among, *nested)) {
    return fmt::format(
        "`nvtx: {}` asks for one range whose name holds '/', and the program pushed the parts as nested "
        "ranges{}{}`",
        nvtx_selector_yaml(selector), write_instead, nvtx_selector_yaml(*nested));
  }
  // The same ranges in another domain (CUB's CCCL domain, a library's own).
  for (const auto& domain : domains_seen(among)) {
    if (domain == selector.domain)
      continue;
    nvtx_selector other = selector;
    other.domain = domain;
    if (any_context(among, other)) {
      return fmt::format("the ranges it names were pushed in {}, and the selector looks in {}{}{}`",
                         domain_text(domain), domain_text(selector.domain), write_instead,
                         nvtx_selector_yaml(other));
    }
  }
  // A push/pop range named as start/end, or the other way round.
  if (selector.path.size() == 1) {
    nvtx_selector other = selector;
    other.start_end = !selector.start_end;
    if (any_context(among, other)) {
      return fmt::format("'{}' is a {} range, and the selector asks for a {} range{}{}`",
                         selector.path.front().text(), other.start_end ? "start/end" : "push/pop",
                         selector.start_end ? "start/end" : "push/pop", write_instead,
                         nvtx_selector_yaml(other));
    }
  }
  return std::nullopt;
}

// The name without template arguments but with its namespaces: "ns::reduce" for "ns::reduce<256>".
std::string without_template_arguments(const std::string& function) {
  std::string out;
  int depth = 0;
  for (std::size_t i = 0; i < function.size(); ++i) {
    const char c = function[i];
    const bool operator_sign =
        i >= 8 && function.compare(i - 8, 8, "operator") == 0 && (c == '<' || c == '>');
    if (c == '<' && !operator_sign)
      ++depth;
    else if (c == '>' && depth > 0 && !operator_sign)
      --depth;
    else if (depth == 0)
      out += c;
  }
  return out;
}

std::optional<std::string> diagnose_kernel(const name_pattern& pattern,
                                           const std::vector<seen_kernel>& kernels) {
  for (const auto& kernel : kernels) {
    const kernel_names names = names_of_kernel(kernel.mangled.empty() ? kernel.function : kernel.mangled);
    const std::string qualified = without_template_arguments(names.function);
    if (qualified != names.function && pattern.matches(qualified)) {
      return fmt::format(
          "the kernel pattern {} matches '{}' only without its template arguments, and names are matched "
          "with "
          "them ('{}') but for the bare name; write `kernel: {}` (or {})",
          pattern.describe(), qualified, names.function, double_quoted(names.base),
          double_quoted(pattern.text() + "<*>"));
    }
  }
  return std::nullopt;
}

}  // namespace

std::string nvtx_selector_yaml(const nvtx_selector& selector) {
  std::vector<std::string> elements;
  bool slash = false;
  for (const auto& element : selector.path) {
    elements.push_back(element_text(element));
    slash = slash || element.text().find('/') != std::string::npos;
  }
  std::string list;
  for (const auto& element : elements)
    list += (list.empty() ? "" : ", ") + double_quoted(element);
  const std::string domain = selector.domain.empty() ? "" : ", domain: " + double_quoted(selector.domain);
  if (selector.start_end)
    return "{range: " + double_quoted(elements.empty() ? "" : elements.front()) + domain +
           ", kind: start_end}";
  if (slash)
    return domain.empty() ? "[" + list + "]" : "{range: [" + list + "]" + domain + "}";
  std::string path;
  for (const auto& element : elements)
    path += (path.empty() ? "" : "/") + element;
  return double_quoted((selector.domain.empty() ? "" : selector.domain + "@") + path);
}

std::optional<std::string> diagnose_near_miss(const launch_selector& selector,
                                              const std::vector<seen_kernel>& kernels) {
  std::vector<const seen_kernel*> matching;
  for (const auto& kernel : kernels) {
    if (selector.matches_kernel(names_of_kernel(kernel.mangled.empty() ? kernel.function : kernel.mangled)))
      matching.push_back(&kernel);
  }
  if (matching.empty())
    return selector.kernel ? diagnose_kernel(*selector.kernel, kernels) : std::nullopt;
  if (selector.nvtx && !any_context(matching, *selector.nvtx))
    return diagnose_nvtx(*selector.nvtx, matching);
  return std::nullopt;
}

}  // namespace counterguard
