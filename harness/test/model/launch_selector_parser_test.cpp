// SPDX-License-Identifier: Apache-2.0
// `select:` in a suite: every form it takes, and every mistake reported at file:line:column with the field
// and what would be valid.
#include "counterguard/model/launch_selector_parser.hpp"

#include <gtest/gtest.h>

#include "model_test_support.hpp"

namespace counterguard {
namespace {

using test::contains;

class launch_selector_parser : public test::model_test {
 protected:
  // The selector of the one case of a suite whose case reads `- name: c\n    select: <text>`.
  launch_selector selector(const std::string& select) {
    const suite s = load("suite: p\ncases:\n  - name: c\n    select: " + select + "\n");
    EXPECT_TRUE(s.cases.at(0).select.has_value());
    return s.cases.at(0).select.value_or(launch_selector{});
  }
  input_error selector_error(const std::string& select) {
    return load_error("suite: p\ncases:\n  - name: c\n    select: " + select + "\n");
  }
  std::string at(int line, int column) const {
    return suite_file() + ":" + std::to_string(line) + ":" + std::to_string(column);
  }
};

TEST_F(launch_selector_parser, a_bare_pattern_selects_by_kernel_name) {
  const launch_selector s = selector("\"reduce*\"");
  ASSERT_TRUE(s.kernel.has_value());
  EXPECT_EQ(s.kernel->text(), "reduce*");
  EXPECT_FALSE(s.kernel->is_regex());
  EXPECT_FALSE(s.nvtx.has_value());
  EXPECT_EQ(s.max_launches, launch_selector::default_max_launches);
  EXPECT_EQ(s.where.file, suite_file());
  EXPECT_EQ(s.where.line, 4);
}

TEST_F(launch_selector_parser, regex_is_written_with_a_prefix_or_as_a_map) {
  EXPECT_TRUE(selector("{kernel: \"regex:^reduce_(sum|max)$\"}").kernel->is_regex());
  const launch_selector mapped = selector("{kernel: {regex: \"^reduce\"}}");
  ASSERT_TRUE(mapped.kernel && mapped.kernel->is_regex());
  EXPECT_EQ(mapped.kernel->text(), "^reduce");
  EXPECT_FALSE(selector("{kernel: {glob: \"r*\"}}").kernel->is_regex());
}

TEST_F(launch_selector_parser, an_nvtx_path_string_splits_on_slashes_and_takes_a_domain) {
  const launch_selector s = selector("{nvtx: \"MyLib@step/forward/\"}");
  ASSERT_TRUE(s.nvtx.has_value());
  EXPECT_EQ(s.nvtx->domain, "MyLib");
  ASSERT_EQ(s.nvtx->path.size(), 2U);
  EXPECT_EQ(s.nvtx->path[0].text(), "step");
  EXPECT_EQ(s.nvtx->path[1].text(), "forward");
  EXPECT_FALSE(s.nvtx->start_end);
}

TEST_F(launch_selector_parser, an_nvtx_list_keeps_slashes_inside_names) {
  const launch_selector s = selector("{nvtx: [\"a/b\", c]}");
  ASSERT_EQ(s.nvtx->path.size(), 2U);
  EXPECT_EQ(s.nvtx->path[0].text(), "a/b");
}

TEST_F(launch_selector_parser, an_nvtx_map_names_domain_and_kind) {
  const launch_selector s = selector("{nvtx: {range: \"epoch*\", domain: Trainer, kind: start_end}}");
  EXPECT_EQ(s.nvtx->domain, "Trainer");
  EXPECT_TRUE(s.nvtx->start_end);
  ASSERT_EQ(s.nvtx->path.size(), 1U);
}

TEST_F(launch_selector_parser, launch_is_an_ordinal_or_a_window) {
  const launch_selector one = selector("{kernel: k, launch: 3}");
  EXPECT_EQ(one.launch_skip, 3);
  EXPECT_EQ(one.launch_count, 1);
  EXPECT_EQ(one.profiled_limit(), 1);
  const launch_selector window = selector("{kernel: k, launch: {skip: 2, count: 100}}");
  EXPECT_EQ(window.launch_skip, 2);
  EXPECT_EQ(window.launch_count, 100);
  EXPECT_EQ(window.max_launches, 100);  // an explicit count is its own bound
  EXPECT_EQ(selector("{kernel: k, max_launches: 4}").profiled_limit(), 4);
}

TEST_F(launch_selector_parser, process_selects_rank_and_executable) {
  const launch_selector s = selector("{kernel: k, process: {rank: 1, executable: \"*worker\"}}");
  EXPECT_EQ(s.process.rank, 1);
  ASSERT_TRUE(s.process.executable.has_value());
  EXPECT_EQ(s.process.executable->text(), "*worker");
}

TEST_F(launch_selector_parser, a_select_case_loads_with_expectations_and_expands_to_one_instance) {
  const std::vector<case_instance> instances = expand(
      "suite: p\ncases:\n  - name: c\n    description: d\n    select: {kernel: k}\n"
      "    expect:\n      spill_store_bytes: 0\n      shared_store_bank_conflicts: {max: 31 * 32}\n");
  ASSERT_EQ(instances.size(), 1U);
  EXPECT_EQ(instances[0].name, "p/c");
  EXPECT_TRUE(instances[0].kernel.empty());
  ASSERT_TRUE(instances[0].select.has_value());
  ASSERT_EQ(instances[0].expectations.size(), 2U);
  EXPECT_EQ(instances[0].expectations[1].upper, 992);
}

TEST_F(launch_selector_parser, select_and_run_cases_share_a_suite_with_defaults) {
  const std::vector<case_instance> instances = expand(
      "suite: p\ndefaults:\n  parameters: {n: 1024}\ncases:\n  - name: r\n    kernel: transpose/naive\n"
      "  - name: c\n    select: k\n");
  ASSERT_EQ(instances.size(), 2U);
  EXPECT_FALSE(instances[0].select.has_value());
  EXPECT_TRUE(instances[1].select.has_value());
}

TEST_F(launch_selector_parser, kernel_and_select_together_are_an_error_at_the_kernel) {
  const input_error failure =
      load_error("suite: p\ncases:\n  - name: c\n    select: k\n    kernel: transpose/naive\n");
  EXPECT_TRUE(contains(failure.what(), at(5, 5)));
  EXPECT_TRUE(contains(failure.what(), "field 'cases[0].kernel'"));
  EXPECT_TRUE(contains(failure.valid(), "select:, for `counterguard exec`"));
}

TEST_F(launch_selector_parser, parameters_axes_and_launch_do_not_go_with_select) {
  for (const char* key : {"parameters: {n: 1}", "axes: {n: [1, 2]}", "launch: {block: 32}"}) {
    const input_error failure =
        load_error(std::string("suite: p\ncases:\n  - name: c\n    select: k\n    ") + key + "\n");
    EXPECT_TRUE(contains(failure.what(), at(5, 5))) << key;
    EXPECT_TRUE(contains(failure.what(), "belongs to registered kernel variants")) << key;
  }
}

TEST_F(launch_selector_parser, a_case_without_kernel_or_select_says_both) {
  const input_error failure = load_error("suite: p\ncases:\n  - name: c\n");
  EXPECT_TRUE(contains(failure.valid(), "select: <launches>"));
}

TEST_F(launch_selector_parser, an_unknown_key_lists_the_valid_ones) {
  const input_error failure = selector_error("{kernal: k}");
  EXPECT_TRUE(contains(failure.what(), at(4, 14)));
  EXPECT_TRUE(contains(failure.what(), "field 'cases[0].select.kernal'"));
  EXPECT_TRUE(contains(failure.what(), "kernel"));
}

TEST_F(launch_selector_parser, a_bad_regular_expression_is_named) {
  const input_error failure = selector_error("{kernel: \"regex:reduce(\"}");
  EXPECT_TRUE(contains(failure.what(), at(4, 22)));
  EXPECT_TRUE(contains(failure.what(), "field 'cases[0].select.kernel'"));
  EXPECT_TRUE(contains(failure.what(), "is not a valid regular expression"));
}

TEST_F(launch_selector_parser, an_empty_pattern_or_regex_is_an_error) {
  EXPECT_TRUE(contains(selector_error("{kernel: \"\"}").what(), "the name pattern is empty"));
  EXPECT_TRUE(contains(selector_error("{kernel: \"regex:\"}").what(), "after 'regex:' is empty"));
  EXPECT_TRUE(contains(selector_error("{kernel: {regex: \"a\", glob: \"b\"}}").what(), "exactly one of"));
}

TEST_F(launch_selector_parser, a_selector_that_selects_everything_is_refused) {
  const input_error failure = selector_error("{max_launches: 2}");
  EXPECT_TRUE(contains(failure.what(), at(4, 13)));
  EXPECT_TRUE(contains(failure.what(), "selects every launch of every kernel"));
}

TEST_F(launch_selector_parser, nvtx_path_mistakes_are_named) {
  EXPECT_TRUE(contains(selector_error("{nvtx: \"a//b\"}").what(), "has an empty range name"));
  EXPECT_TRUE(contains(selector_error("{nvtx: \"@a\"}").what(), "the NVTX domain before '@' is empty"));
  EXPECT_TRUE(contains(selector_error("{nvtx: []}").what(), "the NVTX range list is empty"));
  EXPECT_TRUE(contains(selector_error("{nvtx: {range: a, kind: nested}}").what(), "unknown NVTX range kind"));
  EXPECT_TRUE(contains(selector_error("{nvtx: {domain: D}}").what(), "range"));
  const input_error start_end = selector_error("{nvtx: {range: a/b, kind: start_end}}");
  EXPECT_TRUE(contains(start_end.what(), "field 'cases[0].select.nvtx.range'"));
  EXPECT_TRUE(contains(start_end.what(), "a start/end range is one name"));
}

TEST_F(launch_selector_parser, launch_mistakes_are_named) {
  EXPECT_TRUE(contains(selector_error("{kernel: k, launch: -1}").what(), "field 'cases[0].select.launch'"));
  EXPECT_TRUE(contains(selector_error("{kernel: k, launch: {count: 0}}").what(),
                       "field 'cases[0].select.launch.count'"));
  EXPECT_TRUE(contains(selector_error("{kernel: k, launch: {}}").what(), "the launch map is empty"));
  EXPECT_TRUE(
      contains(selector_error("{kernel: k, launch: [1]}").what(), "expected a launch ordinal or a map"));
  const input_error bound = selector_error("{kernel: k, launch: {count: 8}, max_launches: 4}");
  EXPECT_TRUE(contains(bound.what(), "field 'cases[0].select.max_launches'"));
  EXPECT_TRUE(contains(bound.what(), "below launch count 8"));
}

TEST_F(launch_selector_parser, process_mistakes_are_named) {
  EXPECT_TRUE(contains(selector_error("{kernel: k, process: {}}").what(), "the process map is empty"));
  EXPECT_TRUE(contains(selector_error("{kernel: k, process: {rank: x}}").what(),
                       "field 'cases[0].select.process.rank'"));
  EXPECT_TRUE(contains(selector_error("{kernel: k, process: {pid: 3}}").what(),
                       "field 'cases[0].select.process.pid'"));
}

TEST_F(launch_selector_parser, a_sequence_is_not_a_selector) {
  const input_error failure = selector_error("[k]");
  EXPECT_TRUE(contains(failure.what(), at(4, 13)));
  EXPECT_TRUE(contains(failure.what(), "expected a kernel name pattern or a map"));
}

TEST(launch_selector_flags, ncu_flags_become_a_selector) {
  selector_flags flags;
  flags.kernel_name = "regex:^reduce";
  flags.nvtx_include = "Lib@step/";
  flags.launch_skip = 2;
  flags.launch_count = 3;
  const launch_selector s = selector_from_flags(flags);
  EXPECT_TRUE(s.kernel->is_regex());
  EXPECT_EQ(s.nvtx->domain, "Lib");
  EXPECT_FALSE(s.nvtx->start_end);
  EXPECT_EQ(s.launch_skip, 2);
  EXPECT_EQ(s.profiled_limit(), 3);
}

TEST(launch_selector_flags, an_nvtx_name_without_trailing_slash_is_a_start_end_range_as_in_ncu) {
  selector_flags flags;
  flags.nvtx_include = "epoch";
  EXPECT_TRUE(selector_from_flags(flags).nvtx->start_end);
  flags.nvtx_include = "a/b";
  try {
    (void)selector_from_flags(flags);
    ADD_FAILURE() << "a path without a trailing slash is ambiguous";
  } catch (const input_error& e) {
    EXPECT_EQ(e.field(), "--nvtx-include");
    EXPECT_TRUE(contains(e.valid(), "end push/pop range paths with '/'"));
  }
}

TEST(launch_selector_flags, flag_mistakes_name_the_flag) {
  selector_flags flags;
  flags.kernel_name = "regex:(";
  try {
    (void)selector_from_flags(flags);
    ADD_FAILURE();
  } catch (const input_error& e) {
    EXPECT_EQ(e.field(), "--kernel-name");
  }
}

}  // namespace
}  // namespace counterguard
