// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <optional>
#include <string>

#include "counterguard/baselines/noise_model.hpp"
#include "counterguard/metrics/metric_class.hpp"

namespace counterguard {

// Version of the baseline file format (docs/baselines.md). Bump on any incompatible change.
// 2 added the noise model's statistics (mean, sd, noise, false_alarm_rate); version 1 files are still read.
inline constexpr int baseline_schema_version = 2;

// The kernel key of a case's totals in a baseline file; other keys name kernels (see kernel_key()).
inline constexpr const char* baseline_total_key = "total";

// One metric's baseline: the median of N refresh runs and their spread.
struct baseline_entry {
  double value = 0.0;
  metric_class cls = metric_class::exact;
  double min = 0.0;
  double max = 0.0;
  int n = 1;
  metric_direction direction = metric_direction::lower_is_better;
  std::optional<double> tolerance;       // relative, set by a human; none: the class default
  std::optional<double> absolute_floor;  // counts of slack for noisy metrics; none: the default (32)
  // Schema version 2, noisy entries (docs/baselines.md, "Noise model"): the samples' mean and standard
  // deviation (written by `baseline update`; absent in version 1 files), the noise model's kind (none: from
  // the metric's name) and a per-entry false-alarm probability (none: --false-alarm-rate or the default).
  std::optional<double> mean;
  std::optional<double> sd;
  std::optional<noise_kind> noise;
  std::optional<double> false_alarm_rate;
  // Schema version 2, noisy entries refreshed with `baseline update --from-history`: how many of the n
  // samples behind value, min, max, mean and sd were earlier recorded runs rather than this refresh's
  // repetitions (absent: none). Files without it, and version 1 files, read as before.
  std::optional<int> from_history;

  friend bool operator==(const baseline_entry& a, const baseline_entry& b);
  friend bool operator!=(const baseline_entry& a, const baseline_entry& b) { return !(a == b); }
};

using baseline_metrics = std::map<std::string, baseline_entry>;  // by metric name
using baseline_case = std::map<std::string, baseline_metrics>;   // by kernel key ("total" for the case)

struct baseline_metadata {
  std::string gpu_name;
  std::string driver;
  std::string cuda;
  std::string cupti;
  std::string date;
  std::string git_commit;
  std::string counterguard_version;
};

// baselines/<gpu_key>/<suite>.yaml.
struct baseline_file {
  int schema_version = baseline_schema_version;
  std::string gpu_key;
  std::string suite;
  baseline_metadata metadata;
  std::map<std::string, baseline_case> cases;  // by case instance name
};

// The key of the `occurrence`-th launch (0-based) of `function` within a case: the function name for
// the first launch, "<function>#<occurrence>" for later ones. Stable when other kernels are added.
[[nodiscard]] std::string kernel_key(const std::string& function, int occurrence);

// The YAML text of a baseline file, in a stable order (cases by instance name, "total" first and then
// kernels by key, metrics by name), so writing what was read gives the same bytes.
[[nodiscard]] std::string render_baseline_yaml(const baseline_file& file);

// Parses and validates a baseline file's text; `path` is used in error messages. Throws input_error
// naming path:line:column, the field and what would be valid.
[[nodiscard]] baseline_file parse_baseline_yaml(const std::string& text, const std::string& path);

// Reads a baseline file; std::nullopt when the file does not exist (no baselines yet).
[[nodiscard]] std::optional<baseline_file> load_baseline_file(const std::string& path);

// Writes a baseline file atomically (write_file_atomically).
void save_baseline_file(const std::string& path, const baseline_file& file);

// baselines/<gpu_key>/<suite>.yaml under `directory`.
[[nodiscard]] std::string baseline_path(const std::string& directory, const std::string& gpu_key,
                                        const std::string& suite);

}  // namespace counterguard
