// SPDX-License-Identifier: Apache-2.0
// The options every command spells and reads the same way (docs/cli.md, "Common options"): --json FILE with
// '-' for standard output, the suites positional with --cases kept, --filter glob or regex:, -v, --fail-fast.
// No GPU: evaluate reads the H200 recording.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

const std::string h200_recording = "harness/test/fixtures/h200_builtin";

std::vector<std::string> instances_in(const nlohmann::json& results) {
  std::vector<std::string> names;
  for (const auto& c : results["cases"])
    names.push_back(c["instance"].get<std::string>());
  return names;
}

TEST(common_options, json_dash_puts_the_results_alone_on_standard_output_and_the_table_on_standard_error) {
  const separate_output r =
      run_counterguard_separately("evaluate " + h200_recording + " cases/transpose.yaml --json -");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json results = nlohmann::json::parse(r.out);  // nothing but the JSON
  EXPECT_EQ(results["cases"].size(), 9U);
  EXPECT_NE(r.err.find("9 cases: 9 passed"), std::string::npos) << r.err;
}

TEST(common_options, only_one_report_may_go_to_standard_output) {
  const command_result r = run_counterguard("evaluate " + h200_recording + " --json - --csv -");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("more than one report goes to standard output (--json, --csv)"), std::string::npos)
      << r.output;
}

TEST(common_options, list_plan_and_metrics_list_take_a_json_file_like_every_command) {
  scratch_directory dir;
  const auto listed = dir.path() / "listed.json";
  const separate_output names =
      run_counterguard_separately("list cases/transpose.yaml --json " + listed.string());
  ASSERT_EQ(names.status, 0) << names.err;
  EXPECT_EQ(names.out.rfind("transpose/naive?n=1024\n", 0), 0U) << "the names still print: " << names.out;
  EXPECT_EQ(nlohmann::json::parse(read_text(listed)).size(), 9U);

  const separate_output aliases = run_counterguard_separately("metrics list --json -");
  ASSERT_EQ(aliases.status, 0) << aliases.err;
  EXPECT_GT(nlohmann::json::parse(aliases.out).size(), 50U);

  const auto plan = dir.path() / "plan.json";
  const separate_output planned =
      run_counterguard_separately("plan cases/transpose.yaml --json " + plan.string());
  ASSERT_EQ(planned.status, 0) << planned.err;
  EXPECT_NE(planned.out.find("profiler configuration"), std::string::npos) << planned.out;
  EXPECT_EQ(nlohmann::json::parse(read_text(plan))["chip"], "GH100");

  EXPECT_EQ(run_counterguard("list cases/transpose.yaml --json").status, 2) << "--json needs its FILE (or -)";
}

TEST(common_options, suites_are_positional_in_evaluate_and_cases_still_names_them) {
  scratch_directory dir;
  const auto positional = dir.path() / "positional.json";
  const auto with_cases = dir.path() / "with_cases.json";
  ASSERT_EQ(run_counterguard("evaluate " + h200_recording +
                             " cases/spills.yaml cases/transpose.yaml --quiet --json " + positional.string())
                .status,
            0);
  ASSERT_EQ(run_counterguard("evaluate " + h200_recording +
                             " --cases cases/spills.yaml cases/transpose.yaml --quiet --json " +
                             with_cases.string())
                .status,
            0);
  const auto names = instances_in(nlohmann::json::parse(read_text(positional)));
  EXPECT_EQ(names, instances_in(nlohmann::json::parse(read_text(with_cases))));
  std::set<std::string> suites;
  for (const auto& name : names)
    suites.insert(name.substr(0, name.find('/')));
  EXPECT_EQ(suites, (std::set<std::string>{"spills", "transpose"}));
}

TEST(common_options, filter_takes_a_regular_expression_after_regex_colon) {
  command_result r = run_counterguard(
      "list cases/transpose.yaml --filter 'regex:^transpose/smem_(padded|swizzled)\\?n=1024$'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, "transpose/smem_padded?n=1024\ntranspose/smem_swizzled?n=1024\n");
  // The same filter selects in evaluate (and run, exec, blame: one selection).
  const separate_output evaluated = run_counterguard_separately(
      "evaluate " + h200_recording + " cases/transpose.yaml --filter 'regex:one_tile' --json -");
  ASSERT_EQ(evaluated.status, 0) << evaluated.err;
  EXPECT_EQ(instances_in(nlohmann::json::parse(evaluated.out)),
            std::vector<std::string>{"transpose/smem_one_tile"});
  r = run_counterguard("list cases --filter 'regex:(unclosed'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("field '--filter': 'regex:(unclosed' is not a valid regular expression"),
            std::string::npos)
      << r.output;
  // A glob keeps '?' literal, as before.
  r = run_counterguard("list cases/transpose.yaml --filter 'transpose/naive?n=2048'");
  EXPECT_EQ(r.output, "transpose/naive?n=2048\n");
}

TEST(common_options, verbose_prints_the_timeline_on_standard_error_before_or_after_the_command) {
  for (const std::string arguments :
       {"-v list cases/transpose.yaml", "list cases/transpose.yaml --verbose"}) {
    const separate_output r = run_counterguard_separately(arguments);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find(" start\n"), std::string::npos) << arguments << ": " << r.err;
    EXPECT_EQ(r.err.rfind("timeline ", 0), 0U) << arguments << ": " << r.err;
    EXPECT_EQ(r.out.find("timeline"), std::string::npos);
  }
  EXPECT_EQ(run_counterguard_separately("list cases/transpose.yaml").err, "");
}

TEST(common_options, fail_fast_reports_the_cases_after_the_first_failure_as_not_run) {
  scratch_directory dir;
  // transpose/smem_unpadded?n=1024, the third instance, now expects what it does not measure.
  std::string suite = read_text(std::string(COUNTERGUARD_SOURCE_DIR) + "/cases/transpose.yaml");
  const std::string measured = "shared_store_wavefronts_per_instruction: 32";
  ASSERT_NE(suite.find(measured), std::string::npos);
  suite.replace(suite.find(measured), measured.size(), "shared_store_wavefronts_per_instruction: 31");
  const auto planted = dir.write("transpose.yaml", suite);
  const auto out = dir.path() / "r.json";

  command_result r = run_counterguard("evaluate " + h200_recording + " " + planted.string() +
                                      " --no-baselines --quiet --fail-fast --json " + out.string());
  EXPECT_EQ(r.status, 1) << r.output;
  nlohmann::json results = nlohmann::json::parse(read_text(out));
  ASSERT_EQ(results["cases"].size(), 9U);
  EXPECT_EQ(results["cases"][0]["status"], "passed");
  EXPECT_EQ(results["cases"][1]["status"], "passed");
  EXPECT_EQ(results["cases"][2]["status"], "failed");
  for (std::size_t i = 3; i < 9; ++i) {
    EXPECT_EQ(results["cases"][i]["status"], "skipped") << i;
    EXPECT_EQ(results["cases"][i]["status_reason"],
              "not run: --fail-fast stopped the run after transpose/smem_unpadded?n=1024 failed");
    EXPECT_TRUE(results["cases"][i]["checks"].empty());
  }
  EXPECT_EQ(results["summary"]["skipped"], 6);

  // Without it every case is judged: both unpadded instances fail.
  r = run_counterguard("evaluate " + h200_recording + " " + planted.string() +
                       " --no-baselines --quiet -x --json " + out.string());
  EXPECT_EQ(r.status, 1);
  r = run_counterguard("evaluate " + h200_recording + " " + planted.string() +
                       " --no-baselines --quiet --json " + out.string());
  results = nlohmann::json::parse(read_text(out));
  EXPECT_EQ(results["summary"]["failed"], 2);
  EXPECT_EQ(results["summary"]["skipped"], 0);
}

}  // namespace
}  // namespace counterguard::test
