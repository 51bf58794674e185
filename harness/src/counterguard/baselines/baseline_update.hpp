// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/baselines/baseline_entry_refresh.hpp"
#include "counterguard/baselines/baseline_file.hpp"
#include "counterguard/baselines/noise_model.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// How a metric is classified when its baseline entry is created.
struct metric_traits {
  metric_class cls = metric_class::exact;
  metric_direction direction = metric_direction::lower_is_better;
  std::optional<double> absolute_floor;   // written into new noisy entries (2 points for percentages)
  noise_kind noise = noise_kind::counts;  // the noise model's kind, written into noisy entries
};

using metric_classifier = std::function<metric_traits(const std::string& metric)>;

// Classifies through metric_catalog::builtin(): the alias's class and direction, or the guess for a raw
// CUPTI name; percentages get an absolute floor of 2 (points); the noise kind is noise_kind_of_metric's;
// names the catalog does not know are exact, lower-is-better.
[[nodiscard]] metric_traits catalog_metric_traits(const std::string& metric);

// One line of a baseline change list.
struct baseline_change {
  enum class kind { added, changed, removed };
  kind what = kind::changed;
  std::string instance;
  std::string kernel;  // kernel key; "total" for the case
  std::string metric;
  std::optional<baseline_entry> before;
  std::optional<baseline_entry> after;
};

struct baseline_update_result {
  baseline_file file;
  std::vector<baseline_change> changes;   // in file order; unchanged entries are not listed
  std::vector<std::string> measured;      // instances whose baselines were replaced
  std::vector<std::string> not_recorded;  // "instance: why" for cases that could not be used
  // "instance (kernel) metric: v1, v2, ...": exact metrics whose repetitions differed, recorded as noisy
  // (baseline_refresh_options::varying_exact_as_noisy).
  std::vector<std::string> recorded_as_noisy;
  std::size_t kept = 0;              // entries measured and left as they were (refresh_baseline_entry)
  std::size_t earlier_used = 0;      // earlier recorded values joined to noisy entries' samples
  std::size_t earlier_left_out = 0;  // earlier recorded values outside the refresh's band (a change)
};

// Merges N repetitions of a run into the baseline file of `suite`:
//   value = median of the N measurements (mean of the middle two for even N), min / max / n = spread;
//   noisy entries also mean, sd and the classifier's noise kind (make_baseline_entry);
//   class = the case total's reported class, else the classifier's; direction from the classifier;
//   a human's `tolerance`, `absolute_floor`, `noise` and `false_alarm_rate` on an existing entry are kept;
//   an entry the refresh agrees with stays exactly as it was, and noisy entries may pool earlier recorded
//   values (refresh_baseline_entry, `options`; the overload without options uses the defaults).
// The file is written as schema version 2.
// Only the instances measured (cases of `suite` that ran and were not wrong: status passed or failed,
// verified != false, in every repetition) are replaced; every other case of `existing` stays as it was.
// A metric an updated instance no longer measures is removed. `existing` may be absent (a new file).
// Throws input_error when `existing` belongs to another GPU key than the runs'.
[[nodiscard]] baseline_update_result update_baseline(const std::optional<baseline_file>& existing,
                                                     const std::string& suite,
                                                     const std::vector<run_results>& repetitions,
                                                     const metric_classifier& classify,
                                                     const std::string& existing_path = {});
[[nodiscard]] baseline_update_result update_baseline(const std::optional<baseline_file>& existing,
                                                     const std::string& suite,
                                                     const std::vector<run_results>& repetitions,
                                                     const metric_classifier& classify,
                                                     const baseline_refresh_options& options,
                                                     const std::string& existing_path = {});

// The change list as Markdown for a pull-request body: a heading with the suite and GPU key, counts,
// and tables of changed (old -> new, delta), added and removed entries.
[[nodiscard]] std::string render_change_summary_markdown(const baseline_update_result& update);

}  // namespace counterguard
