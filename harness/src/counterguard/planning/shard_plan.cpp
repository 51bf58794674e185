// SPDX-License-Identifier: Apache-2.0
#include "counterguard/planning/shard_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <numeric>

#include "counterguard/core/decimal_digits.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/stable_hash.hpp"

namespace counterguard {
shard_spec parse_shard_spec(const std::string& text, const std::string& field) {
  const auto slash = text.find('/');
  const bool split = slash != std::string::npos;
  const std::optional<int> index = split ? parse_decimal_digits(text.substr(0, slash), 6) : std::nullopt;
  const std::optional<int> count = split ? parse_decimal_digits(text.substr(slash + 1), 6) : std::nullopt;
  if (!index || !count || *index < 1 || *index > *count) {
    throw input_error({}, field, "'" + text + "' is not a shard",
                      "I/N with 1 <= I <= N, e.g. 1/4 .. 4/4 for four jobs");
  }
  shard_spec spec;
  spec.index = *index;
  spec.count = *count;
  return spec;
}

shard_assignment assign_shards(const std::vector<std::string>& names, const std::vector<double>& costs,
                               int count) {
  if (count < 1 || names.size() != costs.size())
    throw internal_error("assign_shards: needs one cost per name and at least one shard");
  std::vector<std::uint64_t> hashes(names.size());
  for (std::size_t i = 0; i < names.size(); ++i)
    hashes[i] = stable_hash(names[i]);
  std::vector<std::size_t> order(names.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (costs[a] != costs[b])
      return costs[a] > costs[b];
    if (hashes[a] != hashes[b])
      return hashes[a] < hashes[b];
    return names[a] < names[b];
  });
  shard_assignment assignment;
  assignment.shard_of.assign(names.size(), 0);
  assignment.load.assign(static_cast<std::size_t>(count), 0.0);
  std::vector<std::size_t> sizes(static_cast<std::size_t>(count), 0);
  for (const std::size_t i : order) {
    std::size_t best = 0;
    for (std::size_t s = 1; s < assignment.load.size(); ++s) {
      // The least loaded shard; among equals the one with fewer cases (so zero-cost cases spread too).
      if (assignment.load[s] < assignment.load[best] ||
          (assignment.load[s] == assignment.load[best] && sizes[s] < sizes[best]))
        best = s;
    }
    assignment.shard_of[i] = static_cast<int>(best);
    assignment.load[best] += costs[i];
    ++sizes[best];
  }
  std::uint64_t digest = stable_hash(std::to_string(count) + "\n");
  for (std::size_t i = 0; i < names.size(); ++i)
    digest = stable_hash(names[i] + "\t" + std::to_string(assignment.shard_of[i]) + "\n", digest);
  char text[17];
  std::snprintf(text, sizeof(text), "%016" PRIx64, digest);
  assignment.plan = text;
  return assignment;
}

shard_record make_shard_record(const shard_assignment& assignment, const shard_spec& spec) {
  shard_record record;
  record.index = spec.index;
  record.count = spec.count;
  record.total_instances = assignment.shard_of.size();
  record.plan = assignment.plan;
  for (std::size_t i = 0; i < assignment.shard_of.size(); ++i) {
    if (assignment.shard_of[i] == spec.index - 1)
      record.positions.push_back(i);
  }
  return record;
}

shard_selection select_shard(std::vector<case_instance> instances, const std::string& shard_text,
                             const case_cost_table& costs, bool quiet) {
  shard_selection selection;
  std::vector<double> all_costs = estimate_case_costs(instances, costs);
  if (shard_text.empty()) {
    selection.instances = std::move(instances);
    selection.costs = std::move(all_costs);
    return selection;
  }
  const shard_spec spec = parse_shard_spec(shard_text);
  std::vector<std::string> names;
  names.reserve(instances.size());
  for (const auto& instance : instances)
    names.push_back(instance.name);
  const shard_assignment assignment = assign_shards(names, all_costs, spec.count);
  selection.shard = make_shard_record(assignment, spec);
  selection.instances.reserve(selection.shard->positions.size());
  selection.costs.reserve(selection.shard->positions.size());
  for (const std::size_t position : selection.shard->positions) {
    selection.instances.push_back(std::move(instances[position]));
    selection.costs.push_back(all_costs[position]);
  }
  if (!quiet) {
    std::fputs(fmt::format(
                   "counterguard: shard {}/{}: {} of {} case instances (estimated {:.2f} s of {:.2f} s; "
                   "plan {})\n",
                   spec.index, spec.count, selection.instances.size(), names.size(),
                   assignment.load[static_cast<std::size_t>(spec.index - 1)],
                   [&] {
                     double sum = 0.0;
                     for (const double load : assignment.load)
                       sum += load;
                     return sum;
                   }(),
                   assignment.plan)
                   .c_str(),
               stderr);
  }
  return selection;
}

}  // namespace counterguard
