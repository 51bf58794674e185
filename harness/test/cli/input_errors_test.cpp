// SPDX-License-Identifier: Apache-2.0
// Every problem of the suites a command loads is reported in one run, each with file:line:column and field,
// as a compiler reports every error of a file; the exit status stays 2.
#include <gtest/gtest.h>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

bool reports(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::size_t times_in(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

TEST(input_errors, two_mistakes_in_one_file_are_both_reported_with_their_places) {
  scratch_directory dir;
  const auto suite = dir.write("two.yaml", R"(suite: two
cases:
  - name: a
    kernel: coalescing/vec_add
    expect:
      shared_load_bank_conflict: 0
      global_load_requests: four
  - name: b
    kernel: coalescing/vec_ad
)");
  // Every command that loads suites; SUITE stands for the file.
  for (std::string command :
       {"static SUITE", "run SUITE", "metrics validate SUITE", "list SUITE",
        "evaluate harness/test/fixtures/h200_builtin --cases SUITE", "exec --cases SUITE -- /bin/true"}) {
    command.replace(command.find("SUITE"), 5, suite.string());
    const command_result r = run_counterguard(command);
    EXPECT_EQ(r.status, 2) << command << "\n" << r.output;
    EXPECT_TRUE(reports(r.output, "two.yaml:6:7: field 'cases[0].expect.shared_load_bank_conflict'"))
        << command << "\n"
        << r.output;
    EXPECT_TRUE(reports(r.output, "two.yaml:7:29: field 'cases[0].expect.global_load_requests'"))
        << command << "\n"
        << r.output;
    EXPECT_TRUE(
        reports(r.output, "two.yaml:9:13: field 'cases[1].kernel': unknown kernel 'coalescing/vec_ad'"))
        << command << "\n"
        << r.output;
    EXPECT_TRUE(reports(r.output, "counterguard: 3 errors")) << command << "\n" << r.output;
  }
}

TEST(input_errors, every_bad_file_of_a_directory_is_reported) {
  scratch_directory dir;
  dir.write("suites/a.yaml",
            "suite: a\ncases:\n  - name: x\n    kernel: coalescing/vec_add\n    colour: red\n");
  dir.write("suites/b.yaml", "suite: b\ncases:\n  - name: y\n    kernel: nope\n");
  dir.write("suites/c.yaml", "suite: c\ncases:\n  - name: z\n    kernel: coalescing/vec_add\n");
  const command_result r = run_counterguard("static " + (dir.path() / "suites").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(reports(r.output, "a.yaml:5:5: field 'cases[0].colour'")) << r.output;
  EXPECT_TRUE(reports(r.output, "b.yaml:4:13: field 'cases[0].kernel'")) << r.output;
  EXPECT_TRUE(reports(r.output, "counterguard: 2 errors")) << r.output;
}

TEST(input_errors, are_capped_and_say_how_many_more_there_were) {
  scratch_directory dir;
  std::string text = "suite: many\ncases:\n";
  for (int i = 0; i < 25; ++i)
    text += "  - name: c" + std::to_string(i) + "\n    kernel: missing/kernel\n";
  const auto suite = dir.write("many.yaml", text);
  const command_result r = run_counterguard("static " + suite.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(times_in(r.output, "unknown kernel 'missing/kernel'"), 20U) << r.output;
  EXPECT_TRUE(reports(r.output, "counterguard: 25 errors (5 more not shown)")) << r.output;
}

TEST(input_errors, a_word_where_a_number_belongs_says_a_number_or_formula_of_the_parameters_was_expected) {
  scratch_directory dir;
  const auto suite = dir.write("word.yaml", R"(suite: word
cases:
  - name: a
    kernel: coalescing/vec_add
    expect:
      global_load_requests: four
)");
  const command_result r = run_counterguard("static " + suite.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(reports(r.output, "'four' is neither a number nor a parameter")) << r.output;
  EXPECT_TRUE(reports(r.output, "numeric parameters of this case: n")) << r.output;
  EXPECT_TRUE(reports(r.output, "a value is a number or a formula of them")) << r.output;
}

TEST(input_errors, a_raw_metric_the_chip_lacks_is_named_with_its_case_field_path) {
  scratch_directory dir;
  const auto suite = dir.write("raw.yaml", R"(suite: raw
cases:
  - name: a
    kernel: coalescing/vec_add
  - name: b
    kernel: coalescing/vec_add
    expect:
      l1tex__t_sectors_pipe_lsu_mem_global_op_ldd.sum: {min: 0}
)");
  const command_result r = run_counterguard("metrics validate " + suite.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(reports(r.output, "field 'cases[1].expect.l1tex__t_sectors_pipe_lsu_mem_global_op_ldd.sum'"))
      << r.output;
}

}  // namespace
}  // namespace counterguard::test
