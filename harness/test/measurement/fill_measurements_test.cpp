// SPDX-License-Identifier: Apache-2.0
// Static measurements from kernel resources: a value the binary does not record stays unmeasured. Counter
// measurements from the counters a metric reads now, or those it read when an older recording was made.
#include "counterguard/measurement/fill_measurements.hpp"

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

TEST(fill_measurements, unknown_spill_bytes_leave_the_spill_metrics_unmeasured_not_zero) {
  case_result result;
  fill_static_measurements(result, static_plan(), {"k"}, {kernel(false)});
  ASSERT_EQ(result.kernels.size(), 1U);
  EXPECT_EQ(result.kernels[0].metrics.count("registers_per_thread"), 1U);
  EXPECT_EQ(result.kernels[0].metrics.count("spill_store_bytes"), 0U);
  EXPECT_EQ(result.kernels[0].metrics.count("spill_load_bytes"), 0U);
  EXPECT_EQ(result.totals.count("spill_store_bytes"), 0U);
}

TEST(fill_measurements, known_spill_bytes_are_measured_even_when_zero) {
  case_result result;
  fill_static_measurements(result, static_plan(), {"k"}, {kernel(true)});
  ASSERT_EQ(result.kernels.size(), 1U);
  EXPECT_EQ(result.kernels[0].metrics.at("spill_store_bytes"), 0.0);
  EXPECT_EQ(result.totals.at("spill_store_bytes").value, 0.0);
}

metric_plan local_bytes_plan() {
  metric_plan plan;
  plan.metrics.push_back(*metric_catalog::builtin().find_alias("local_store_bytes"));
  return plan;
}

// One launch of kernel k whose counter data holds `raw`; the case's measurements.
case_result measured_from(const std::map<std::string, double>& raw) {
  profiled_launch launch;
  launch.function = "k";
  evaluated_range range;
  range.values = raw;
  case_result result;
  fill_measurements(result, local_bytes_plan(), {launch}, {range}, {}, {});
  return result;
}

TEST(fill_measurements, local_bytes_are_32_bytes_per_instrumented_sector) {
  const case_result result =
      measured_from({{"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_st.sum", 278528.0}});
  EXPECT_EQ(result.kernels.at(0).metrics.at("local_store_bytes"), 8912896.0);
  EXPECT_EQ(result.totals.at("local_store_bytes").value, 8912896.0);
}

TEST(fill_measurements, a_recording_made_with_the_hardware_counter_still_gives_its_local_bytes) {
  // Recordings of earlier versions hold l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum, which the metric read
  // then; with neither counter the metric stays unmeasured (the checker reports it missing).
  const case_result older = measured_from({{"l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum", 8912896.0}});
  EXPECT_EQ(older.kernels.at(0).metrics.at("local_store_bytes"), 8912896.0);
  EXPECT_EQ(older.totals.at("local_store_bytes").value, 8912896.0);
  const case_result neither = measured_from({{"smsp__sass_inst_executed_op_local_st.sum", 4.0}});
  EXPECT_EQ(neither.kernels.at(0).metrics.count("local_store_bytes"), 0U);
  EXPECT_EQ(neither.totals.count("local_store_bytes"), 0U);
}

// Two modules of a process each hold a function `twin` (Triton's autotuned configs, CuPy RawModules): each
// launch names the code it ran, and gets that code's static metrics.
kernel_resources twin_code(const std::string& module, int registers, std::size_t spill_store_bytes) {
  kernel_resources k;
  k.mangled = "twin";
  k.function = "twin";
  k.module = module;
  k.registers = registers;
  k.spill_store_bytes = spill_store_bytes;
  return k;
}

profiled_launch twin_launch(const std::string& code) {
  profiled_launch launch;
  launch.mangled = "twin";
  launch.function = "twin";
  launch.code = code;
  return launch;
}

TEST(fill_measurements, same_named_kernels_of_two_modules_each_get_their_own_static_metrics) {
  const std::vector<kernel_resources> resources{twin_code("module 24", 18, 0),
                                                twin_code("module 25", 168, 96)};
  case_result result;
  fill_measurements(result, static_plan(),
                    {twin_launch("module 25"), twin_launch("module 24"), twin_launch("module 25")}, {},
                    resources, {});
  ASSERT_EQ(result.kernels.size(), 3U);
  EXPECT_EQ(result.kernels[0].metrics.at("registers_per_thread"), 168);
  EXPECT_EQ(result.kernels[0].metrics.at("spill_store_bytes"), 96);
  EXPECT_EQ(result.kernels[1].metrics.at("registers_per_thread"), 18);
  EXPECT_EQ(result.kernels[1].metrics.at("spill_store_bytes"), 0);
  EXPECT_EQ(result.kernels[2].metrics.at("registers_per_thread"), 168);
  EXPECT_EQ(result.totals.at("registers_per_thread").value, 168);
}

TEST(fill_measurements, a_launch_whose_code_the_resources_lack_is_unmeasured_not_found_by_name) {
  case_result result;
  fill_measurements(result, static_plan(), {twin_launch("module 26")}, {}, {twin_code("module 24", 18, 0)},
                    {});
  EXPECT_EQ(result.kernels.at(0).metrics.count("registers_per_thread"), 0U);
  EXPECT_NE(result.kernels.at(0).unmeasured.at("registers_per_thread").find("module 26"), std::string::npos);
}

TEST(fill_measurements, code_the_driver_stated_leaves_spills_unmeasured_saying_why_and_no_case_total) {
  kernel_resources stated = twin_code("function of module 0x3000", 168, 0);
  stated.spill_bytes_known = false;
  stated.unknown_because = "its module was loaded before counterguard watched the process";
  case_result result;
  fill_measurements(result, static_plan(),
                    {twin_launch("function of module 0x3000"), twin_launch("module 24")}, {},
                    {stated, twin_code("module 24", 18, 0)}, {});
  EXPECT_EQ(result.kernels.at(0).metrics.at("registers_per_thread"), 168);
  EXPECT_EQ(result.kernels.at(0).metrics.count("spill_store_bytes"), 0U);
  EXPECT_EQ(result.kernels.at(0).unmeasured.at("spill_store_bytes"), stated.unknown_because);
  EXPECT_EQ(result.kernels.at(1).metrics.at("spill_store_bytes"), 0);
  // The worst launch might be the unknown one: no total rather than the other's 0.
  EXPECT_EQ(result.totals.count("spill_store_bytes"), 0U);
  EXPECT_EQ(result.totals.at("registers_per_thread").value, 168);
}

TEST(fill_measurements,
     a_launch_measured_with_the_programs_reports_takes_the_one_that_agrees_with_the_driver) {
  // `run` and `evaluate` measure with the program's compile-time reports, which name no module.
  profiled_launch launch = twin_launch("module 24");
  launch.registers_per_thread = 40;
  case_result same;
  fill_measurements(same, static_plan(), {launch}, {}, {twin_code("", 40, 0)}, {});
  EXPECT_EQ(same.kernels.at(0).metrics.at("registers_per_thread"), 40);
  case_result other;
  fill_measurements(other, static_plan(), {launch}, {}, {twin_code("", 18, 0)}, {});
  EXPECT_EQ(other.kernels.at(0).metrics.count("registers_per_thread"), 0U);
}

TEST(fill_measurements, a_programs_report_of_the_function_fills_in_for_what_the_driver_stated) {
  // The C++ in-process API: the program's own kernel, its module loaded before the first profiled block.
  kernel_resources stated = twin_code("function of module 0x3000", 40, 0);
  stated.spill_bytes_known = false;
  stated.unknown_because = "its module was loaded before counterguard watched the process";
  profiled_launch launch = twin_launch("function of module 0x3000");
  launch.registers_per_thread = 40;
  case_result result;
  fill_measurements(result, static_plan(), {launch}, {}, {stated, twin_code("", 40, 8)}, {});
  EXPECT_EQ(result.kernels.at(0).metrics.at("spill_store_bytes"), 8);
  EXPECT_TRUE(result.kernels.at(0).unmeasured.empty());
}

TEST(fill_measurements, a_launch_without_a_code_key_finds_its_resources_by_name) {
  // Recordings made before launches named their code.
  case_result result;
  fill_measurements(result, static_plan(), {twin_launch("")}, {}, {twin_code("", 40, 0)}, {});
  EXPECT_EQ(result.kernels.at(0).metrics.at("registers_per_thread"), 40);
}

}  // namespace
}  // namespace counterguard
