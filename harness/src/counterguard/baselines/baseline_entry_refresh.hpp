// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "counterguard/baselines/baseline_comparison.hpp"
#include "counterguard/baselines/baseline_file.hpp"

namespace counterguard {

// Earlier values of one metric of one case instance from separate runs on the refresh's GPU key, oldest
// first: what `baseline update --from-history N` adds to the samples of a noisy entry. The baselines area
// does not read the history itself (it is the area above); the caller passes the values in
// (history/recorded_baseline_values.hpp builds this from a history store). `kernel` is a kernel key
// ("total" for the case).
using earlier_values_source = std::function<std::vector<double>(
    const std::string& instance, const std::string& kernel, const std::string& metric)>;

// How a refresh treats the entries it measured (docs/baselines.md, "Refreshing").
struct baseline_refresh_options {
  // Noisy entries only: earlier values joined to the refresh's repetitions; empty: the repetitions alone.
  earlier_values_source earlier_values;
  // Keep an entry as it is when the refresh agrees with it (refresh_baseline_entry); false replaces every
  // entry measured (`--replace-all`).
  bool keep_entries_inside_band = true;
  // An exact metric whose repetitions differ is recorded as noisy (noise kind `relative`) rather than exact:
  // the kernels of programs nobody prepared may vary between identical runs (a decoupled look-back scan, an
  // autotuner choosing another variant), and an exact band would fail at random.
  bool varying_exact_as_noisy = false;
  // The bands the refresh is judged against (an entry's own false_alarm_rate wins).
  baseline_comparison_options comparison;
};

// One measured metric of one case instance, as the refresh sees it.
struct entry_refresh_inputs {
  std::string instance;
  std::string kernel;  // kernel key
  std::string metric;
  std::vector<double> repetitions;  // this refresh's values (non-finite ones are skipped)
  std::vector<double> earlier;      // earlier recorded values, oldest first (used for noisy entries only)
  // The entry the repetitions alone give (make_baseline_entry), with the tolerance, floor, noise kind and
  // false-alarm rate a human wrote into `existing` already carried over.
  baseline_entry fresh;
  const baseline_entry* existing = nullptr;  // null: the metric has no entry yet
};

struct entry_refresh_outcome {
  baseline_entry entry;      // what the file records from now on
  bool kept = false;         // `entry` is `existing`, unchanged
  int earlier_used = 0;      // earlier values among entry's samples (entry.from_history)
  int earlier_left_out = 0;  // earlier values outside the repetitions' own band: from before a change
};

// Decides one entry of a refresh:
//   kept when keep_entries_inside_band, the class and direction did not change, and
//     - noisy: the entry has the noise model's statistics (mean, sd) and every repetition passes its
//       band (compare_with_baseline: neither regression nor improvement), or
//     - static / exact: the repetitions' value, min and max equal the entry's (n may differ);
//   otherwise replaced by `fresh`, and for a noisy entry with earlier values, by the entry of the
//   repetitions plus the earlier values that fall inside fresh's own band (earlier values outside it were
//   measured before the change this refresh records, and would smear two levels into one band); the entry's
//   from_history says how many were used. A version 1 noisy entry (no mean and sd) is always replaced.
[[nodiscard]] entry_refresh_outcome refresh_baseline_entry(const entry_refresh_inputs& inputs,
                                                           const baseline_refresh_options& options);

}  // namespace counterguard
