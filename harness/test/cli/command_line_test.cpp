// SPDX-License-Identifier: Apache-2.0
// The command line end to end on a machine without a GPU: what CI and laptop users see.
#include <gtest/gtest.h>

#include "cli_test_support.hpp"
#include "counterguard/build_info.hpp"

namespace counterguard::test {
namespace {

TEST(command_line, static_reports_the_compiler_numbers_of_every_used_variant_and_passes) {
  const command_result r = run_counterguard("static cases/");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("counterguard::kernels::spills::maxrreg32::register_heavy"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("-maxrregcount=32"), std::string::npos) << r.output;
}

TEST(command_line, version_names_the_release_the_commit_and_the_cuda_it_was_built_with) {
  const command_result r = run_counterguard("--version");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.rfind(std::string("counterguard ") + COUNTERGUARD_VERSION + "\n", 0), 0u) << r.output;
  EXPECT_NE(r.output.find("\ncommit: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("built with: CUDA 1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(", CUPTI API 1"), std::string::npos) << r.output;
}

TEST(command_line, a_violated_static_expectation_names_case_metric_expected_and_measured) {
  scratch_directory dir;
  const auto suite = dir.write("spills.yaml", R"(suite: spills
cases:
  - name: limited
    kernel: spills/register_heavy@maxrreg32
    expect:
      spill_store_bytes: {equals: 0}
)");
  const command_result r = run_counterguard("static " + suite.string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("spills/limited"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("spill_store_bytes"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("== 0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1400"), std::string::npos) << r.output;
}

TEST(command_line, run_without_a_gpu_runs_the_static_checks_and_says_what_it_skipped) {
  const command_result r = run_counterguard("run cases/ --quiet");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("no GPU profiling"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--require-gpu makes a missing GPU an error"), std::string::npos) << r.output;
}

TEST(command_line, run_without_a_gpu_says_static_checks_only_in_its_summary_line) {
  scratch_directory dir;
  const command_result r =
      run_counterguard("run cases/transpose.yaml --markdown " + (dir.path() / "summary.md").string());
  EXPECT_EQ(r.status, 0) << r.output;
  const std::size_t line = r.output.find(" cases: ");
  ASSERT_NE(line, std::string::npos) << r.output;
  const std::string summary = r.output.substr(line, r.output.find('\n', line) - line);
  EXPECT_NE(summary.find("; static checks only: "), std::string::npos) << summary;
  EXPECT_NE(summary.find(" counter checks not run: no GPU"), std::string::npos) << summary;
  EXPECT_EQ(read_text(dir.path() / "summary.md").rfind("## counterguard: passed (static checks only)\n", 0),
            0U);
}

TEST(command_line, static_says_which_counter_expectations_it_left_unchecked) {
  const command_result r = run_counterguard("static cases/transpose.yaml");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("; static checks only: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("counter checks not run: `static` does not profile; `run` does, on a GPU"),
            std::string::npos)
      << r.output;
}

TEST(command_line, require_gpu_turns_no_gpu_into_an_environment_error) {
  const command_result r = run_counterguard("run cases/ --require-gpu --quiet");
  EXPECT_EQ(r.status, 3) << r.output;
  EXPECT_NE(r.output.find("no CUDA GPU"), std::string::npos) << r.output;
}

TEST(command_line, invalid_yaml_is_an_input_error_naming_file_line_and_field) {
  scratch_directory dir;
  const auto suite = dir.write(
      "bad.yaml", "suite: bad\ncases:\n  - name: x\n    kernel: coalescing/vec_add\n    colour: red\n");
  const command_result r = run_counterguard("static " + suite.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("bad.yaml:5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("colour"), std::string::npos) << r.output;
}

TEST(command_line, an_unknown_raw_cupti_metric_is_refused_before_anything_runs_with_suggestions) {
  scratch_directory dir;
  const auto suite = dir.write("typo.yaml", R"(suite: typo
cases:
  - name: x
    kernel: coalescing/vec_add
    expect:
      l1tex__t_sectors_pipe_lsu_mem_global_op_ldd.sum: {min: 0}
)");
  // Without a GPU the parent checks the names; --require-gpu does not turn invalid input into exit status 3.
  for (const std::string flags : {"", " --require-gpu"}) {
    const command_result r = run_counterguard("run " + suite.string() + flags);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("typo.yaml:6"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), std::string::npos) << r.output;
  }
}

TEST(command_line, a_bad_flag_is_an_input_error) {
  EXPECT_EQ(run_counterguard("run --no-such-flag").status, 2);
}

TEST(command_line, baseline_update_from_history_needs_a_history_database) {
  const command_result r = run_counterguard("baseline update cases/transpose.yaml --from-history 20");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--history"), std::string::npos) << r.output;
}

TEST(command_line, metrics_validate_accepts_every_builtin_suite) {
  const command_result r = run_counterguard("metrics validate cases/");
  EXPECT_EQ(r.status, 0) << r.output;
}

TEST(command_line, the_json_report_is_written_where_asked) {
  scratch_directory dir;
  const command_result r =
      run_counterguard("static cases/ --quiet --json " + (dir.path() / "r.json").string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(read_text(dir.path() / "r.json").find("\"schema_version\""), std::string::npos);
}

}  // namespace
}  // namespace counterguard::test
