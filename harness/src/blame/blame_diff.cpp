#include "counterguard/blame/blame_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "counterguard/profiler/sass_metric_names.hpp"

namespace counterguard {
namespace {

std::uint64_t value_of(const metric_values& values, const std::string& metric) {
  const auto found = values.find(metric);
  return found == values.end() ? 0 : found->second;
}

// Lines match by file base name and line: a profile recorded from another checkout or build directory (a
// baseline made on a nightly machine) names the same source file by another path.
const blamed_line* find_line(const kernel_blame& blame, const blamed_line& like) {
  const std::string place = line_place(like.position);
  for (const auto& line : blame.lines) {
    if (line_place(line.position) == place)
      return &line;
  }
  return nullptr;
}

std::uint64_t delta(const blame_change& change) {
  return change.after > change.before ? change.after - change.before : change.before - change.after;
}

// The instruction of `line` (in `blame`) whose `metric` moved most against `other` (same PC), else the
// line's largest.
std::string changed_instruction(const kernel_blame& blame, const blamed_line& line, const std::string& metric,
                                const kernel_blame* other) {
  const blamed_instruction* best = nullptr;
  std::uint64_t best_delta = 0;
  for (const std::size_t i : line.instructions) {
    const blamed_instruction& instruction = blame.instructions[i];
    std::uint64_t then = 0;
    if (other != nullptr) {
      for (const auto& o : other->instructions) {
        if (o.pc_offset == instruction.pc_offset)
          then = value_of(o.values, metric);
      }
    }
    const std::uint64_t now = value_of(instruction.values, metric);
    const std::uint64_t d = now > then ? now - then : then - now;
    if (best == nullptr || d > best_delta) {
      best = &instruction;
      best_delta = d;
    }
  }
  if (best == nullptr)
    return "";
  return best->sass.empty() ? fmt::format("PC {:04x}", best->pc_offset) : best->sass;
}

}  // namespace

std::vector<blame_change> diff_blame(const std::vector<kernel_blame>& before,
                                     const std::vector<kernel_blame>& after) {
  std::vector<blame_change> changes;
  const auto find_function = [](const std::vector<kernel_blame>& all,
                                const std::string& mangled) -> const kernel_blame* {
    for (const auto& blame : all) {
      if (blame.mangled == mangled)
        return &blame;
    }
    return nullptr;
  };
  const auto compare = [&](const kernel_blame& now, const kernel_blame* then, bool now_is_after) {
    for (const auto& line : now.lines) {
      const blamed_line* old = then != nullptr ? find_line(*then, line) : nullptr;
      std::set<std::string> metrics;
      for (const auto& [metric, value] : line.values)
        metrics.insert(metric);
      if (old != nullptr) {
        for (const auto& [metric, value] : old->values)
          metrics.insert(metric);
      }
      for (const auto& metric : metrics) {
        const std::uint64_t here = value_of(line.values, metric);
        const std::uint64_t there = old != nullptr ? value_of(old->values, metric) : 0;
        if (here == there)
          continue;
        // Lines in both are reported from the "after" side only.
        if (!now_is_after && old != nullptr)
          continue;
        blame_change change;
        change.function = now.function;
        change.place = line_place(line.position);
        change.sass = changed_instruction(now, line, metric, then);
        change.metric = metric;
        change.before = now_is_after ? there : here;
        change.after = now_is_after ? here : there;
        changes.push_back(std::move(change));
      }
    }
  };
  for (const auto& blame : after)
    compare(blame, find_function(before, blame.mangled), true);
  for (const auto& blame : before)
    compare(blame, find_function(after, blame.mangled), false);
  std::stable_sort(changes.begin(), changes.end(),
                   [](const blame_change& a, const blame_change& b) { return delta(a) > delta(b); });
  return changes;
}

std::string format_change(const blame_change& change) {
  return fmt::format("{}  {}  {} {} -> {}", change.place, change.sass,
                     sass_metric_display_name(change.metric), change.before, change.after);
}

}  // namespace counterguard
