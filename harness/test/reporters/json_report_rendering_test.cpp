// SPDX-License-Identifier: Apache-2.0
// The JSON report is built case by case (large runs never hold it as one JSON tree) and must read exactly as
// the whole document dumped at once.
#include <gtest/gtest.h>

#include "counterguard/reporters/json_reporter.hpp"
#include "report_test_support.hpp"

namespace counterguard {
namespace {

std::string dumped_whole(const run_results& results, bool strict) {
  return make_json_report(judge_run(results, strict))
             .dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

TEST(json_report_rendering, is_byte_identical_to_the_whole_document_dumped) {
  const run_results run = test::sample_run();
  EXPECT_EQ(render_json_report(judge_run(run, false)), dumped_whole(run, false));
  EXPECT_EQ(render_json_report(judge_run(run, true)), dumped_whole(run, true));
}

TEST(json_report_rendering, an_empty_run_and_a_shard_record_read_the_same) {
  run_results run = test::sample_run();
  run.metadata.shard = shard_record{2, 3, 9, "0123456789abcdef", {1, 4, 7}};
  EXPECT_EQ(render_json_report(judge_run(run, false)), dumped_whole(run, false));
  run.cases.clear();
  EXPECT_EQ(render_json_report(judge_run(run, false)), dumped_whole(run, false));
}

TEST(json_report_rendering, text_with_newlines_and_invalid_utf8_is_escaped_as_before) {
  run_results run = test::sample_run();
  run.cases.front().status_reason = "line one\nline two \xff end";
  run.metadata.command_line = "counterguard run 'a\nb'";
  EXPECT_EQ(render_json_report(judge_run(run, false)), dumped_whole(run, false));
}

}  // namespace
}  // namespace counterguard
