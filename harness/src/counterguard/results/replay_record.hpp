// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace counterguard {

class json_reader;

// Where one profiled launch's time went under `counterguard exec`, over every run of the program that
// profiled it.
struct replay_launch_time {
  std::string instance;  // the first case instance it was profiled for
  std::string kernel;
  int passes = 0;                    // replay passes over all runs
  int runs = 1;                      // runs of the program that profiled it
  double setup_milliseconds = 0.0;   // counters lock and profiler set-up before the launch
  double replay_milliseconds = 0.0;  // the launch and its replay passes, the estimated restore excluded
  // The launch's time beyond its passes' one-pass cost, where that cost was measured (a one-pass run of the
  // same launch, or one-pass launches of the same kernel): CUPTI reports no finer split. Unset: not known.
  std::optional<double> restore_milliseconds;
  std::uint64_t device_bytes_in_use = 0;  // when the launch began
};

// How `exec` collected counters that need several passes (metadata.replay of its results).
struct replay_record {
  std::string requested;  // --replay-mode: "auto", "kernel", "application"
  std::string mode;       // what collected the counters beyond the first run's: "kernel" or "application"
  std::string decision;   // why, for auto
  std::vector<double> run_seconds;  // each run's program wall time, the first run first
  std::vector<replay_launch_time> launches;
};

[[nodiscard]] nlohmann::json replay_record_to_json(const replay_record& replay);
// Reads metadata.replay; errors name the file and the field (input_error).
[[nodiscard]] replay_record read_replay_record(const json_reader& in, const nlohmann::json& value,
                                               const std::string& path);

}  // namespace counterguard
