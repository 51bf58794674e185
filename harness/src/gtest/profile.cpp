#include "counterguard/gtest/profile.hpp"

#include <limits>

#include "counterguard/checker/expectation_checker.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/value_format.hpp"
#include "counterguard/measurement/metric_plan.hpp"
#include "counterguard/metrics/metric_catalog.hpp"

namespace counterguard {

void profiling_test::SetUp() {
  if (const auto why = profiling_unavailable(); why && !profiled_by_exec())
    GTEST_SKIP() << *why;
}

profile_result profile(const std::vector<std::string>& metrics, const std::function<void()>& work,
                       const profile_options& options) {
  if (const auto why = profiling_unavailable(options)) {
    static_cast<void>(plan_metrics(metrics, metric_catalog::builtin()));  // unknown names are errors anyway
    if (profiled_by_exec())
      work();  // the launches are what exec's cases select
    GTEST_MESSAGE_AT_(nullptr, -1, why->c_str(), ::testing::TestPartResult::kSkip);
    case_result result;
    result.instance = "counterguard::profile";
    return profile_result(std::move(result), true);
  }
  begin_profile(metrics, options);
  try {
    work();
  } catch (...) {
    abandon_profile();
    throw;
  }
  return end_profile();
}

namespace detail {

::testing::AssertionResult check_metric(const char* result_text, const char* metric_text,
                                        const char* bound_text, const profile_result& result,
                                        const std::string& metric, double bound, metric_relation relation,
                                        double relative_tolerance) {
  if (result.skipped())
    return ::testing::AssertionSuccess();  // the test is already marked skipped, with the reason
  const char* relation_text = relation == metric_relation::equal      ? "=="
                              : relation == metric_relation::at_most  ? "<="
                              : relation == metric_relation::at_least ? ">="
                                                                      : "~=";
  if (!result.has(metric)) {
    return ::testing::AssertionFailure()
           << "metric '" << metric << "' (" << metric_text << ") was not measured in " << result_text << " ("
           << result.kernel_names() << "); a compiler metric needs the kernels linked with "
           << "counterguard_link_kernels, a per-kernel one a kernel that ran";
  }
  const double measured = result.value(metric);
  resolved_expectation expectation;
  expectation.metric = metric;
  expectation.tolerance = relative_tolerance;
  constexpr double unbounded = std::numeric_limits<double>::infinity();
  expectation.kind = relation == metric_relation::at_most    ? comparison::max
                     : relation == metric_relation::at_least ? comparison::min
                                                             : comparison::equals;
  expectation.lower = relation == metric_relation::at_most ? -unbounded : bound;
  expectation.upper = relation == metric_relation::at_least ? unbounded : bound;
  if (satisfies(expectation, measured))
    return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure();
  failure << "metric '" << metric << "' of " << result.kernel_names() << ": expected " << relation_text << " "
          << format_value(bound) << " (" << bound_text << ")";
  if (relation == metric_relation::near)
    failure << " within " << format_value(relative_tolerance * 100) << "%";
  failure << ", measured " << format_value(measured) << " (" << to_string(result.cls(metric)) << ")";
  return failure;
}

}  // namespace detail
}  // namespace counterguard
