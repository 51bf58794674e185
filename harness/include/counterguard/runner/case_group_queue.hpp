#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/model/case_instance.hpp"

namespace counterguard {

// The work queue of several GPU workers, by case. The instances of one case share their counters, and so one
// profiler configuration: a worker that runs them back to back sets the profiler up once (measured on an
// H200: 0.15-0.27 s for a case's first instance, 0.01 s for the next), while instances of one case handed
// alternately to two workers make each worker set it up again. So a worker keeps to a case until its
// instances are gone, starts a case no other worker is on (the most expensive first), and only when none is
// left helps with another worker's case.
class case_group_queue {
 public:
  // `costs`: one estimate per instance (estimate_case_costs); a case costs the sum of its instances.
  case_group_queue(const std::vector<case_instance>& instances, const std::vector<double>& costs);

  [[nodiscard]] bool empty() const { return m_queue.empty(); }
  [[nodiscard]] std::size_t size() const { return m_queue.size(); }
  // The next position for a worker whose last case was `last_group` (nullopt: none yet), while other workers
  // are on `busy_groups`. Removes it from the queue; nullopt when the queue is empty.
  [[nodiscard]] std::optional<std::size_t> take(const std::optional<std::size_t>& last_group,
                                                const std::vector<std::size_t>& busy_groups);
  // Puts a position back at the front (its worker stopped before it began).
  void put_back(std::size_t position) { m_queue.push_front(position); }
  // The case (group) an instance belongs to.
  [[nodiscard]] std::size_t group_of(std::size_t position) const { return m_group_of.at(position); }

 private:
  std::deque<std::size_t> m_queue;  // positions: cases most expensive first, each case's instances in order
  std::vector<std::size_t> m_group_of;  // by position
};

}  // namespace counterguard
