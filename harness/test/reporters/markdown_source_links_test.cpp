// SPDX-License-Identifier: Apache-2.0
// The Markdown summary's blamed lines linked at the commit under test (render_markdown_report's links).
#include <gtest/gtest.h>

#include "counterguard/reporters/markdown_reporter.hpp"
#include "findings_test_support.hpp"

namespace counterguard {
namespace {

TEST(markdown_source_links, a_blamed_line_in_the_repository_links_to_that_line_at_the_commit) {
  const test::sample_repository repository;
  const std::string md = render_markdown_report(judge_run(test::blamed_run_in(repository), false), {},
                                                {"https://github.com/o/app/blob/abc123", repository.root()});
  EXPECT_NE(md.find("| [transpose.cu:34](https://github.com/o/app/blob/abc123/kernels/transpose.cu#L34)  STS "
                    "[R7], R8  (counterguard::kernels::transpose::naive) |"),
            std::string::npos)
      << md;
}

TEST(markdown_source_links, without_a_url_or_outside_the_repository_the_place_is_plain_text) {
  const test::sample_repository repository;
  run_results results = test::blamed_run_in(repository);
  EXPECT_EQ(render_markdown_report(judge_run(results, false), {}, {"", repository.root()}).find("]("),
            std::string::npos);
  results.cases[1].blame->lines.front().file = "/elsewhere/not_here.cu";
  const std::string md =
      render_markdown_report(judge_run(results, false), {}, {"https://x/blob/abc", repository.root()});
  EXPECT_EQ(md.find("](https://x"), std::string::npos) << md;
  EXPECT_NE(md.find("| transpose.cu:34  STS [R7], R8"), std::string::npos) << md;
}

}  // namespace
}  // namespace counterguard
