// SPDX-License-Identifier: Apache-2.0
// What users see of a failed CUPTI call: the call, the result, what to do; never a source path.
#include "counterguard/cupti/cupti_check.hpp"

#include <gtest/gtest.h>

#include <string>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

environment_problem problem_of(CUptiResult status) {
  try {
    detail::throw_cupti_error(status, "cuptiCall(&params)");
  } catch (const environment_error& error) {
    return error.problem();
  }
  ADD_FAILURE() << "expected environment_error";
  return environment_problem::no_gpu;
}

std::string message_of(CUptiResult status) {
  try {
    detail::throw_cupti_error(status, "cuptiCall(&params)");
  } catch (const error& thrown) {
    return thrown.what();
  }
  return {};
}

TEST(cupti_check, missing_permission_is_an_environment_problem_with_the_fixes) {
  EXPECT_EQ(problem_of(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES), environment_problem::insufficient_privileges);
  const auto message = message_of(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
  EXPECT_NE(message.find("CAP_SYS_ADMIN"), std::string::npos) << message;
  EXPECT_NE(message.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos) << message;
}

TEST(cupti_check, busy_counters_mean_another_profiler_holds_the_gpu) {
  EXPECT_EQ(problem_of(CUPTI_ERROR_HARDWARE_BUSY), environment_problem::profiler_busy);
  EXPECT_NE(message_of(CUPTI_ERROR_HARDWARE_BUSY).find("DCGM"), std::string::npos);
}

TEST(cupti_check, multiple_subscribers_mean_running_under_ncu_or_nsys) {
  EXPECT_EQ(problem_of(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED),
            environment_problem::under_external_profiler);
  EXPECT_NE(message_of(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED).find("without ncu/nsys"),
            std::string::npos);
}

TEST(cupti_check, unsupported_configurations_are_unsupported_device) {
  EXPECT_EQ(problem_of(CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED),
            environment_problem::unsupported_device);
  EXPECT_EQ(problem_of(CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED),
            environment_problem::unsupported_device);
  EXPECT_EQ(problem_of(CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED), environment_problem::unsupported_device);
}

TEST(cupti_check, other_failures_are_api_errors_naming_call_result_and_what_to_do) {
  try {
    detail::throw_cupti_error(CUPTI_ERROR_INVALID_PARAMETER, "cuptiCall(&params)");
    FAIL() << "expected api_error";
  } catch (const api_error& error) {
    EXPECT_EQ(error.status(), static_cast<int>(CUPTI_ERROR_INVALID_PARAMETER));
    const std::string message = error.what();
    EXPECT_EQ(message.rfind("cuptiCall: CUPTI_ERROR_INVALID_PARAMETER: ", 0), 0U) << message;
    EXPECT_NE(message.find("report it"), std::string::npos) << message;
  }
}

TEST(cupti_check, messages_never_carry_a_source_path) {
  for (const CUptiResult status :
       {CUPTI_ERROR_INVALID_PARAMETER, CUPTI_ERROR_HARDWARE_BUSY, CUPTI_ERROR_INSUFFICIENT_PRIVILEGES}) {
    try {
      COUNTERGUARD_CUPTI_CHECK(status);
    } catch (const error& thrown) {
      const std::string message = thrown.what();
      EXPECT_EQ(message.find(".cpp"), std::string::npos) << message;
      EXPECT_EQ(message.find("harness/"), std::string::npos) << message;
    }
  }
}

TEST(cupti_check, check_macro_passes_success_through) {
  EXPECT_NO_THROW(COUNTERGUARD_CUPTI_CHECK(CUPTI_SUCCESS));
  EXPECT_THROW(COUNTERGUARD_CUPTI_CHECK(CUPTI_ERROR_UNKNOWN), api_error);
}

}  // namespace
}  // namespace counterguard
