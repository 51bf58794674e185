// SPDX-License-Identifier: Apache-2.0
#include "counterguard/metrics/metric_catalog.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "counterguard/build_info.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/metrics/derived_metric.hpp"
#include "counterguard/metrics/metric_definition.hpp"

namespace counterguard {
namespace {

const metric_catalog& catalog() {
  return metric_catalog::builtin();
}

TEST(metric_catalog, exact_bank_conflicts_are_instrumented_wavefronts_minus_instructions) {
  const metric_definition m = catalog().resolve("shared_store_bank_conflicts");
  EXPECT_EQ(m.cls, metric_class::exact);
  const double conflicts = evaluate_derived_metric(
      m, {{"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 4194304.0},
          {"smsp__sass_inst_executed_op_shared_st.sum", 131072.0}});
  EXPECT_EQ(conflicts, 4063232.0);  // 31 * 2048 * 2048 / 32, as measured on the H200
}

TEST(metric_catalog, an_entry_as_tools_read_it_names_its_source_and_formula) {
  const nlohmann::json registers = metric_definition_json(*catalog().find_alias("registers_per_thread"));
  EXPECT_EQ(registers.at("source"), "compiler");
  EXPECT_EQ(registers.at("formula"), "registers");
  EXPECT_EQ(registers.at("class"), "static");
  const nlohmann::json conflicts =
      metric_definition_json(*catalog().find_alias("shared_load_bank_conflicts"));
  EXPECT_EQ(conflicts.at("source"), "cupti");
  EXPECT_EQ(conflicts.at("class"), "exact");
  EXPECT_FALSE(conflicts.at("raw_inputs").empty());
  EXPECT_EQ(conflicts.size(),
            9U);  // name, class, direction, source, formula, raw_inputs, summable, unit, description
}

TEST(metric_catalog, the_hardware_bank_conflict_counter_is_noisy) {
  EXPECT_EQ(catalog().resolve("shared_store_bank_conflicts_hw").cls, metric_class::noisy);
}

TEST(metric_catalog, sectors_per_request_is_a_summable_ratio) {
  const metric_definition m = catalog().resolve("global_load_sectors_per_request");
  EXPECT_TRUE(m.summable);
  ASSERT_EQ(m.raw_inputs.size(), 2U);  // sectors, then requests
  EXPECT_EQ(evaluate_derived_metric(m, {{m.raw_inputs[0], 1048576.0}, {m.raw_inputs[1], 262144.0}}), 4.0);
}

TEST(metric_catalog, a_ratio_over_zero_requests_is_zero_not_infinite) {
  const metric_definition m = catalog().resolve("global_store_sectors_per_request");
  EXPECT_EQ(evaluate_derived_metric(m, {{m.raw_inputs[0], 0.0}, {m.raw_inputs[1], 0.0}}), 0.0);
}

TEST(metric_catalog, a_counter_cupti_could_not_evaluate_stays_nan) {
  const metric_definition m = catalog().resolve("global_store_sectors_per_request");
  EXPECT_TRUE(
      std::isnan(evaluate_derived_metric(m, {{m.raw_inputs[0], std::nan("")}, {m.raw_inputs[1], 4.0}})));
}

TEST(metric_catalog, exact_aliases_prefer_instrumented_counters_and_keep_the_hardware_ones_as_hw) {
  EXPECT_EQ(catalog().resolve("global_load_sectors").formula,
            "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum");
  EXPECT_EQ(catalog().resolve("global_load_sectors_hw").formula,
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
}

TEST(metric_catalog, a_missing_input_names_the_counter) {
  try {
    static_cast<void>(evaluate_derived_metric(catalog().resolve("shared_load_bank_conflicts"), {}));
    FAIL() << "expected an error";
  } catch (const internal_error& e) {
    EXPECT_NE(std::string(e.what()).find("smsp__sass_"), std::string::npos) << e.what();
  }
}

TEST(metric_catalog, static_metrics_come_from_the_compiler) {
  const metric_definition m = catalog().resolve("spill_store_bytes");
  EXPECT_EQ(m.cls, metric_class::static_resource);
  EXPECT_EQ(m.source, metric_source::compiler);
}

TEST(metric_catalog, raw_names_are_classified_by_what_they_count) {
  EXPECT_EQ(catalog().resolve("gpu__time_duration.sum").cls, metric_class::noisy);
  EXPECT_EQ(catalog().resolve("dram__bytes_read.sum").cls, metric_class::noisy);
  EXPECT_EQ(catalog().resolve("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum").cls, metric_class::exact);
  EXPECT_TRUE(catalog().resolve("smsp__inst_executed.sum").summable);
  EXPECT_FALSE(catalog().resolve("smsp__average_thread_inst_executed_per_inst_executed.ratio").summable);
}

TEST(metric_catalog, names_that_are_neither_alias_nor_cupti_shaped_are_refused) {
  EXPECT_FALSE(metric_catalog::looks_like_raw_cupti_name("shared_bank_conflicts"));
  EXPECT_TRUE(metric_catalog::looks_like_raw_cupti_name("sm__warps_active.avg.pct_of_peak_sustained_active"));
  EXPECT_FALSE(catalog().try_resolve("shared_bank_conflicts").has_value());
  EXPECT_TRUE(catalog().try_resolve("sm__warps_active.avg.pct_of_peak_sustained_active").has_value());
  EXPECT_THROW(static_cast<void>(catalog().resolve("shared_bank_conflicts")), internal_error);
}

TEST(metric_catalog, suggests_the_closest_aliases) {
  const auto suggestions = catalog().closest_aliases("shared_store_bank_conflict", 1);
  ASSERT_EQ(suggestions.size(), 1U);
  EXPECT_EQ(suggestions[0], "shared_store_bank_conflicts");
}

TEST(metric_catalog, ncus_launch_metric_names_are_launch_metrics_that_read_no_cupti_counter) {
  for (const char* name :
       {"launch__registers_per_thread", "launch__occupancy_limit_registers",
        "launch__waves_per_multiprocessor", "device__attribute_max_threads_per_block",
        "device__attribute_max_warps_per_multiprocessor", "sm__maximum_warps_per_active_cycle_pct"}) {
    const std::optional<metric_definition> definition = catalog().try_resolve(name);
    ASSERT_TRUE(definition.has_value()) << name;
    EXPECT_TRUE(catalog().knows(name)) << name;
    EXPECT_EQ(definition->source, metric_source::launch) << name;
    EXPECT_TRUE(definition->raw_inputs.empty()) << name;
    EXPECT_EQ(definition->cls, metric_class::exact) << name;
  }
}

TEST(metric_catalog, an_ncu_launch_name_counterguard_does_not_report_is_unknown_with_the_closest_ones) {
  EXPECT_FALSE(catalog().knows("launch__registers_per_threads"));
  EXPECT_FALSE(catalog().knows("device__attribute_display_name"));  // ncu's own, not a CUDA attribute
  const auto suggestions = catalog().closest_aliases("launch__registers_per_threads", 1);
  ASSERT_EQ(suggestions.size(), 1U);
  EXPECT_EQ(suggestions[0], "launch__registers_per_thread");
}

TEST(metric_catalog, ncus_carveout_barrier_and_id_names_are_reported) {
  for (const char* name : {"launch__shared_mem_config_size", "launch__occupancy_limit_shared_mem",
                           "launch__shared_mem_per_block_allocated", "launch__barrier_count",
                           "launch__occupancy_limit_barriers", "launch__stream_id", "launch__context_id",
                           "launch__device_id", "launch__stack_size", "launch__persisting_l2_cache_size"}) {
    EXPECT_TRUE(catalog().knows(name)) << name;
    EXPECT_EQ(catalog().resolve(name).source, metric_source::launch) << name;
  }
}

TEST(metric_catalog, an_ncu_launch_name_counterguard_refuses_says_why) {
  EXPECT_FALSE(catalog().knows("launch__function_pcs"));
  const std::string problem = metric_catalog::unknown_metric_problem("launch__function_pcs");
  EXPECT_NE(problem.find("not reported"), std::string::npos) << problem;
  EXPECT_NE(problem.find("device addresses"), std::string::npos) << problem;
  EXPECT_NE(metric_catalog::unknown_metric_problem("launch__func_cache_config").find("text"),
            std::string::npos);
  EXPECT_TRUE(catalog().closest_aliases("launch__function_pcs").empty());  // the reason, not a look-alike
  EXPECT_EQ(metric_catalog::unknown_metric_problem("launch__barriers"), "unknown metric 'launch__barriers'");
}

TEST(metric_catalog, a_barrier_name_ncu_does_not_have_is_pointed_at_the_one_it_has) {
  const auto suggestions = catalog().closest_aliases("launch__barriers", 3);
  EXPECT_NE(std::find(suggestions.begin(), suggestions.end(), "launch__barrier_count"), suggestions.end());
}

// The catalog is only useful if CUPTI knows every counter it reads on the chip we target.
TEST(metric_catalog, every_alias_input_is_a_valid_metric_on_the_default_chip) {
  const metric_name_validator validator(COUNTERGUARD_DEFAULT_CHIP);
  for (const auto& name : catalog().alias_names()) {
    for (const auto& raw : catalog().resolve(name).raw_inputs) {
      EXPECT_TRUE(validator.is_valid(raw))
          << name << " reads " << raw << ", unknown on " << COUNTERGUARD_DEFAULT_CHIP;
    }
  }
}

}  // namespace
}  // namespace counterguard
