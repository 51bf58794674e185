// SPDX-License-Identifier: Apache-2.0
#include "counterguard/blame/source_line_blame.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "counterguard/core/error.hpp"
#include "counterguard/profiler/sass_metric_names.hpp"
#include "counterguard/statics/toolkit_sources.hpp"

namespace counterguard {
namespace {

bool same_line(const std::optional<source_position>& a, const std::optional<source_position>& b) {
  if (!a || !b)
    return !a && !b;
  return a->file == b->file && a->line == b->line;
}

bool line_before(const std::optional<source_position>& a, const std::optional<source_position>& b) {
  if (!a || !b)
    return a.has_value() && !b.has_value();  // lines without a position last
  return std::tie(a->file, a->line) < std::tie(b->file, b->line);
}

bool in_any(const std::string& file, const std::vector<std::string>& dirs) {
  return std::any_of(dirs.begin(), dirs.end(),
                     [&](const std::string& dir) { return source_in_directory(file, dir); });
}

// The outermost of `frames` whose file `is_users`, else the innermost.
template <typename predicate>
std::size_t first_user_frame(const std::vector<source_position>& frames, predicate is_users) {
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (is_users(frames[i].file))
      return i;
  }
  return frames.empty() ? 0 : frames.size() - 1;
}

std::uint64_t value_of(const metric_values& values, const std::string& metric) {
  const auto found = values.find(metric);
  return found == values.end() ? 0 : found->second;
}

}  // namespace

std::size_t blamed_frame_of(const std::vector<source_position>& frames,
                            const std::vector<std::string>& toolkit_dirs,
                            const std::vector<std::string>& external_dirs) {
  return first_user_frame(frames, [&](const std::string& file) {
    return !in_any(file, toolkit_dirs) && !in_any(file, external_dirs);
  });
}

std::vector<std::string> inline_chain(const blamed_instruction& instruction) {
  std::vector<std::string> chain;
  for (std::size_t i = instruction.blamed_frame; i < instruction.frames.size(); ++i)
    chain.push_back(line_place(instruction.frames[i]));
  return chain;
}

std::string chain_text(const std::vector<std::string>& chain) {
  std::string text;
  for (const auto& place : chain)
    text += (text.empty() ? "" : " -> ") + place;
  return text;
}

void attribute_lines(kernel_blame& blame, const line_attribution& attribution) {
  blame.attribution = attribution;
  blame.lines.clear();
  const bool opcodes_known = std::all_of(blame.instructions.begin(), blame.instructions.end(),
                                         [](const blamed_instruction& i) { return !i.sass.empty(); });
  std::map<std::string, bool> users;  // by file: a kernel has few files and many instructions
  const auto is_users = [&](const std::string& file) {
    auto found = users.find(file);
    if (found == users.end()) {
      const bool outside =
          !in_any(file, blame.toolkit_include_dirs) && !in_any(file, attribution.external_dirs);
      found = users.emplace(file, outside).first;
    }
    return found->second;
  };
  for (std::size_t i = 0; i < blame.instructions.size(); ++i) {
    blamed_instruction& instruction = blame.instructions[i];
    instruction.blamed_frame = first_user_frame(instruction.frames, is_users);
    std::optional<source_position> place;
    if (!instruction.frames.empty()) {
      const source_position& frame =
          attribution.innermost ? instruction.frames.back() : instruction.frames[instruction.blamed_frame];
      place = source_position{frame.file, frame.line, 0};
    }
    auto line = std::find_if(blame.lines.begin(), blame.lines.end(),
                             [&](const blamed_line& l) { return same_line(l.position, place); });
    if (line == blame.lines.end()) {
      blamed_line added;
      added.position = place;
      if (opcodes_known)
        added.memory_opcodes = std::vector<std::string>{};
      blame.lines.push_back(std::move(added));
      line = blame.lines.end() - 1;
    }
    line->instructions.push_back(i);
    for (const auto& [metric, value] : instruction.values)
      line->values[metric] += value;
    if (line->memory_opcodes && classify_opcode(instruction.opcode) != memory_access::none) {
      std::vector<std::string>& opcodes = *line->memory_opcodes;
      if (std::find(opcodes.begin(), opcodes.end(), instruction.opcode) == opcodes.end())
        opcodes.insert(std::upper_bound(opcodes.begin(), opcodes.end(), instruction.opcode),
                       instruction.opcode);
    }
  }
  std::stable_sort(blame.lines.begin(), blame.lines.end(), [](const blamed_line& a, const blamed_line& b) {
    return line_before(a.position, b.position);
  });
}

kernel_blame join_blame(const sass_function_profile& counters, const kernel_sass& sass,
                        const line_attribution& attribution) {
  if (counters.mangled != sass.mangled) {
    throw input_error({}, "function",
                      "per-PC counters of '" + counters.mangled + "' cannot be joined to the SASS of '" +
                          sass.mangled + "'",
                      "the same function's cubin");
  }
  kernel_blame blame;
  blame.function = sass.function;
  blame.mangled = sass.mangled;
  blame.architecture = sass.architecture;
  blame.toolkit_include_dirs = sass.toolkit_include_dirs;
  for (const auto& instruction : sass.instructions) {
    blamed_instruction out;
    out.pc_offset = instruction.offset;
    out.sass = instruction.text;
    out.opcode = instruction.opcode;
    out.position = instruction.position;
    if (instruction.position) {
      out.frames.assign(instruction.inlined_at.rbegin(), instruction.inlined_at.rend());
      out.frames.push_back(*instruction.position);
    }
    const auto found = counters.values_by_pc.find(instruction.offset);
    if (found != counters.values_by_pc.end())
      out.values = found->second;
    for (const auto& derived : derived_sass_metrics()) {
      const auto total = out.values.find(derived.total);
      const auto ideal = out.values.find(derived.ideal);
      if (total != out.values.end() && ideal != out.values.end())
        out.values[derived.friendly] = total->second > ideal->second ? total->second - ideal->second : 0;
    }
    blame.instructions.push_back(std::move(out));
  }
  for (const auto& [pc, values] : counters.values_by_pc) {
    const bool known = std::any_of(sass.instructions.begin(), sass.instructions.end(),
                                   [pc = pc](const sass_instruction& i) { return i.offset == pc; });
    if (!known)
      blame.unmatched_pc_offsets.push_back(pc);
  }
  attribute_lines(blame, attribution);
  return blame;
}

std::vector<kernel_blame> join_profile(const sass_profile& profile, const std::string& binary,
                                       bool lines_only, std::vector<std::string>* missing,
                                       const line_attribution& attribution) {
  const std::string architecture = "sm_" + std::to_string(profile.compute_capability);
  std::vector<kernel_blame> out;
  std::optional<input_error> first_problem;
  for (const auto& function : profile.functions) {
    try {
      const std::vector<kernel_sass> found =
          read_kernel_sass(binary, function.mangled, {architecture, lines_only});
      const auto exact = std::find_if(found.begin(), found.end(), [&](const kernel_sass& sass) {
        return sass.mangled == function.mangled;
      });
      if (exact == found.end()) {
        throw input_error(source_location{binary}, "",
                          "holds no " + architecture + " cubin with '" + function.mangled +
                              "' (the profile was recorded on " + profile.gpu + ", " + profile.chip + ")",
                          "the program that ran the case, built for " + architecture);
      }
      out.push_back(join_blame(function, *exact, attribution));
    } catch (const input_error& e) {
      if (missing == nullptr)
        throw;
      missing->push_back(function.function + ": " + e.what());
      if (!first_problem)
        first_problem = e;
    }
  }
  if (out.empty() && first_problem)
    throw *first_problem;
  return out;
}

std::vector<std::string> blamed_metric_names(const sass_profile& profile) {
  const auto collected = [&](const std::string& name) {
    return std::any_of(profile.metrics.begin(), profile.metrics.end(),
                       [&](const sass_metric_choice& metric) { return metric.friendly == name; });
  };
  std::vector<std::string> names;
  for (const auto& derived : derived_sass_metrics()) {
    if (collected(derived.total) && collected(derived.ideal))
      names.push_back(derived.friendly);
  }
  for (const auto& metric : profile.metrics)
    names.push_back(metric.friendly);
  return names;
}

std::vector<const blamed_line*> rank_lines(const kernel_blame& blame, const std::string& metric,
                                           std::size_t top) {
  std::vector<const blamed_line*> ranked;
  for (const auto& line : blame.lines) {
    if (value_of(line.values, metric) > 0)
      ranked.push_back(&line);
  }
  std::stable_sort(ranked.begin(), ranked.end(), [&](const blamed_line* a, const blamed_line* b) {
    return value_of(a->values, metric) > value_of(b->values, metric);
  });
  if (top > 0 && ranked.size() > top)
    ranked.resize(top);
  return ranked;
}

std::string line_place(const std::optional<source_position>& position) {
  if (!position)
    return "?";
  const auto slash = position->file.rfind('/');
  return fmt::format("{}:{}", slash == std::string::npos ? position->file : position->file.substr(slash + 1),
                     position->line);
}

const blamed_instruction& top_instruction(const kernel_blame& blame, const blamed_line& line,
                                          const std::string& metric) {
  if (line.instructions.empty())
    throw internal_error("top_instruction: a line without instructions");
  std::size_t best = line.instructions.front();
  for (const std::size_t i : line.instructions) {
    if (value_of(blame.instructions[i].values, metric) > value_of(blame.instructions[best].values, metric))
      best = i;
  }
  return blame.instructions[best];
}

}  // namespace counterguard
