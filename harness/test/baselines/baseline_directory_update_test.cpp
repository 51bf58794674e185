// SPDX-License-Identifier: Apache-2.0
// A refresh of a baseline directory: every suite's update before any file is written, and only files whose
// values changed (or that are new) rewritten. The H200 recording's results against a copy of the committed
// baselines.
#include "counterguard/baselines/baseline_directory_update.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "baseline_test_support.hpp"
#include "counterguard/baselines/baseline_file.hpp"
#include "counterguard/core/error.hpp"

namespace counterguard::test {
namespace {

run_results recorded_h200_results() {
  return load_run_results(std::string(COUNTERGUARD_SOURCE_DIR) +
                          "/harness/test/fixtures/h200_builtin/results.json");
}

std::set<std::string> suites_of(const run_results& results) {
  std::set<std::string> suites;
  for (const auto& c : results.cases)
    suites.insert(c.suite);
  return suites;
}

TEST(baseline_directory_update, writes_every_suites_file_into_an_empty_directory) {
  const std::string directory = make_temporary_directory();
  const run_results results = recorded_h200_results();
  const auto updates = update_baseline_directory(directory, results.metadata.gpu_key, suites_of(results),
                                                 {results}, baseline_refresh_options{});
  ASSERT_EQ(updates.size(), suites_of(results).size());
  for (const auto& suite : updates) {
    EXPECT_TRUE(suite.written) << suite.path;
    EXPECT_TRUE(std::filesystem::exists(suite.path)) << suite.path;
  }
  std::filesystem::remove_all(directory);
}

TEST(baseline_directory_update, leaves_a_file_whose_values_did_not_change_untouched) {
  const std::string directory = make_temporary_directory();
  const run_results results = recorded_h200_results();
  const auto first = update_baseline_directory(directory, results.metadata.gpu_key, suites_of(results),
                                               {results}, baseline_refresh_options{});
  const std::string path = first.front().path;
  write_text(path, read_text(path) + "# a human's note\n");
  const auto again = update_baseline_directory(directory, results.metadata.gpu_key, suites_of(results),
                                               {results}, baseline_refresh_options{});
  for (const auto& suite : again)
    EXPECT_FALSE(suite.written) << suite.path;
  EXPECT_NE(read_text(path).find("# a human's note"), std::string::npos);
  std::filesystem::remove_all(directory);
}

TEST(baseline_directory_update, a_file_that_cannot_be_read_stops_the_refresh_with_nothing_written) {
  const std::string directory = make_temporary_directory();
  const run_results results = recorded_h200_results();
  const std::set<std::string> suites = suites_of(results);
  // The last suite's file is damaged: the suites before it must not be written either.
  const std::string damaged = baseline_path(directory, results.metadata.gpu_key, *suites.rbegin());
  std::filesystem::create_directories(std::filesystem::path(damaged).parent_path());
  write_text(damaged, "cases: [unclosed\n");
  EXPECT_THROW(static_cast<void>(update_baseline_directory(directory, results.metadata.gpu_key, suites,
                                                           {results}, baseline_refresh_options{})),
               input_error);
  EXPECT_FALSE(std::filesystem::exists(baseline_path(directory, results.metadata.gpu_key, *suites.begin())));
  std::filesystem::remove_all(directory);
}

}  // namespace
}  // namespace counterguard::test
