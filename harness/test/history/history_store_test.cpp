// SPDX-License-Identifier: Apache-2.0
// The history store against the H200 recording: what is recorded reads back unchanged, recording is
// idempotent and atomic, and two processes may record at once.
#include "counterguard/history/history_store.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "counterguard/baselines/baseline_comparison.hpp"
#include "counterguard/baselines/baseline_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/history/history_source.hpp"
#include "counterguard/reporters/json_reporter.hpp"
#include "history_test_support.hpp"

namespace counterguard::test {
namespace {

const std::string padded = "transpose/smem_padded?n=2048";
const std::string noisy_metric = "shared_store_bank_conflicts_hw";  // 5669 in the recording

history_source source_of(const run_results& results, const std::string& origin = "results.json") {
  return {origin, results_content_hash(results)};
}

// The recording as if run `day` days later at another commit, with the padded transpose's hardware
// bank-conflict counter at `noisy_value`.
run_results later_run(int day, double noisy_value) {
  run_results results = recorded_h200_results();
  results.metadata.started_at =
      "2026-12-" + std::string(day < 10 ? "0" : "") + std::to_string(day) + "T00:00:00Z";
  results.metadata.git_commit = std::string(39, 'a') + std::to_string(day % 10);
  for (auto& c : results.cases) {
    if (c.instance == padded)
      c.totals.at(noisy_metric).value = noisy_value;
  }
  return results;
}

// The committed baselines of the recording's GPU key, applied as `counterguard evaluate` does.
void apply_committed_baselines(run_results& results) {
  std::map<std::string, baseline_file> files;
  std::map<std::string, std::string> paths;
  for (const auto& c : results.cases) {
    const std::string path =
        baseline_path(std::string(COUNTERGUARD_SOURCE_DIR) + "/baselines", results.metadata.gpu_key, c.suite);
    if (files.count(c.suite) == 0) {
      if (auto file = load_baseline_file(path)) {
        files.emplace(c.suite, std::move(*file));
        paths.emplace(c.suite, path);
      }
    }
  }
  apply_baselines(results, files, paths, baseline_comparison_options{});
}

bool same_value(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

TEST(history_store, records_the_h200_run_and_reads_every_value_back_unchanged) {
  scratch_directory dir;
  const run_results results = recorded_h200_results();
  history_store store(dir.file("history.db"));
  const record_outcome outcome = store.record(results, source_of(results));
  EXPECT_FALSE(outcome.already_recorded);

  std::size_t compared = 0;
  for (const auto& c : results.cases) {
    for (const auto& [kernel, metrics] : measured_by_kernel_key(c)) {
      for (const auto& [metric, value] : metrics) {
        const metric_history h = store.series(results.metadata.gpu_key, c.instance, kernel, metric, 0);
        ASSERT_EQ(h.points.size(), 1U) << c.instance << " " << kernel << " " << metric;
        EXPECT_TRUE(same_value(h.points[0].value, value)) << c.instance << " " << metric;
        EXPECT_EQ(h.points[0].run_id, std::to_string(outcome.run_id));
        EXPECT_EQ(h.points[0].git_commit, results.metadata.git_commit);
        EXPECT_EQ(h.points[0].started_at, results.metadata.started_at);
        if (kernel == baseline_total_key) {
          EXPECT_EQ(h.cls, c.totals.at(metric).cls) << c.instance << " " << metric;
        }
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 700U);  // 402 case totals and their per-launch values
  EXPECT_EQ(store.all_series(results.metadata.gpu_key, 0).size(), compared);
}

TEST(history_store, keeps_the_run_metadata_and_case_counts) {
  scratch_directory dir;
  const run_results results = recorded_h200_results();
  history_store store(dir.file("history.db"));
  const record_outcome outcome = store.record(results, source_of(results, "artifacts/results.json"));
  const std::vector<run_record> runs = store.runs();
  ASSERT_EQ(runs.size(), 1U);
  const run_record& run = runs.front();
  EXPECT_EQ(run.id, outcome.run_id);
  EXPECT_EQ(nlohmann::json(run_results{1, run.metadata, {}})["metadata"],
            nlohmann::json(run_results{1, results.metadata, {}})["metadata"]);
  EXPECT_EQ(run.source, "artifacts/results.json");
  EXPECT_EQ(run.content_hash, results_content_hash(results));
  EXPECT_EQ(run.cases, 93);
  EXPECT_EQ(run.passed + run.failed + run.skipped + run.errors, 93);
}

TEST(history_store, load_values_gives_back_what_values_of_the_results_gives) {
  scratch_directory dir;
  const run_results results = recorded_h200_results();
  history_store store(dir.file("history.db"));
  const run_values loaded = store.load_values(store.record(results, source_of(results)).run_id);
  const run_values expected = values_of(results);
  ASSERT_EQ(loaded.cases.size(), expected.cases.size());
  for (std::size_t i = 0; i < expected.cases.size(); ++i) {
    EXPECT_EQ(loaded.cases[i].instance, expected.cases[i].instance);
    EXPECT_EQ(loaded.cases[i].status, expected.cases[i].status);
    ASSERT_EQ(loaded.cases[i].kernels.size(), expected.cases[i].kernels.size()) << expected.cases[i].instance;
    for (const auto& [kernel, metrics] : expected.cases[i].kernels) {
      for (const auto& [metric, reading] : metrics) {
        const metric_reading& got = loaded.cases[i].kernels.at(kernel).at(metric);
        EXPECT_TRUE(same_value(got.value, reading.value)) << expected.cases[i].instance << " " << metric;
        EXPECT_EQ(got.cls, reading.cls) << expected.cases[i].instance << " " << metric;
      }
    }
  }
}

TEST(history_store, recording_the_same_results_twice_is_a_no_op) {
  scratch_directory dir;
  const run_results results = recorded_h200_results();
  history_store store(dir.file("history.db"));
  const record_outcome first = store.record(results, source_of(results, "a.json"));
  const record_outcome second = store.record(results, source_of(results, "copy-of-a.json"));
  EXPECT_TRUE(second.already_recorded);
  EXPECT_EQ(second.run_id, first.run_id);
  EXPECT_EQ(store.runs().size(), 1U);
  EXPECT_EQ(store.series(results.metadata.gpu_key, padded, "total", noisy_metric, 0).points.size(), 1U);
}

TEST(history_store, a_results_file_hashes_like_the_run_that_wrote_it) {
  scratch_directory dir;
  const run_results results = recorded_h200_results();
  write_json_report(dir.file("results.json"), judge_run(results, false));
  EXPECT_EQ(results_content_hash(load_run_results(dir.file("results.json"))), results_content_hash(results));
  EXPECT_NE(results_content_hash(results, "repetition 2/5"), results_content_hash(results, "repetition 1/5"));
  EXPECT_EQ(results_content_hash(results).size(), 64U);
}

TEST(history_store, series_gives_the_last_n_oldest_first_with_verdicts_and_baseline_bands) {
  scratch_directory dir;
  history_store store(dir.file("history.db"));
  std::vector<std::int64_t> ids;
  for (int day = 1; day <= 3; ++day) {
    run_results results = later_run(day, 5669 + day * 10);
    apply_committed_baselines(results);
    ids.push_back(store.record(results, source_of(results)).run_id);
  }
  const std::string key = recorded_h200_results().metadata.gpu_key;
  const metric_history h = store.series(key, padded, "total", noisy_metric, 2);
  EXPECT_EQ(h.cls, metric_class::noisy);
  ASSERT_EQ(h.points.size(), 2U);
  EXPECT_EQ(h.points[0].value, 5689);
  EXPECT_EQ(h.points[0].run_id, std::to_string(ids[1]));
  EXPECT_EQ(h.points[1].value, 5699);
  EXPECT_EQ(h.points[1].started_at, "2026-12-03T00:00:00Z");
  EXPECT_EQ(h.points[1].verdict, "pass");

  // The band is the one the baseline check applied.
  const auto file = load_baseline_file(
      baseline_path(std::string(COUNTERGUARD_SOURCE_DIR) + "/baselines", key, "transpose"));
  ASSERT_TRUE(file.has_value());
  const baseline_band band =
      acceptance_band(file->cases.at(padded).at("total").at(noisy_metric), baseline_comparison_options{});
  ASSERT_TRUE(h.points[1].band_low.has_value());
  EXPECT_DOUBLE_EQ(*h.points[1].band_low, band.low);
  EXPECT_DOUBLE_EQ(*h.points[1].band_high, band.high);

  // An exact metric's band is its value.
  const metric_history exact = store.series(key, padded, "total", "shared_store_bank_conflicts", 0);
  ASSERT_EQ(exact.points.size(), 3U);
  EXPECT_EQ(exact.points[2].band_low, 0.0);
  EXPECT_EQ(exact.points[2].band_high, 0.0);
}

TEST(history_store, a_point_without_a_baseline_has_no_band_and_shows_the_expectation_verdict) {
  scratch_directory dir;
  history_store store(dir.file("history.db"));
  const run_results results = recorded_h200_results();  // recorded with --no-baselines
  store.record(results, source_of(results));
  const metric_history h = store.series(results.metadata.gpu_key, "transpose/smem_unpadded?n=2048", "total",
                                        "shared_store_bank_conflicts", 0);
  ASSERT_EQ(h.points.size(), 1U);
  EXPECT_EQ(h.points[0].value, 4063232);
  EXPECT_EQ(h.points[0].verdict, "pass");
  EXPECT_FALSE(h.points[0].band_low.has_value());
}

TEST(history_store, recent_values_skip_unmeasured_runs_and_respect_the_window) {
  scratch_directory dir;
  history_store store(dir.file("history.db"));
  std::vector<std::int64_t> ids;
  for (int day = 1; day <= 5; ++day) {
    const run_results results = later_run(day, day == 3 ? std::nan("") : 5600 + day);
    ids.push_back(store.record(results, source_of(results)).run_id);
  }
  const std::string key = recorded_h200_results().metadata.gpu_key;
  EXPECT_EQ(store.recent_values(key, padded, "total", noisy_metric, 0),
            (std::vector<double>{5601, 5602, 5604, 5605}));
  EXPECT_EQ(store.recent_values(key, padded, "total", noisy_metric, 2), (std::vector<double>{5604, 5605}));
  value_window window;
  window.last_n = 10;
  window.started_before = "2026-12-05T00:00:00Z";
  window.excluded_runs = {ids[0]};
  EXPECT_EQ(store.recent_values(key, padded, "total", noisy_metric, window),
            (std::vector<double>{5602, 5604}));
  EXPECT_TRUE(store.recent_values("another-gpu", padded, "total", noisy_metric, 0).empty());
}

TEST(history_store, runs_filter_by_gpu_key_commit_prefix_and_count) {
  scratch_directory dir;
  history_store store(dir.file("history.db"));
  for (int day = 1; day <= 4; ++day) {
    run_results results = later_run(day, 5600);
    if (day == 4)
      results.metadata.gpu_key = "GH100-114sm-cuda13";
    store.record(results, source_of(results));
  }
  EXPECT_EQ(store.runs().size(), 4U);
  EXPECT_EQ(store.runs({"GH100-132sm-cuda13", "", 0}).size(), 3U);
  const auto last_two = store.runs({"", "", 2});
  ASSERT_EQ(last_two.size(), 2U);
  EXPECT_EQ(last_two[0].metadata.started_at, "2026-12-03T00:00:00Z");
  EXPECT_EQ(last_two[1].metadata.started_at, "2026-12-04T00:00:00Z");
  const auto by_commit = store.runs({"", std::string(39, 'A') + "2", 0});  // any case
  ASSERT_EQ(by_commit.size(), 1U);
  EXPECT_EQ(by_commit[0].metadata.started_at, "2026-12-02T00:00:00Z");
  EXPECT_EQ(store.runs({"", "aaaa", 0}).size(), 4U);
  EXPECT_TRUE(store.runs({"", "bbbb", 0}).empty());
}

TEST(history_store, a_run_that_fails_halfway_leaves_nothing_recorded) {
  scratch_directory dir;
  run_results results = recorded_h200_results();
  results.cases.push_back(results.cases.front());  // the same instance twice: refused at the last case
  {
    history_store store(dir.file("history.db"));
    try {
      store.record(results, source_of(results));
      FAIL() << "a duplicate instance was recorded";
    } catch (const input_error& e) {
      EXPECT_NE(std::string(e.what()).find("appears twice"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(results.cases.front().instance), std::string::npos) << e.what();
    }
    EXPECT_TRUE(store.runs().empty());
  }
  raw_database raw(dir.file("history.db"));
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM cases"), "0");
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM metrics"), "0");
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM checks"), "0");
}

TEST(history_store, two_processes_recording_into_one_new_file_lose_nothing) {
  scratch_directory dir;
  const std::string path = dir.file("history.db");
  const run_results results = recorded_h200_results();
  constexpr int runs_per_process = 8;
  std::vector<pid_t> children;
  for (int process = 0; process < 2; ++process) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int status = 0;
      try {
        history_store store(path);  // both create the schema of the same new file
        for (int i = 0; i < runs_per_process; ++i) {
          run_results run = results;
          run.metadata.started_at =
              "2026-12-0" + std::to_string(process + 1) + "T00:00:0" + std::to_string(i) + "Z";
          store.record(run, source_of(run));
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "child %d: %s\n", process, e.what());
        status = 1;
      }
      ::_exit(status);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  const history_store store(path);
  EXPECT_EQ(store.runs().size(), 2U * runs_per_process);
  EXPECT_EQ(store.recent_values(results.metadata.gpu_key, padded, "total", noisy_metric, 0).size(),
            2U * runs_per_process);
  raw_database raw(path);
  EXPECT_EQ(raw.scalar("PRAGMA integrity_check"), "ok");
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM cases"), std::to_string(2 * runs_per_process * 93));
}

TEST(history_store, a_case_status_it_did_not_write_is_an_input_error_naming_it) {
  scratch_directory dir;
  const std::string path = dir.file("history.db");
  const run_results results = recorded_h200_results();
  history_store store(path);
  const std::int64_t run_id = store.record(results, source_of(results)).run_id;
  raw_database raw(path);
  ASSERT_EQ(raw.execute("UPDATE cases SET status = 'flaky' WHERE id = (SELECT min(id) FROM cases)"), "");
  try {
    static_cast<void>(store.load_values(run_id));
    FAIL() << "read an unknown status";
  } catch (const input_error& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.field(), "cases.status");
    EXPECT_NE(message.find("history.db"), std::string::npos) << message;
    EXPECT_NE(message.find("'flaky'"), std::string::npos) << message;
    EXPECT_NE(e.valid().find("passed, failed, skipped, error"), std::string::npos) << e.valid();
  }
}

TEST(history_store, a_missing_file_is_an_input_error_when_it_must_exist) {
  scratch_directory dir;
  try {
    const history_store store(dir.file("nowhere.db"), history_store::open_mode::must_exist);
    FAIL() << "opened a missing database";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("nowhere.db"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("nowhere.db")));
}

}  // namespace
}  // namespace counterguard::test
