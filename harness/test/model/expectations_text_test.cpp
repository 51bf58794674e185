// SPDX-License-Identifier: Apache-2.0
// An `expect:` map read on its own (the Python plugin's marker, as JSON text): the forms and the messages of
// a suite file's expect block, evaluated with an instance's parameters.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "counterguard/core/error.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/suite_loader.hpp"

namespace counterguard {
namespace {

std::vector<resolved_expectation> resolved(const std::string& text, const parameter_list& parameters = {}) {
  std::vector<resolved_expectation> result;
  for (const auto& e : parse_expectations(text, "tests/test_copy.py", metric_catalog::builtin()))
    result.push_back(resolve_expectation(e, parameters, metric_catalog::builtin()));
  return result;
}

std::string error_of(const std::string& text, const parameter_list& parameters = {}) {
  try {
    static_cast<void>(resolved(text, parameters));
  } catch (const input_error& failure) {
    return failure.what();
  }
  return "no error";
}

TEST(expectations_text, json_takes_every_form_of_a_suite_file) {
  const auto e = resolved(R"({"spill_store_bytes": 0, "global_load_requests": {"equals": "n / 32"},
                              "shared_load_bank_conflicts": {"max": "n * 2", "kernel": "copy"},
                              "global_load_sectors_per_request": {"between": [4, 5], "tolerance": 0.01}})",
                          {{"n", std::int64_t{1024}}});
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].text, "== 0");
  EXPECT_EQ(e[0].cls, metric_class::static_resource);
  EXPECT_EQ(e[1].text, "== 32");
  EXPECT_EQ(e[2].text, "<= 2048");
  EXPECT_EQ(e[2].kernel, "copy");
  EXPECT_EQ(e[3].text, "in [4, 5]");
  EXPECT_DOUBLE_EQ(e[3].tolerance, 0.01);
}

TEST(expectations_text, empty_text_states_nothing) {
  EXPECT_TRUE(resolved("").empty());
}

TEST(expectations_text, an_unknown_metric_names_the_origin_and_the_closest_alias) {
  const std::string message = error_of(R"({"shared_load_bank_conflict": 0})");
  EXPECT_NE(message.find("tests/test_copy.py"), std::string::npos) << message;
  EXPECT_NE(message.find("shared_load_bank_conflicts"), std::string::npos) << message;
}

TEST(expectations_text, a_formula_of_a_missing_parameter_names_the_numeric_ones) {
  const std::string message =
      error_of(R"({"global_load_requests": "n / stride"})", {{"stride", std::int64_t{2}}, {"dtype", "f32"}});
  EXPECT_NE(message.find("uses 'n', which is not a parameter"), std::string::npos) << message;
  EXPECT_NE(message.find("numeric parameters of this case: stride"), std::string::npos) << message;
}

TEST(expectations_text, two_comparisons_for_one_metric_are_refused) {
  const std::string message = error_of(R"({"global_load_requests": {"equals": 1, "max": 2}})");
  EXPECT_NE(message.find("give exactly one of equals, max, min or between"), std::string::npos) << message;
}

}  // namespace
}  // namespace counterguard
