// SPDX-License-Identifier: Apache-2.0
// `counterguard compare` end to end: results files and runs of a history database, exit statuses.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "counterguard/reporters/json_reporter.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard::test {
namespace {

const std::string recorded_results = "harness/test/fixtures/h200_builtin/results.json";
const std::string exact_case = "transpose/smem_unpadded?n=2048";
const std::string noisy_case = "transpose/smem_swizzled?n=2048";  // shared_store_bank_conflicts_hw 5203

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

run_results recording() {
  return load_run_results(std::string(COUNTERGUARD_SOURCE_DIR) + "/" + recorded_results);
}

void set_metric(run_results& results, const std::string& instance, const std::string& metric, double value) {
  for (auto& c : results.cases) {
    if (c.instance != instance)
      continue;
    c.totals.at(metric).value = value;
    for (auto& launch : c.kernels) {
      if (launch.metrics.count(metric) != 0)
        launch.metrics[metric] = value;
    }
  }
}

// The recording as a later run at `commit` (40 hex digits) on `day`, with the noisy counter at `noisy`.
std::string write_run(const scratch_directory& dir, const std::string& name, const std::string& commit,
                      int day, double noisy, double exact = 4063232) {
  run_results results = recording();
  results.metadata.git_commit = commit;
  results.metadata.started_at =
      "2026-12-" + std::string(day < 10 ? "0" : "") + std::to_string(day) + "T00:00:00Z";
  set_metric(results, noisy_case, "shared_store_bank_conflicts_hw", noisy);
  set_metric(results, exact_case, "shared_store_bank_conflicts", exact);
  const std::string path = (dir.path() / name).string();
  write_json_report(path, judge_run(results, false));
  return path;
}

std::string commit_of(char digit) {
  return std::string(40, digit);
}

TEST(compare_command, identical_results_have_no_change_and_exit_0_even_with_fail_on_change) {
  const command_result r =
      run_counterguard("compare " + recorded_results + " " + recorded_results + " --fail-on-change");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "0 changed (exact/static), 0 within noise, 0 likely changes")) << r.output;
}

TEST(compare_command, an_exact_change_is_flagged_and_fails_only_with_fail_on_change) {
  scratch_directory dir;
  const std::string b = write_run(dir, "b.json", commit_of('b'), 1, 5203, 4063233);
  command_result r = run_counterguard("compare " + recorded_results + " " + b);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "CHANGED")) << r.output;
  EXPECT_TRUE(contains(r.output, "2 changed (exact/static)")) << r.output;

  const auto md = dir.path() / "compare.md";
  const auto json = dir.path() / "compare.json";
  r = run_counterguard("compare " + recorded_results + " " + b + " --fail-on-change --markdown " +
                       md.string() + " --json " + json.string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_TRUE(
      contains(read_text(md), "| `" + exact_case + "` | `total` | `shared_store_bank_conflicts` | exact"));
  const nlohmann::json j = nlohmann::json::parse(read_text(json));
  EXPECT_EQ(j["summary"]["changed"], 2);
  EXPECT_EQ(j["summary"]["flagged"], 2);
  EXPECT_EQ(j["b"]["label"], b);
}

TEST(compare_command, a_noisy_change_without_history_has_no_noise_estimate_and_does_not_fail) {
  scratch_directory dir;
  const std::string b = write_run(dir, "b.json", commit_of('b'), 1, 40000);
  const command_result r = run_counterguard("compare " + recorded_results + " " + b + " --fail-on-change");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "no noise estimate (0 earlier values)")) << r.output;
  EXPECT_TRUE(contains(r.output, "noise: no history given")) << r.output;
}

TEST(compare_command, a_missing_or_malformed_file_is_an_input_error_naming_it) {
  scratch_directory dir;
  command_result r =
      run_counterguard("compare " + recorded_results + " " + (dir.path() / "absent.json").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "absent.json: cannot read the results file")) << r.output;
  const auto bad = dir.write("bad.json", "{\"schema_version\": 9}");
  r = run_counterguard("compare " + bad.string() + " " + recorded_results);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, bad.string() + ": field 'schema_version': unsupported version 9"))
      << r.output;
}

// A history of five runs in which the noisy counter moved by tens of counts, then B at another commit.
std::string history_with_noise(const scratch_directory& dir, double b_noisy) {
  const std::string db = (dir.path() / "history.db").string();
  const double earlier[] = {5203, 5240, 5190, 5260, 5215};
  std::string files;
  for (int i = 0; i < 5; ++i) {
    files += " " + write_run(dir, "run" + std::to_string(i) + ".json", commit_of(static_cast<char>('1' + i)),
                             i + 1, earlier[i]);
  }
  files += " " + write_run(dir, "b.json", commit_of('b'), 9, b_noisy);
  const command_result r = run_counterguard("history import --history " + db + files);
  EXPECT_EQ(r.status, 0) << r.output;
  return db;
}

TEST(compare_command, runs_of_the_history_are_named_by_commit_or_id_and_judged_against_its_noise) {
  scratch_directory dir;
  const std::string db = history_with_noise(dir, 5230);
  command_result r = run_counterguard("compare --history " + db + " 55555555 bbbbbbb --fail-on-change");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "A: run 5  commit 555555555555")) << r.output;
  EXPECT_TRUE(contains(r.output, "B: run 6  commit bbbbbbbbbbbb")) << r.output;
  EXPECT_TRUE(contains(r.output, "within noise (z=")) << r.output;
  EXPECT_TRUE(contains(r.output, "n=4)")) << r.output;  // runs 1-4: A and B are not their own noise

  r = run_counterguard("compare --history " + db + " run:5 6");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "A: run 5")) << r.output;
}

TEST(compare_command, a_noisy_change_far_outside_the_history_noise_fails_with_fail_on_change) {
  scratch_directory dir;
  const std::string db = history_with_noise(dir, 9000);
  const command_result r = run_counterguard("compare --history " + db + " 11111 bbbbb --fail-on-change");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "LIKELY CHANGE (z=+")) << r.output;
  EXPECT_TRUE(contains(r.output, "n=4)")) << r.output;  // runs 2-5
}

TEST(compare_command, an_unknown_run_or_commit_is_an_input_error) {
  scratch_directory dir;
  const std::string db = history_with_noise(dir, 5230);
  command_result r = run_counterguard("compare --history " + db + " cafe bbbbb");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "no results file, run or commit 'cafe'")) << r.output;
  r = run_counterguard("compare --history " + db + " run:99 bbbbb");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "no run 'run:99'")) << r.output;
  r = run_counterguard("compare --history " + db + " 1 bbbbb");  // short digits: a run id
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "A: run 1  commit 111111111111")) << r.output;
}

}  // namespace
}  // namespace counterguard::test
