// Static measurements from kernel resources: a value the binary does not record stays unmeasured.
#include "counterguard/measurement/case_measurement.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

metric_plan static_plan() {
  metric_plan plan;
  for (const char* name : {"registers_per_thread", "spill_store_bytes", "spill_load_bytes"})
    plan.metrics.push_back(*metric_catalog::builtin().find_alias(name));
  return plan;
}

kernel_resources kernel(bool spills_known) {
  kernel_resources k;
  k.mangled = "_Z1kv";
  k.function = "k";
  k.registers = 40;
  k.spill_store_bytes = 0;
  k.spill_bytes_known = spills_known;
  return k;
}

TEST(case_measurement, unknown_spill_bytes_leave_the_spill_metrics_unmeasured_not_zero) {
  case_result result;
  fill_static_measurements(result, static_plan(), {"k"}, {kernel(false)});
  ASSERT_EQ(result.kernels.size(), 1U);
  EXPECT_EQ(result.kernels[0].metrics.count("registers_per_thread"), 1U);
  EXPECT_EQ(result.kernels[0].metrics.count("spill_store_bytes"), 0U);
  EXPECT_EQ(result.kernels[0].metrics.count("spill_load_bytes"), 0U);
  EXPECT_EQ(result.totals.count("spill_store_bytes"), 0U);
}

TEST(case_measurement, known_spill_bytes_are_measured_even_when_zero) {
  case_result result;
  fill_static_measurements(result, static_plan(), {"k"}, {kernel(true)});
  ASSERT_EQ(result.kernels.size(), 1U);
  EXPECT_EQ(result.kernels[0].metrics.at("spill_store_bytes"), 0.0);
  EXPECT_EQ(result.totals.at("spill_store_bytes").value, 0.0);
}

}  // namespace
}  // namespace counterguard
