// SPDX-License-Identifier: Apache-2.0
// `counterguard record`: a suite written from what a program launched in one or more runs.
#include "counterguard/exec/program_suite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "counterguard/core/double_quoted.hpp"
#include "counterguard/exec/process_labels.hpp"
#include "counterguard/model/launch_selector.hpp"

namespace counterguard {
namespace {

// A kernel with at most this many launches (in each run) gets a case per launch; more, the first and last.
constexpr std::int64_t launches_cased_one_by_one = 4;

// How a selector of the written suite reads, and the selector itself (to count what it matches).
struct written_selector {
  std::string kernel_text;  // the kernel pattern as written
  std::string nvtx_text;    // the `nvtx:` value as written; empty: no NVTX part
  std::string nvtx_name;    // the NVTX part for the case name ("step.forward")
  std::optional<nvtx_selector> nvtx;
};

// One selector in one process: how many launches it matched in each run (absent: not launched in that run).
struct slot {
  written_selector selector;
  std::string function;  // demangled, for the comment
  std::string mangled;
  std::string context_description;
  std::map<std::string, std::vector<std::optional<std::int64_t>>> counts;  // process label -> per run
  std::map<std::string, process_identity> processes;                       // label -> who (run 0's)
};

// Letters, digits, '_', '.' and '-' (a case name's characters); other runs of characters become one '_'.
std::string case_name_part(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool valid = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-';
    if (valid)
      out += c;
    else if (!out.empty() && out.back() != '_')
      out += '_';
  }
  while (!out.empty() && (out.back() == '_' || out.back() == '.'))
    out.pop_back();
  while (!out.empty() && (out.front() == '_' || out.front() == '.'))
    out.erase(out.begin());
  return out.empty() ? "kernel" : out;
}

// A case name for a kernel: its name without namespaces, or, when that is long (a library's template
// instance), its name without template arguments and a hash of its symbol, the same in every run.
std::string kernel_case_name(const std::string& mangled) {
  constexpr std::size_t longest = 48;
  const kernel_names names = names_of_kernel(mangled);
  std::string readable = case_name_part(names.unqualified);
  if (readable.size() <= longest)
    return readable;
  std::uint32_t hash = 2166136261U;  // FNV-1a
  for (const char c : mangled)
    hash = (hash ^ static_cast<unsigned char>(c)) * 16777619U;
  return case_name_part(names.base).substr(0, longest) + fmt::format("_{:08x}", hash);
}

// A function's name as a comment shows it: long ones (a library's template instances) shortened.
std::string comment_name(const std::string& function) {
  constexpr std::size_t longest = 100;
  return function.size() <= longest ? function : function.substr(0, longest) + "...";
}

bool reads_as_pattern(const std::string& text) {
  return text.find_first_of("*?[") != std::string::npos || text.rfind("regex:", 0) == 0;
}

std::vector<std::string> names_answered_to(const kernel_names& names) {
  return {names.mangled, names.function, names.demangled, names.unqualified, names.base};
}

// The most readable name that matches this kernel alone among every kernel the program launched.
std::string kernel_pattern(const kernel_names& names, const std::map<std::string, kernel_names>& kernels) {
  for (const std::string& candidate : {names.unqualified, names.function}) {
    if (candidate.empty() || reads_as_pattern(candidate))
      continue;
    std::size_t matching = 0;
    for (const auto& [mangled, other] : kernels) {
      const std::vector<std::string> others = names_answered_to(other);
      matching += std::find(others.begin(), others.end(), candidate) != others.end() ? 1 : 0;
    }
    if (matching == 1)
      return candidate;
  }
  return names.mangled;
}

// The NVTX part of a selector for one context: its default domain's push/pop ranges, else another domain's,
// else its first start/end range; nullopt for a context with none open (or names a glob would misread).
std::optional<written_selector> context_selector(const nvtx_context& context) {
  const nvtx_context::domain_stack* stack = nullptr;
  for (const auto& candidate : context.stacks) {
    if (!candidate.ranges.empty() && (stack == nullptr || candidate.domain.empty()))
      stack = &candidate;
  }
  written_selector written;
  nvtx_selector selector;
  if (stack != nullptr) {
    selector.domain = stack->domain;
    std::string list;
    for (const auto& range : stack->ranges) {
      if (reads_as_pattern(range) || range == "**")
        return std::nullopt;
      selector.path.push_back(name_pattern::exact(range));
      list += (list.empty() ? "" : ", ") + double_quoted(range);
      written.nvtx_name += (written.nvtx_name.empty() ? "" : ".") + case_name_part(range);
    }
    written.nvtx_text = stack->domain.empty()
                            ? "[" + list + "]"
                            : "{range: [" + list + "], domain: " + double_quoted(stack->domain) + "}";
  } else if (!context.start_end.empty()) {
    const auto& range = context.start_end.front();
    if (reads_as_pattern(range.name))
      return std::nullopt;
    selector.domain = range.domain;
    selector.start_end = true;
    selector.path.push_back(name_pattern::exact(range.name));
    written.nvtx_text = "{range: [" + double_quoted(range.name) + "], kind: start_end" +
                        (range.domain.empty() ? std::string() : ", domain: " + double_quoted(range.domain)) +
                        "}";
    written.nvtx_name = case_name_part(range.name);
  } else {
    return std::nullopt;
  }
  written.nvtx = std::move(selector);
  return written;
}

// The selectors for one kernel of one process and the launches each matches: one without NVTX (every
// launch) unless each launch ran inside ranges, and one per distinct range context.
std::vector<std::pair<written_selector, std::int64_t>> kernel_selectors(const seen_kernel& kernel) {
  std::vector<std::pair<written_selector, std::int64_t>> selectors;
  const bool counted =
      !kernel.context_launches.empty() && kernel.context_launches.size() == kernel.contexts.size();
  std::int64_t in_contexts = 0;
  for (const auto n : kernel.context_launches)
    in_contexts += n;
  std::vector<written_selector> by_context;
  bool every_launch_in_ranges = counted && in_contexts == kernel.launches;
  if (counted) {
    for (const auto& context : kernel.contexts) {
      std::optional<written_selector> written = context_selector(context);
      if (!written) {
        every_launch_in_ranges = false;
        continue;
      }
      const bool seen = std::any_of(by_context.begin(), by_context.end(), [&](const written_selector& s) {
        return s.nvtx_text == written->nvtx_text;
      });
      if (!seen)
        by_context.push_back(std::move(*written));
    }
  }
  if (!every_launch_in_ranges || by_context.empty())
    selectors.emplace_back(written_selector{}, kernel.launches);
  for (auto& written : by_context) {
    std::int64_t matched = 0;
    for (std::size_t c = 0; c < kernel.contexts.size(); ++c) {
      if (written.nvtx->matches(kernel.contexts[c]))
        matched += kernel.context_launches[c];
    }
    selectors.emplace_back(std::move(written), matched);
  }
  return selectors;
}

std::string counts_text(const std::vector<std::optional<std::int64_t>>& counts) {
  std::string text;
  for (const auto& count : counts)
    text += (text.empty() ? "" : ", ") + (count ? std::to_string(*count) : std::string("none"));
  return text;
}

struct case_writer {
  std::set<std::string> names;
  std::string yaml;
  std::size_t cases = 0;
  std::size_t skipped = 0;

  std::string unique(std::string name) {
    std::string candidate = name;
    for (int n = 2; !names.insert(candidate).second; ++n)
      candidate = name + "_" + std::to_string(n);
    return candidate;
  }

  void add(const std::string& comment, const std::string& name, const std::string& select,
           const std::string& skip) {
    yaml += "\n  # " + comment + "\n  - name: " + unique(name) + "\n    select: " + select + "\n";
    if (!skip.empty()) {
      yaml += "    skip: " + double_quoted(skip) + "\n";
      ++skipped;
    } else {
      ++cases;
    }
  }
};

std::string select_text(const written_selector& selector, const std::string& process, std::int64_t launch) {
  std::string text = "{kernel: " + double_quoted(selector.kernel_text);
  if (!selector.nvtx_text.empty())
    text += ", nvtx: " + selector.nvtx_text;
  if (!process.empty())
    text += ", process: " + process;
  return text + ", launch: " + std::to_string(launch) + "}";
}

// The cases of one selector in one process (or every process alike: `process` empty).
void write_cases(case_writer& writer, std::vector<std::string>& notes, const slot& s,
                 const std::string& process, const std::string& process_name,
                 const std::vector<std::optional<std::int64_t>>& counts) {
  std::string base = kernel_case_name(s.mangled);
  if (!s.selector.nvtx_name.empty())
    base += "." + s.selector.nvtx_name;
  if (!process_name.empty())
    base += "." + process_name;
  const std::string where =
      s.selector.nvtx_text.empty() ? std::string() : " in NVTX " + s.context_description;
  const std::string who =
      "'" + s.function + "'" + where + (process_name.empty() ? "" : " (" + process_name + ")");
  const std::size_t runs = counts.size();
  const auto present = static_cast<std::size_t>(
      std::count_if(counts.begin(), counts.end(), [](const auto& c) { return c.has_value(); }));
  if (present < runs) {
    const std::string why = fmt::format(
        "launched in {} of the recording's {} runs (a library's heuristics or an autotuner choose kernels at "
        "run "
        "time): nothing stable to gate; select a launch the program always makes",
        present, runs);
    writer.add(who + ": launches per run " + counts_text(counts), base + ".first",
               select_text(s.selector, process, 0), why);
    notes.push_back(who + ": " + why);
    return;
  }
  std::int64_t fewest = *counts.front();
  bool varied = false;
  for (const auto& count : counts) {
    varied = varied || *count != *counts.front();
    fewest = std::min(fewest, *count);
  }
  if (varied) {
    // The first launch is the same in every run (an autotuner's first trial, a loop's first step). Where the
    // later ones fall depends on timing or data: ordinal fewest - 1 may be a trial in one run and the tuned
    // kernel in the next, so it is written skipped, saying what to select instead.
    const std::string varying = fmt::format(
        "launches varied between the recording's runs ({}: an autotuner's trials or a data-dependent "
        "loop)",
        counts_text(counts));
    writer.add(who + ": " + varying + "; the first launch, the same in every run", base + ".first",
               select_text(s.selector, process, 0), {});
    if (fewest > 1) {
      writer.add(
          who + ": the last launch every run reached", base + ".settled",
          select_text(s.selector, process, fewest - 1),
          "launch " + std::to_string(fewest - 1) +
              " is not the same launch in every run (the count varied): select the launches after tuning "
              "by an NVTX range the program opens around them (nvtx:), or pin the autotuner's choice");
    }
    notes.push_back(who + ": " + varying +
                    "; gating the first launch only (the later ones are written skipped)");
    return;
  }
  const std::string launches = std::to_string(fewest) + " launch" + (fewest == 1 ? "" : "es") +
                               (runs > 1 ? " in each of " + std::to_string(runs) + " runs" : "");
  if (fewest <= launches_cased_one_by_one) {
    for (std::int64_t i = 0; i < fewest; ++i) {
      writer.add(who + ": " + launches + (fewest > 1 ? "; launch " + std::to_string(i) : ""),
                 base + (fewest > 1 ? "." + std::to_string(i) : ""), select_text(s.selector, process, i), {});
    }
    return;
  }
  writer.add(who + ": " + launches + "; the first", base + ".first", select_text(s.selector, process, 0), {});
  writer.add(who + ": " + launches + "; the last", base + ".last",
             select_text(s.selector, process, fewest - 1), {});
}

}  // namespace

std::vector<std::string> default_program_metrics() {
  return {"shared_load_bank_conflicts",
          "shared_store_bank_conflicts",
          "global_load_sectors_per_request",
          "global_store_sectors_per_request",
          "global_load_requests",
          "global_store_requests",
          "local_load_bytes",
          "local_store_bytes",
          "spill_store_bytes",
          "spill_load_bytes",
          "launch_registers_per_thread"};
}

program_suite write_program_suite(const std::vector<std::vector<process_record>>& runs,
                                  const program_suite_request& request) {
  program_suite result;
  // Every kernel any run launched, by mangled name: which names tell one apart.
  std::map<std::string, kernel_names> kernels;
  for (const auto& run : runs) {
    for (const auto& process : run) {
      for (const auto& kernel : process.kernels)
        kernels.emplace(kernel.mangled, names_of_kernel(kernel.mangled));
    }
  }
  // The slots, in the order of the first run that has them.
  std::vector<slot> slots;
  auto find_slot = [&](const std::string& mangled, const std::string& nvtx_text) -> slot* {
    for (auto& s : slots) {
      if (s.mangled == mangled && s.selector.nvtx_text == nvtx_text)
        return &s;
    }
    return nullptr;
  };
  for (std::size_t r = 0; r < runs.size(); ++r) {
    std::vector<process_identity> identities;
    for (const auto& process : runs[r])
      identities.push_back(process.process);
    const std::vector<process_label> labels = label_processes(identities);
    for (std::size_t p = 0; p < runs[r].size(); ++p) {
      const std::string label = labels[p].suffix();
      for (const auto& kernel : runs[r][p].kernels) {
        for (auto& [selector, count] : kernel_selectors(kernel)) {
          slot* s = find_slot(kernel.mangled, selector.nvtx_text);
          if (s == nullptr) {
            slot made;
            made.mangled = kernel.mangled;
            made.function = kernel.function;
            made.context_description = selector.nvtx_name.empty() ? "" : selector.nvtx_text;
            selector.kernel_text = kernel_pattern(kernels.at(kernel.mangled), kernels);
            made.selector = selector;
            slots.push_back(std::move(made));
            s = &slots.back();
          }
          auto& per_run = s->counts[label];
          per_run.resize(runs.size());
          per_run[r] = count;
          s->processes.emplace(label, runs[r][p].process);
        }
      }
    }
  }

  case_writer writer;
  for (auto& s : slots) {
    for (auto& [label, counts] : s.counts)
      counts.resize(runs.size());
    // One case for every process alike when their counts agree (the results are labelled per process).
    const auto& first = s.counts.begin()->second;
    const bool alike =
        std::all_of(s.counts.begin(), s.counts.end(), [&](const auto& c) { return c.second == first; });
    if (alike) {
      write_cases(writer, result.notes, s, {}, {}, first);
      continue;
    }
    std::map<std::string, std::size_t> executables;
    for (const auto& [label, identity] : s.processes)
      ++executables[std::filesystem::path(identity.executable).filename().string()];
    for (const auto& [label, counts] : s.counts) {
      const process_identity& identity = s.processes.at(label);
      const std::string executable = std::filesystem::path(identity.executable).filename().string();
      if (identity.rank) {
        write_cases(writer, result.notes, s, "{rank: " + std::to_string(*identity.rank) + "}",
                    "rank" + std::to_string(*identity.rank), counts);
      } else if (executables[executable] == 1 && !reads_as_pattern(executable)) {
        write_cases(writer, result.notes, s, "{executable: " + double_quoted(executable) + "}",
                    case_name_part(executable), counts);
      } else {
        const std::string why =
            "processes that only their start order tells apart launched it a different "
            "number of times: give them ranks, or select with process: {executable: ...}";
        writer.add(
            "'" + comment_name(s.function) + "' (" + label + "): launches per run " + counts_text(counts),
            kernel_case_name(s.mangled) + ".first", select_text(s.selector, {}, 0), why);
        result.notes.push_back("'" + comment_name(s.function) + "': " + why);
        break;
      }
    }
  }

  std::string program;
  for (const auto& argument : request.program)
    program += (program.empty() ? "" : " ") + argument;
  std::string metrics;
  for (const auto& metric : request.metrics)
    metrics += (metrics.empty() ? "" : ", ") + metric;
  result.yaml = fmt::format(
      "# Written by `counterguard record` from {} run{} of: {}\n"
      "# ({}{}). Each case selects launches the program made in every run; the metrics under\n"
      "# defaults.measure are measured in every case, and their values live in the per-GPU baselines:\n"
      "#   counterguard baseline update {} --repeat 5 -- {}   (records them)\n"
      "#   counterguard exec {} -- {}   (gates on them)\n"
      "# An ordinary suite (docs/exec.md): rename cases, add expect:, delete what should not be gated.\n"
      "suite: {}\n"
      "defaults:\n"
      "  measure: [{}]\n"
      "cases:\n",
      runs.size(), runs.size() == 1 ? "" : "s", program, request.recorded_at,
      request.gpu.empty() ? std::string() : ", " + request.gpu, request.file, program, request.file, program,
      request.suite, metrics);
  result.yaml += writer.yaml;
  result.cases = writer.cases;
  result.skipped = writer.skipped;
  return result;
}

}  // namespace counterguard
