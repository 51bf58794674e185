// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/model/case_instance.hpp"

namespace counterguard {

// The work queue of several GPU workers, by group: the instances profiled with one profiler configuration
// (worker_configurations.hpp), or without configurations the instances of one case (which share their
// counters). A worker that runs a group back to back sets the profiler up once (measured on an H200: the
// first capture after a set-up takes 0.14 s, later ones none), while one group handed alternately to two
// workers makes each set it up again and again (on two H200s, --devices all took 1.26x one GPU's time when
// the groups were cases and cases shared configurations: validation/multi_gpu_checks.sh). So a worker keeps
// to a group until its instances are gone, starts a group no other worker is on (configurations in the order
// one GPU's worker profiles them, hardware counters before instrumented ones; cases the most expensive
// first), and only when none is left helps with another worker's group.
class case_group_queue {
 public:
  // `costs`: one estimate per instance (estimate_case_costs); a group costs the sum of its instances.
  // `configurations`: one per instance, the profiler configuration it is profiled with (-1: none); empty:
  // group by case.
  case_group_queue(const std::vector<case_instance>& instances, const std::vector<double>& costs,
                   const std::vector<int>& configurations = {});

  [[nodiscard]] bool empty() const { return m_queue.empty(); }
  [[nodiscard]] std::size_t size() const { return m_queue.size(); }
  // The next position for a worker whose last case was `last_group` (nullopt: none yet), while other workers
  // are on `busy_groups`. Removes it from the queue; nullopt when the queue is empty.
  [[nodiscard]] std::optional<std::size_t> take(const std::optional<std::size_t>& last_group,
                                                const std::vector<std::size_t>& busy_groups);
  // Puts a position back at the front (its worker stopped before it began).
  void put_back(std::size_t position) { m_queue.push_front(position); }
  // Whether instances of `group` are still queued.
  [[nodiscard]] bool holds(std::size_t group) const;
  // The case (group) an instance belongs to.
  [[nodiscard]] std::size_t group_of(std::size_t position) const { return m_group_of.at(position); }

 private:
  std::deque<std::size_t> m_queue;  // positions: cases most expensive first, each case's instances in order
  std::vector<std::size_t> m_group_of;  // by position
};

}  // namespace counterguard
