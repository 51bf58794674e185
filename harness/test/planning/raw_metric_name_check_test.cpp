// SPDX-License-Identifier: Apache-2.0
#include "counterguard/planning/raw_metric_name_check.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "counterguard/core/error.hpp"
#include "counterguard/core/input_errors.hpp"

namespace counterguard {
namespace {

case_instance expecting(const std::vector<std::string>& metrics) {
  case_instance made;
  made.name = "checked";
  for (const auto& metric : metrics) {
    resolved_expectation expectation;
    expectation.metric = metric;
    made.expectations.push_back(expectation);
  }
  return made;
}

std::string failure_of(const case_instance& instance) {
  const metric_name_validator validator("GH100");
  raw_metric_name_check check(metric_catalog::builtin(), validator);
  try {
    check.check(instance);
  } catch (const input_error& e) {
    return e.what();
  }
  return {};
}

TEST(raw_metric_name_check, aliases_and_raw_names_the_chip_has_pass) {
  EXPECT_EQ(failure_of(expecting({"global_load_sectors", "shared_store_bank_conflicts"})), "");
}

TEST(raw_metric_name_check, a_raw_name_the_chip_lacks_names_its_expectation_and_the_chip) {
  const std::string message = failure_of(expecting({"dram__no_such_counter.sum"}));
  EXPECT_NE(message.find("expect.dram__no_such_counter.sum"), std::string::npos) << message;
  EXPECT_NE(message.find("chip GH100"), std::string::npos) << message;
}

TEST(raw_metric_name_check, every_name_the_chip_lacks_is_reported_at_once) {
  const metric_name_validator validator("GH100");
  raw_metric_name_check check(metric_catalog::builtin(), validator);
  try {
    check.check(expecting({"dram__no_such_counter.sum", "lts__no_such_counter.sum"}));
    FAIL() << "no input_error";
  } catch (const input_error_list& e) {
    EXPECT_EQ(e.total(), 2U);
  }
}

}  // namespace
}  // namespace counterguard
