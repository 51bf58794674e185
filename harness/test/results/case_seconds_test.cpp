// SPDX-License-Identifier: Apache-2.0
// The per-case seconds of a results file, as --cost-from reads them.
#include "counterguard/results/case_seconds.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

// A results file holding `text`, removed with the test.
class results_file {
 public:
  explicit results_file(const std::string& text)
      : m_path((std::filesystem::temp_directory_path() /
                ("counterguard-case-seconds-" + std::to_string(::getpid()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json"))
                   .string()) {
    std::ofstream(m_path) << text;
  }
  results_file(const results_file&) = delete;
  results_file& operator=(const results_file&) = delete;
  ~results_file() { std::filesystem::remove(m_path); }
  [[nodiscard]] const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

input_error read_error(const std::string& text) {
  const results_file file(text);
  try {
    static_cast<void>(read_case_seconds(file.path()));
  } catch (const input_error& error) {
    return error;
  }
  ADD_FAILURE() << "no input_error for " << text;
  return input_error({}, "", "", "");
}

TEST(case_seconds, reads_each_cases_instance_and_seconds_in_file_order) {
  const results_file file(R"({"schema_version": 1, "metadata": {}, "cases": [
      {"instance": "s/b", "seconds": 2.5, "status": "passed"},
      {"instance": "s/a", "seconds": 0.5}]})");
  const auto recorded = read_case_seconds(file.path());
  ASSERT_EQ(recorded.size(), 2u);
  EXPECT_EQ(recorded[0].instance, "s/b");
  EXPECT_EQ(recorded[0].seconds, 2.5);
  EXPECT_EQ(recorded[1].instance, "s/a");
  EXPECT_EQ(recorded[1].seconds, 0.5);
}

TEST(case_seconds, null_seconds_read_as_nan) {
  const results_file file(R"({"schema_version": 1, "cases": [{"instance": "s/a", "seconds": null}]})");
  const auto recorded = read_case_seconds(file.path());
  ASSERT_EQ(recorded.size(), 1u);
  EXPECT_TRUE(std::isnan(recorded[0].seconds));
}

TEST(case_seconds, missing_seconds_is_an_input_error_naming_the_file_and_the_field) {
  const input_error error = read_error(R"({"schema_version": 1, "cases": [{"instance": "s/a"}]})");
  EXPECT_EQ(error.field(), "cases[0].seconds");
  EXPECT_NE(std::string(error.what()).find("counterguard-case-seconds-"), std::string::npos) << error.what();
}

TEST(case_seconds, an_instance_that_is_not_a_string_is_an_input_error_naming_the_field) {
  const input_error error = read_error(R"({"schema_version": 1, "cases": [{"instance": 3, "seconds": 1}]})");
  EXPECT_EQ(error.field(), "cases[0].instance");
}

TEST(case_seconds, an_unsupported_schema_version_is_an_input_error_saying_which_are_read) {
  const input_error error = read_error(R"({"schema_version": 99, "cases": []})");
  EXPECT_EQ(error.field(), "schema_version");
  EXPECT_NE(error.valid().find("versions 1 to"), std::string::npos) << error.valid();
}

TEST(case_seconds, a_file_that_cannot_be_read_is_an_input_error) {
  EXPECT_THROW(static_cast<void>(read_case_seconds("/nonexistent/results.json")), input_error);
}

}  // namespace
}  // namespace counterguard
