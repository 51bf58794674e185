#pragma once
// The subcommands of the command line; each returns the process exit status (docs/cli.md).

#include <functional>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/baselines/noise_model.hpp"
#include "counterguard/build_info.hpp"
#include "counterguard/core/markdown_budget.hpp"
#include "counterguard/history/metric_history.hpp"
#include "counterguard/model/case_instance.hpp"
#include "counterguard/results/run_results.hpp"
#include "counterguard/runner/case_cost.hpp"
#include "counterguard/runner/isolated_runner.hpp"

namespace CLI {
class App;
}

namespace counterguard::detail {

// Options shared by the commands that load suites.
struct selection_options {
  std::vector<std::string> paths{"cases"};
  std::string filter;
  std::string chip = COUNTERGUARD_DEFAULT_CHIP;  // raw CUPTI metric names are validated for this chip
  // Whether cases that select launches of a program (`select:`, for `exec`) may be among them; commands that
  // run registered variants refuse them with a message that says to use `exec`.
  bool allow_program_cases = false;
};

// Where results go besides the console.
struct report_options {
  std::string json;
  std::string junit;
  std::string markdown;
  std::size_t markdown_limit = default_markdown_limit;  // characters; 0: no limit
  std::string html;
  std::string baseline_dir = "baselines";
  bool no_baselines = false;
  double false_alarm_rate = default_false_alarm_rate;  // per noisy baseline check
  bool strict = false;
  bool quiet = false;
  std::string history;  // record the results into this history database (docs/history.md)
};

// The GPUs a profiling command uses (docs/scaling.md).
struct device_options {
  int device = 0;             // --device N
  bool device_given = false;  // --device was on the command line (else ctest's assignment wins)
  std::string devices;        // --devices all|0,1,...: one worker per GPU; empty: one GPU
};

struct run_options {
  selection_options selection;
  report_options reports;
  std::string save_counter_data;
  std::vector<std::string> extra_metrics;
  bool require_gpu = false;
  double case_timeout_seconds = 120.0;
  double wait_for_gpu_seconds = 600.0;
  device_options devices;
  std::vector<std::string> cost_from;  // results files whose per-case seconds estimate each case's cost
  std::string shard;                   // --shard I/N; empty: every selected instance
  std::string command_line;
  bool blame_every_failure = false;         // --blame: every failing case, not only regressed exact metrics
  bool no_blame = false;                    // --no-blame
  std::size_t blame_top = 5;                // source lines per blamed case
  std::vector<std::string> blame_external;  // --blame-external: third-party include directories
};

struct evaluate_options {
  std::string directory;
  selection_options selection;
  report_options reports;
  std::vector<std::string> cost_from;  // default: the recording's own per-case seconds
  std::string shard;
  std::string command_line;
};

struct baseline_update_options {
  selection_options selection;
  std::string baseline_dir = "baselines";
  int repeat = 5;
  std::string summary;  // Markdown summary file (also printed)
  // Over this many characters, `summary` is shortened and the complete one goes to <summary>.full.md.
  std::size_t summary_limit = default_markdown_limit;
  std::vector<std::string> extra_metrics;
  double case_timeout_seconds = 120.0;
  double wait_for_gpu_seconds = 600.0;
  device_options devices;
  std::vector<std::string> cost_from;
  std::string command_line;
  std::string history;  // record every repetition into this history database
  // Noisy entries pool the last N values --history recorded for the GPU key (0: the repetitions alone).
  std::size_t from_history = 0;
  bool replace_all = false;  // replace entries the refresh agrees with too (docs/baselines.md)
  bool with_lines = false;   // also write the per-line profiles of exact metrics (docs/blame.md)
  std::vector<std::string> blame_external;  // --blame-external: third-party include directories
};

// `static --binary`: the kernels' resources read from compiled programs, libraries, cubins or fat binaries.
struct static_binary_options {
  std::vector<std::string> binaries;
  std::string json;
  bool quiet = false;
  std::string command_line;
  // With --cases: the static expectations of these suites' cases checked against the binaries' kernels
  // (static_binary_checks.hpp), reported with `reports` (its json stays the binaries' JSON above).
  selection_options cases;
  report_options reports;
};

int run_static(const selection_options& selection, const report_options& reports,
               const std::string& command_line);
int run_static_binary(const static_binary_options& options);
int run_profiling(const run_options& options);
int run_evaluate(const evaluate_options& options);
int run_baseline_update(const baseline_update_options& options);
int run_metrics_list(const std::string& chip, bool raw, bool json);
int run_metrics_validate(const selection_options& selection);
int run_kernels_list();
int run_worker(const std::string& request_file);
int run_launch(const selection_options& selection);

// Commands that register themselves: each returns what to do once the command line is parsed, which is the
// exit status when its command was chosen and std::nullopt otherwise.
using command_action = std::function<std::optional<int>()>;
command_action add_history_commands(CLI::App& app);  // history import | list (history_command.cpp)
command_action add_compare_command(CLI::App& app);   // compare (compare_command.cpp)
command_action add_exec_command(CLI::App& app);      // exec (exec_command.cpp)

// For `counterguard exec ... -- program args`: removes "--" and everything after it from `arguments` and
// keeps it as the program to run; leaves other command lines alone (exec_command.cpp).
void take_exec_program(std::vector<char*>& arguments);

// `evaluate DIR` for a directory recorded by `counterguard exec` (exec_command.cpp).
int run_exec_evaluate(const evaluate_options& options);

// The report options (--json, --junit, --markdown, --html, --quiet and, with baselines, --baseline-dir,
// --no-baselines, --false-alarm-rate, --strict, --history) on a command.
void add_report_options(CLI::App& command, report_options& reports, bool with_baselines);

// baseline diff (baseline_diff_command.cpp), a subcommand of `baseline`.
command_action add_baseline_diff_command(CLI::App& baseline_command);

// Where the complete summary goes when a --summary file had to be shortened: out/x.md -> out/x.full.md.
[[nodiscard]] std::string full_summary_path(const std::string& summary);

command_action add_merge_command(CLI::App& app,
                                 const std::string& command_line);  // merge (merge_command.cpp)
command_action add_list_command(CLI::App& app);                     // list (list_command.cpp)
command_action add_plan_command(CLI::App& app);                     // plan (plan_command.cpp)
command_action add_sass_command(CLI::App& app);                     // sass (sass_command.cpp)
command_action add_blame_command(CLI::App& app);                    // blame (blame_command.cpp)

// The selected instances of shard `shard_text` ("I/N"; empty: all of them), balanced by `costs`, and the
// record its results file carries (shard_selection.cpp).
struct shard_selection {
  std::vector<case_instance> instances;
  std::optional<shard_record> shard;
};
[[nodiscard]] shard_selection select_shard(std::vector<case_instance> instances,
                                           const std::string& shard_text, const case_cost_table& costs,
                                           bool quiet);

// The devices to profile on (device_choice.cpp): --devices, else --device, else the GPU ctest assigned
// (CTEST_RESOURCE_GROUP_0_GPUS), else device 0. Empty when `--devices all` finds no GPU.
[[nodiscard]] std::vector<int> chosen_devices(const device_options& options);

// chosen_devices and, for --devices, their UUIDs (the parent locks them), looked up on a thread of its own
// from when it is made: the CUDA driver initialises (about 0.1 s on the H200, validation/h200.md) while
// the suites are read. Without --devices nothing touches CUDA (the one worker locks its GPU). A malformed
// --devices list is an input_error at once.
class device_lookup {
 public:
  struct found {
    std::vector<int> devices;
    std::vector<std::string> uuids;  // with --devices, one per device ("" where the driver gave none)
  };
  explicit device_lookup(device_options options);
  // Waits for the lookup; rethrows what it threw (a device that does not exist: input_error).
  [[nodiscard]] const found& get() const;
  [[nodiscard]] const device_options& options() const { return m_options; }

 private:
  device_options m_options;
  std::shared_future<found> m_found;
};

// Profiles on the devices `devices` found: with --devices, one worker per GPU fed from one queue
// (run_on_devices, also for a single GPU); else run_isolated on the one device (or on `options.device` when
// `--devices all` found none, so the worker reports why), whose worker profiles the cases of one profiler
// configuration one after another. Results come back in the order given.
[[nodiscard]] isolated_run_outcome profile_instances(const std::vector<case_instance>& instances,
                                                     const std::vector<double>& costs,
                                                     const device_lookup& devices, isolated_run_options run,
                                                     const std::string& chip);

// Records `results` into the history database at `database` (created when missing) and says so on stderr.
// `distinguisher` separates runs whose results are identical by design (baseline update repetitions).
void record_into_history(const std::string& database, const run_results& results, const std::string& origin,
                         const std::string& distinguisher = {});

// Loads, expands and filters the selected suites; validates raw CUPTI metric names for the chip.
[[nodiscard]] std::vector<case_instance> select_instances(const selection_options& selection);
// The same without the metric names' check (a GPU worker checks them for its chip while CUDA starts).
[[nodiscard]] std::vector<case_instance> load_instances(const selection_options& selection);
// Every raw CUPTI metric the instances need exists on `chip` (raw_metric_name_check.hpp), else input_error.
void validate_raw_metric_names(const std::vector<case_instance>& instances, const std::string& chip);
// The options that fill `selection`: suite paths, --filter, --chip.
void add_selection(CLI::App& command, selection_options& selection);

// Metadata every results file carries (version, git commit, command line, start time).
[[nodiscard]] run_metadata host_metadata(const std::string& mode, const std::string& command_line);

// Static measurements and checks for every instance (no GPU); `only_static` skips non-static expectations.
[[nodiscard]] run_results static_results(const std::vector<case_instance>& instances,
                                         const std::string& command_line);

// Checks a measured run against each instance's expectations (all of them: a GPU run or its evaluation).
void check_all_expectations(run_results& results, const std::vector<case_instance>& instances);

// Compares with baselines (unless disabled), settles case statuses, prints and writes the reports;
// returns the exit status.
// `before_reports` runs once the statuses are settled, before anything is printed (run's source-line blame).
int judge_and_report(run_results& results, const report_options& reports,
                     const std::function<void(run_results&)>& before_reports = {});

// Prints the console report and writes the requested JSON, JUnit, Markdown and HTML files; the HTML report
// plots `history` (the recorded series of the run's GPU key, when a history database is given).
void write_reports(const run_results& results, const report_options& reports,
                   const std::vector<metric_history>& history = {});

// Copies what the GPU worker saw of the device (name, chip, SMs, versions, clocks) and sets the GPU key.
void adopt_device(run_metadata& metadata, const run_metadata& device);

// Path of this program, for starting worker processes.
[[nodiscard]] std::string self_executable();

}  // namespace counterguard::detail
