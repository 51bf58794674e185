// --shard I/N: the part of the selected case instances this job runs (runner/shard_plan.hpp).
#include <fmt/format.h>

#include <cstdio>

#include "commands.hpp"
#include "counterguard/runner/shard_plan.hpp"

namespace counterguard::detail {

shard_selection select_shard(std::vector<case_instance> instances, const std::string& shard_text,
                             const case_cost_table& costs, bool quiet) {
  shard_selection selection;
  if (shard_text.empty()) {
    selection.instances = std::move(instances);
    return selection;
  }
  const shard_spec spec = parse_shard_spec(shard_text);
  std::vector<std::string> names;
  names.reserve(instances.size());
  for (const auto& instance : instances)
    names.push_back(instance.name);
  const shard_assignment assignment = assign_shards(names, estimate_case_costs(instances, costs), spec.count);
  selection.shard = make_shard_record(assignment, spec);
  selection.instances.reserve(selection.shard->positions.size());
  for (const std::size_t position : selection.shard->positions)
    selection.instances.push_back(std::move(instances[position]));
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

}  // namespace counterguard::detail
