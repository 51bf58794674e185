// SPDX-License-Identifier: Apache-2.0
// The diagnosis of an empty selection, from what each process recorded: its case progress and the kernels it
// launched (selection_diagnosis.cpp finds the near misses).
#include "counterguard/exec/empty_selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/exec/process_labels.hpp"
#include "counterguard/exec/selection_diagnosis.hpp"
#include "counterguard/model/launch_context.hpp"
#include "detail/recorded_case.hpp"

namespace counterguard {
namespace {

using detail::progress_of;
using detail::selector_text;

constexpr std::size_t listed_kernels = 12;
constexpr std::size_t listed_contexts = 3;

// A name or pattern in plain letters, to rank names by how close they come to a pattern.
std::string letters(const std::string& text) {
  std::string result;
  for (const char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '/' || c == ' ')
      result += c;
  }
  return result;
}

std::size_t distance_to(const std::string& target, const std::string& name) {
  return target.empty() ? 0 : edit_distance(target, letters(name));
}

// The kernels the program launched, over every process: those closest to the selector's kernel pattern first
// (the most launched first without one), with the NVTX ranges they were launched in when the selector names
// ranges (closest first).
std::string kernels_seen(const std::vector<recorded_process>& processes, const case_instance& instance) {
  struct kernel {
    std::string function;
    std::int64_t launches = 0;
    std::set<std::string> nvtx;
    std::size_t distance = 0;
  };
  std::map<std::string, kernel> kernels;
  for (const auto& process : processes) {
    for (const auto& seen : process.record.kernels) {
      kernel& k = kernels[seen.function];
      k.function = seen.function;
      k.launches += seen.launches;
      k.nvtx.insert(seen.nvtx.begin(), seen.nvtx.end());
    }
  }
  const std::optional<launch_selector>& selector = instance.select;
  const std::string kernel_target = selector && selector->kernel ? letters(selector->kernel->text()) : "";
  std::string nvtx_target;
  if (selector && selector->nvtx) {
    for (const auto& element : selector->nvtx->path)
      nvtx_target += (nvtx_target.empty() ? "" : "/") + letters(element.text());
  }
  std::vector<kernel> sorted;
  for (auto& [name, k] : kernels) {
    if (!kernel_target.empty()) {
      k.distance = std::min(distance_to(kernel_target, k.function),
                            distance_to(kernel_target, names_of_kernel(k.function).base));
    } else if (!nvtx_target.empty()) {
      k.distance = std::numeric_limits<std::size_t>::max();
      for (const auto& context : k.nvtx)
        k.distance = std::min(k.distance, distance_to(nvtx_target, context));
    }
    sorted.push_back(std::move(k));
  }
  std::stable_sort(sorted.begin(), sorted.end(), [](const kernel& a, const kernel& b) {
    return std::tie(a.distance, b.launches) < std::tie(b.distance, a.launches);
  });
  std::string text = std::to_string(sorted.size()) + " kernel" + (sorted.size() == 1 ? "" : "s") +
                     (kernel_target.empty() && nvtx_target.empty() ? ", the most launched first: "
                                                                   : ", the closest to the selector first: ");
  for (std::size_t i = 0; i < sorted.size() && i < listed_kernels; ++i) {
    const kernel& k = sorted[i];
    std::string nvtx;
    if (!nvtx_target.empty()) {
      std::vector<std::string> contexts(k.nvtx.begin(), k.nvtx.end());
      std::stable_sort(contexts.begin(), contexts.end(), [&](const std::string& a, const std::string& b) {
        return distance_to(nvtx_target, a) < distance_to(nvtx_target, b);
      });
      for (std::size_t c = 0; c < contexts.size() && c < listed_contexts; ++c)
        nvtx += (nvtx.empty() ? "" : ", ") + contexts[c];
      if (contexts.size() > listed_contexts)
        nvtx += ", ...";
    }
    text += fmt::format("{}'{}' ({} launch{}{})", i == 0 ? "" : ", ", k.function, k.launches,
                        k.launches == 1 ? "" : "es", nvtx.empty() ? "" : "; NVTX " + nvtx);
  }
  if (sorted.size() > listed_kernels)
    text += fmt::format(" and {} more", sorted.size() - listed_kernels);
  return text;
}

}  // namespace

std::string describe_empty_selection(const case_instance& instance,
                                     const std::vector<recorded_process>& processes) {
  const std::string selected = "selected no kernel launch (" + selector_text(instance) + ")";
  if (processes.empty()) {
    return selected +
           ": no process of the program loaded the injection library (it made no CUDA call, or it is "
           "statically "
           "linked against the CUDA driver or setuid, which the injection cannot enter)";
  }
  std::int64_t matched = 0;
  std::int64_t most_in_one_process = 0;  // launch ordinals count per process
  bool applies = false;
  std::string process_list;
  for (const auto& process : processes) {
    process_list += (process_list.empty() ? "" : ", ") + describe_process(process.record.process);
    const case_progress* progress = progress_of(process.record, instance.name);
    applies =
        applies || progress == nullptr || progress->applies;  // no entry: the record cannot say it did not
    if (progress != nullptr) {
      matched += progress->matches;
      most_in_one_process = std::max(most_in_one_process, progress->matches);
    }
  }
  if (!applies)
    return selected + ": no process matched its process selector; the processes were " + process_list;
  if (matched > 0 && instance.select) {
    return selected + ": " + std::to_string(matched) + " launch" + (matched == 1 ? "" : "es") +
           " matched, fewer than the " + std::to_string(instance.select->launch_skip) +
           " the selector skips (launch ordinals count from 0 in each process); write `launch: " +
           std::to_string(most_in_one_process - 1) +
           "` for the last of them, or `launch: {skip: 0, count: " + std::to_string(most_in_one_process) +
           "}` for all";
  }
  std::int64_t launches = 0;
  std::vector<seen_kernel> kernels;
  for (const auto& process : processes) {
    launches += process.record.launches;
    kernels.insert(kernels.end(), process.record.kernels.begin(), process.record.kernels.end());
  }
  if (launches == 0)
    return selected + ": the program launched no kernel in a process with the injection (" + process_list +
           ")";
  if (instance.select) {
    if (const std::optional<std::string> near_miss = diagnose_near_miss(*instance.select, kernels))
      return selected + ": " + *near_miss + "; the program launched " + kernels_seen(processes, instance);
  }
  return selected + "; the program launched " + kernels_seen(processes, instance);
}

check_outcome empty_selection_check(const case_instance& instance, const std::string& metric,
                                    const std::string& message) {
  check_outcome check;
  check.metric = metric;
  check.origin = "selection";
  check.expected = ">= 1";
  check.measured = 0.0;
  check.verdict = check_verdict::fail;
  check.failing = true;
  check.message = instance.name + ": " + message;
  if (instance.select && !instance.select->where.file.empty())
    check.source = instance.select->where;
  else if (!instance.where.file.empty())
    check.source = instance.where;
  return check;
}

}  // namespace counterguard
