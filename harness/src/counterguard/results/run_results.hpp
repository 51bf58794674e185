// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/core/device_description.hpp"
#include "counterguard/core/source_location.hpp"
#include "counterguard/metrics/metric_class.hpp"
#include "counterguard/results/case_blame.hpp"
#include "counterguard/results/replay_record.hpp"
#include "counterguard/results/shard_record.hpp"

namespace counterguard {

class json_reader;

// Version of the results JSON (docs/results-schema.md). Bump on any incompatible change.
inline constexpr int results_schema_version = 1;

// The metrics measured for one kernel launch (one profiled range) of a case instance.
struct kernel_measurement {
  std::string function;  // demangled, without parameters: "counterguard::kernels::transpose::naive"
  std::string mangled;   // as the launch callback saw it
  int launch_index = 0;  // order within the case
  std::map<std::string, double> metrics;  // by the name the case used (alias or raw CUPTI name)
  // Metrics of the plan this launch could not be given, with why ("spill bytes: its module was loaded before
  // ..."): what a missing-metric check says.
  std::map<std::string, std::string> unmeasured;
};

// A measured metric value with its class, as reported.
struct metric_value {
  double value = 0.0;
  metric_class cls = metric_class::exact;
};

enum class case_status { passed, failed, skipped, error };
[[nodiscard]] const char* to_string(case_status status);

// What the checker decided about one metric of one case (against an expectation or a baseline).
enum class check_verdict {
  pass,         // within the expectation / baseline band
  fail,         // an absolute expectation is violated
  regression,   // worse than the baseline beyond tolerance
  improvement,  // better than the baseline beyond tolerance (fails only with --strict)
  new_metric,   // no baseline yet
  missing,      // the metric could not be measured
};
[[nodiscard]] const char* to_string(check_verdict verdict);

struct check_outcome {
  std::string metric;
  std::string kernel;    // empty: the case total
  std::string origin;    // "expectation" (from the YAML, with file:line) or "baseline"
  std::string expected;  // as it reads: "== 4063232", "<= 0", "32 (±0)"
  std::optional<double> measured;
  std::optional<double> baseline;
  check_verdict verdict = check_verdict::pass;
  bool failing = false;  // whether this outcome fails the case
  std::string message;   // one line a human can act on
  // The YAML expectation the check comes from (origin "expectation"; absent for baseline checks).
  std::optional<source_location> source;
};

struct case_result {
  std::string instance;  // "transpose/smem?pad=1,n=2048"
  std::string suite;
  std::string case_name;
  std::string kernel;  // registry name
  std::map<std::string, std::string> parameters;
  case_status status = case_status::passed;
  std::string status_reason;     // why skipped / failed / error
  std::optional<bool> verified;  // unset when the kernel did not run or has no verification
  std::string verification_message;
  bool unverified =
      false;  // the kernel ran, but its variant registers no verification: its output is unchecked
  // Expectations of counters (exact and noisy metrics) this case left unchecked because nothing was profiled
  // (`static`, or `run` without a GPU): they are neither passes nor failures.
  std::size_t counter_checks_not_run = 0;
  std::vector<kernel_measurement> kernels;
  std::map<std::string, metric_value> totals;  // the case as a whole (what expectations without kernel: use)
  std::vector<check_outcome> checks;
  int passes = 0;        // replay passes CUPTI needed
  double seconds = 0.0;  // wall time of this case (setup, profiling, verification)
  // Where the case is defined in its suite file (absent in results written before it was recorded).
  std::optional<source_location> source;
  // Source-line blame of the case's regressed counters (run --blame, or automatic; absent when not blamed).
  std::optional<case_blame> blame;
};

struct run_metadata {
  std::string counterguard_version;
  device_description device;  // empty where no GPU ran (static checks)
  std::string gpu_key;        // baselines/<gpu_key>/
  std::string git_commit;
  std::string command_line;
  std::string started_at;  // ISO 8601, UTC
  std::string mode;        // "run" (profiled on a GPU), "evaluate" (offline), "static"
  // The machine that ran the cases; empty in results written before it was recorded.
  std::string hostname;
  // Set when the file holds one shard of a run (--shard I/N); absent otherwise.
  std::optional<shard_record> shard;
  // Why no counter was measured ("no GPU", "`static` profiles nothing"); empty where the cases were profiled.
  std::string counters_not_run;
  // `exec`: how counters needing several passes were collected and where each profiled launch's time went.
  std::optional<replay_record> replay;
};

struct run_results {
  int schema_version = results_schema_version;
  run_metadata metadata;
  std::vector<case_result> cases;
};

void to_json(nlohmann::json& out, const run_results& results);
// Reads results JSON; `file` names it in errors. Every problem (a document that is not an object, a missing
// or mistyped field, an unknown schema version) is an input_error naming the file and the field path.
[[nodiscard]] run_results read_run_results(const nlohmann::json& document, const std::string& file);
// Reads a results JSON file (`counterguard run --json`).
[[nodiscard]] run_results load_run_results(const std::string& path);
// read_run_results for nlohmann's get<run_results>(); errors name "<results JSON>".
void from_json(const nlohmann::json& in, run_results& results);

// A device as results files write it: gpu_name, chip, sm_count, compute_capability, driver_version,
// cuda_runtime_version, cupti_version, sm_clock_mhz, memory_clock_mhz (members of the object at `path`).
[[nodiscard]] nlohmann::json device_to_json(const device_description& device);
[[nodiscard]] device_description read_device_description(const json_reader& reader,
                                                         const nlohmann::json& value,
                                                         const std::string& path);

}  // namespace counterguard
