// SPDX-License-Identifier: Apache-2.0
#include "counterguard/blame/blame_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <set>

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

// "kernels.cu:111 -> device_atomic_functions.hpp:226" -> its places.
std::vector<std::string> split_chain(const std::string& text) {
  std::vector<std::string> places;
  const std::string arrow = " -> ";
  for (std::size_t start = 0;;) {
    const std::size_t end = text.find(arrow, start);
    places.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos)
      return places;
    start = end + arrow.size();
  }
}

std::uint64_t delta(const blame_change& change) {
  return change.after > change.before ? change.after - change.before : change.before - change.after;
}

// The opcodes of `a` that `b` lacks (both sorted).
std::vector<std::string> only_in(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// The instruction of `line` (in `blame`) whose `metric` moved most against `other` (same PC), else the
// line's largest; with `new_opcodes`, one of those first (the instruction that changed kind).
const blamed_instruction* changed_instruction(const kernel_blame& blame, const blamed_line& line,
                                              const std::string& metric, const kernel_blame* other,
                                              const std::vector<std::string>& new_opcodes) {
  const blamed_instruction* best = nullptr;
  std::uint64_t best_delta = 0;
  bool best_is_new = false;
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
    const bool is_new =
        std::find(new_opcodes.begin(), new_opcodes.end(), instruction.opcode) != new_opcodes.end();
    if (best == nullptr || (is_new && !best_is_new) || (is_new == best_is_new && d > best_delta)) {
      best = &instruction;
      best_delta = d;
      best_is_new = is_new;
    }
  }
  return best;
}

}  // namespace

std::vector<blame_change> diff_blame(const std::vector<kernel_blame>& before,
                                     const std::vector<kernel_blame>& after,
                                     const std::vector<std::string>& metric_order) {
  std::vector<blame_change> changes;
  std::vector<blame_change> kind_changes;  // lines whose values are the same
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
      // Lines in both are reported from the "after" side only.
      if (!now_is_after && old != nullptr)
        continue;
      std::vector<std::string> gained;  // opcodes of the "after" side only
      std::vector<std::string> lost;
      if (old != nullptr && line.memory_opcodes && old->memory_opcodes) {
        gained = only_in(*line.memory_opcodes, *old->memory_opcodes);
        lost = only_in(*old->memory_opcodes, *line.memory_opcodes);
      }
      const blamed_instruction* top = nullptr;
      const auto change_of = [&](const std::string& metric, std::uint64_t here, std::uint64_t there) {
        top =
            changed_instruction(now, line, metric, then, now_is_after ? gained : std::vector<std::string>{});
        blame_change change;
        change.function = now.function;
        if (top != nullptr)
          change.chain = inline_chain(*top);
        else if (!line.recorded_chains.empty())  // a per-line baseline's line: no instructions
          change.chain = split_chain(line.recorded_chains.front());
        change.place =
            top != nullptr && !change.chain.empty() ? change.chain.front() : line_place(line.position);
        if (line.position)
          change.file = line.position->file;
        if (top != nullptr)
          change.sass = top->sass.empty() ? fmt::format("PC {:04x}", top->pc_offset) : top->sass;
        change.metric = metric;
        change.before = now_is_after ? there : here;
        change.after = now_is_after ? here : there;
        change.opcodes_before = lost;
        change.opcodes_after = gained;
        return change;
      };
      std::set<std::string> metrics;
      for (const auto& [metric, value] : line.values)
        metrics.insert(metric);
      if (old != nullptr) {
        for (const auto& [metric, value] : old->values)
          metrics.insert(metric);
      }
      // Only the metrics asked for decide whether the values changed: a per-line baseline keeps a few of the
      // counters a profile has, and a line whose kind changed must not hide behind one the caller drops.
      const auto asked_for = [&](const std::string& metric) {
        return metric_order.empty() ||
               std::find(metric_order.begin(), metric_order.end(), metric) != metric_order.end();
      };
      bool values_changed = false;
      for (const auto& metric : metrics) {
        const std::uint64_t here = value_of(line.values, metric);
        const std::uint64_t there = old != nullptr ? value_of(old->values, metric) : 0;
        if (here == there)
          continue;
        values_changed = values_changed || asked_for(metric);
        changes.push_back(change_of(metric, here, there));
      }
      if (values_changed || (gained.empty() && lost.empty()))
        continue;
      std::string metric;
      for (const auto& wanted : metric_order) {
        if (value_of(line.values, wanted) > 0) {
          metric = wanted;
          break;
        }
      }
      if (metric.empty() && !metrics.empty())
        metric = *metrics.begin();
      const std::uint64_t value = value_of(line.values, metric);
      kind_changes.push_back(change_of(metric, value, value));
    }
  };
  for (const auto& blame : after)
    compare(blame, find_function(before, blame.mangled), true);
  for (const auto& blame : before)
    compare(blame, find_function(after, blame.mangled), false);
  std::stable_sort(changes.begin(), changes.end(),
                   [](const blame_change& a, const blame_change& b) { return delta(a) > delta(b); });
  changes.insert(changes.end(), kind_changes.begin(), kind_changes.end());
  return changes;
}

}  // namespace counterguard
