// SPDX-License-Identifier: Apache-2.0
// Application replay's runs merged on counter data recorded on an H200
// (harness/test/fixtures/h200_builtin): each run keeps some of the launch's counters, as a run
// collecting one pass group would; the merged recording measures exactly what one run with every counter
// measures.
#include "counterguard/exec/replay_run_merge.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;

const fs::path builtin_recording = fs::path(COUNTERGUARD_SOURCE_DIR) / "harness/test/fixtures/h200_builtin";
const std::string atomics_case = "atomics/per_thread?block=128";  // fixture 0000: one launch, 3 counters

case_instance merged_case_instance() {
  case_instance instance;
  instance.suite = "atomics";
  instance.case_name = atomics_case.substr(atomics_case.find('/') + 1);
  instance.name = atomics_case;
  launch_selector selector;
  selector.kernel = name_pattern::glob("per_thread");
  instance.select = selector;
  for (const char* metric :
       {"global_reduction_requests", "global_atomic_requests", "shared_atomic_instructions"}) {
    resolved_expectation expectation;
    expectation.metric = metric;
    instance.expectations.push_back(expectation);
  }
  return instance;
}

// One run's process: the fixture launch `launches` times, keeping counters [first, first + count).
std::vector<recorded_process> run_keeping(std::size_t first, std::size_t count, int launches = 2,
                                          std::int64_t pid = 100) {
  recorded_process process;
  process.record.process.pid = pid;
  process.record.process.started_ns = pid;
  process.record.process.executable = "/work/bin/app";
  const archived_case recorded = load_counter_data_archive(builtin_recording / "0000").cases.front();
  for (int l = 0; l < launches; ++l) {
    recorded_launch launch;
    launch.cases = {atomics_case};
    launch.ordinals = {l};
    launch.nvtx = "main/step";
    launch.data = recorded;
    launch.data.raw_metrics.assign(recorded.raw_metrics.begin() + static_cast<std::ptrdiff_t>(first),
                                   recorded.raw_metrics.begin() + static_cast<std::ptrdiff_t>(first + count));
    launch.launch_milliseconds = 0.4;
    process.launches.push_back(std::move(launch));
  }
  return {process};
}

double total(const exec_evaluation& evaluation, const std::string& metric) {
  return evaluation.results.at(0).totals.at(metric).value;
}

TEST(replay_run_merge, merged_runs_measure_exactly_what_one_run_with_every_counter_measures) {
  const exec_evaluation one_run =
      evaluate_exec_recording(run_keeping(0, 3), {merged_case_instance()}, {}, {});
  const std::vector<recorded_process> merged =
      merge_replay_runs({run_keeping(0, 1), run_keeping(1, 2, 2, 200)});
  ASSERT_EQ(merged.at(0).launches.at(0).further_groups.size(), 1U);
  EXPECT_EQ(merged.at(0).launches.at(0).runs.size(), 2U);
  const exec_evaluation replayed = evaluate_exec_recording(merged, {merged_case_instance()}, {}, {});
  for (const char* metric :
       {"global_reduction_requests", "global_atomic_requests", "shared_atomic_instructions"}) {
    EXPECT_EQ(total(replayed, metric), total(one_run, metric)) << metric;
  }
  EXPECT_EQ(replayed.results.at(0).kernels.size(), 2U);
}

TEST(replay_run_merge, a_launch_the_first_run_collected_whole_keeps_its_own_counters) {
  std::vector<recorded_process> first = run_keeping(0, 3);
  first[0].launches[0].every_group_collected = true;  // automatic replay kernel-replayed it
  const std::vector<recorded_process> merged = merge_replay_runs({first, run_keeping(1, 2, 2, 200)});
  EXPECT_TRUE(merged.at(0).launches.at(0).further_groups.empty());
  EXPECT_EQ(merged.at(0).launches.at(0).runs.size(), 2U);
  EXPECT_EQ(merged.at(0).launches.at(1).further_groups.size(), 1U);
}

TEST(replay_run_merge, a_run_that_collected_only_some_counters_leaves_the_others_unmeasured) {
  const exec_evaluation partial =
      evaluate_exec_recording(run_keeping(0, 1), {merged_case_instance()}, {}, {});
  const auto& totals = partial.results.at(0).totals;
  const auto found = totals.find("shared_atomic_instructions");
  EXPECT_TRUE(found == totals.end() || std::isnan(found->second.value))
      << "only the first counter was collected";
}

TEST(replay_run_merge, runs_whose_selected_launches_differ_are_refused_naming_the_first_difference) {
  std::vector<recorded_process> second = run_keeping(1, 2);
  second[0].launches[1].nvtx = "main/other";
  try {
    static_cast<void>(merge_replay_runs({run_keeping(0, 1), second}));
    FAIL() << "merged runs that differ";
  } catch (const input_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("the selected launches of the program's run 1 and run 2 differ"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("profiled launch 1 is kernel 'counterguard::kernels::atomics::per_thread' (NVTX "
                           "main/step; atomics/per_thread?block=128 match 1) in run 1 and"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("--replay-mode kernel"), std::string::npos) << message;
  }
}

TEST(replay_run_merge, a_run_with_fewer_launches_is_refused) {
  try {
    static_cast<void>(merge_replay_runs({run_keeping(0, 1, 2), run_keeping(1, 2, 1)}));
    FAIL() << "merged runs with different launch counts";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("profiled launch 1 in run 1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace counterguard
