// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/history/run_values.hpp"
#include "counterguard/metrics/metric_class.hpp"

namespace counterguard {

// What `counterguard compare` says about one metric.
enum class change_finding {
  unchanged,          // the same value on both sides
  changed,            // an exact or static metric moved: always flagged
  within_noise,       // a noisy metric moved by less than the threshold in robust z
  likely_change,      // a noisy metric moved by at least the threshold: flagged
  no_noise_estimate,  // a noisy metric moved, and the history has too few earlier values to judge
  only_in_a,          // measured in A only (or NaN in B)
  only_in_b,          // measured in B only (or NaN in A)
};
[[nodiscard]] const char* to_string(change_finding finding);  // "unchanged", "changed", "within_noise", ...

struct metric_change {
  std::string instance;
  std::string kernel;  // kernel key: "total" for the case totals
  std::string metric;
  metric_class cls = metric_class::exact;  // B's class (A's when B lacks the metric)
  std::optional<double> a;
  std::optional<double> b;
  std::optional<double> delta;     // b - a
  std::optional<double> relative;  // delta / |a|, when a != 0
  change_finding finding = change_finding::unchanged;
  std::size_t noise_samples = 0;      // earlier values the noise estimate used (0: none consulted)
  std::optional<double> noise_sigma;  // robust sigma of those values
  std::optional<double> z;            // change_z_score(delta, sigma) (may be infinite)

  // An exact/static change or a likely noisy change: what --fail-on-change fails on.
  [[nodiscard]] bool flagged() const {
    return finding == change_finding::changed || finding == change_finding::likely_change;
  }
};

// One side of a comparison: what the console shows as "A" or "B".
struct comparison_side {
  std::string label;  // the file path, or "run 12" from the history
  std::optional<std::int64_t> history_run_id;
  run_values values;
};

struct case_status_change {
  std::string instance;
  case_status a = case_status::passed;
  case_status b = case_status::passed;
};

struct comparison_options {
  double z_threshold = 3.5;  // |z| >= this: likely change
  std::size_t minimum_noise_samples = 3;
};

// The earlier values of one metric (instance, kernel key, metric) that its noise is estimated from;
// empty when there is no history.
using noise_history = std::function<std::vector<double>(
    const std::string& instance, const std::string& kernel, const std::string& metric)>;

struct run_comparison {
  std::string a_label;
  std::string b_label;
  std::optional<std::int64_t> a_run_id;  // the history's run ids, when a side came from the history
  std::optional<std::int64_t> b_run_id;
  run_metadata a_metadata;
  run_metadata b_metadata;
  bool history_consulted = false;  // a noise history was given
  double z_threshold = 3.5;
  std::vector<metric_change> metrics;  // by instance, kernel key ("total" first) and metric
  std::vector<std::string> cases_only_in_a;
  std::vector<std::string> cases_only_in_b;
  std::vector<case_status_change> status_changes;

  [[nodiscard]] std::size_t count(change_finding finding) const;
  [[nodiscard]] std::size_t flagged() const;
};

// Compares every metric of every case instance the two sides share (totals and per-kernel values), and
// lists the instances found on one side only. `history` may be empty (no noise estimates).
[[nodiscard]] run_comparison compare_runs(const comparison_side& a, const comparison_side& b,
                                          const noise_history& history, const comparison_options& options);

}  // namespace counterguard
