// SPDX-License-Identifier: Apache-2.0
// A profiled block's result and its narrowing to one kernel, measured from the H200 counter-data image of
// five launches (harness/test/fixtures) as a recorded block: the values are the H200's.
#include "counterguard/in_process/profile_result.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "counterguard/core/error.hpp"
#include "counterguard/core/temporary_directory.hpp"
#include "counterguard/evaluator/counter_data_archive.hpp"
#include "counterguard/in_process/process_profiler.hpp"
#include "fixture_image.hpp"

namespace counterguard {
namespace {

constexpr const char* store_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
constexpr const char* store_ratio = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio";

// The fixture's five launches (store sectors 0, 32768, 32768, 32768, 65536), launches 1 and 3 given the
// same kernel.
class recorded_block : public ::testing::Test {
 protected:
  void SetUp() override {
    archived_case recorded;
    recorded.name = "five_kernels";
    recorded.raw_metrics = {store_sectors, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", store_ratio};
    recorded.passes = 1;
    recorded.image = test::h200_five_kernels_image();
    const std::vector<std::string> functions = {"demo::atomic_count", "demo::copy", "demo::shared_conflict",
                                                "demo::copy", "demo::divergent"};
    for (std::size_t i = 0; i < functions.size(); ++i) {
      profiled_launch launch;
      launch.range_index = static_cast<int>(i);
      launch.range_name = std::to_string(i);
      launch.function = functions[i];
      launch.mangled = functions[i];
      launch.registers_per_thread = static_cast<int>(16 + i);
      recorded.launches.push_back(launch);
    }
    counter_data_archive archive;
    archive.chip = "GH100";
    archive.cases.push_back(recorded);
    save_counter_data_archive(m_directory.path(), archive);
  }

  [[nodiscard]] profile_result measure(const std::vector<std::string>& metrics) const {
    return measure_recorded_block(m_directory.path(), 0, metrics);
  }

 private:
  temporary_directory m_directory{"in_process_test"};
};

TEST_F(recorded_block, totals_add_counts_over_every_launch) {
  const profile_result result = measure({"global_store_sectors_hw", store_sectors});
  ASSERT_EQ(result_record(result).kernels.size(), 5u);
  EXPECT_EQ(result.value("global_store_sectors_hw"), 163840);
  EXPECT_EQ(result.value(store_sectors), 163840);
  EXPECT_EQ(result.cls("global_store_sectors_hw"), metric_class::exact);
  EXPECT_EQ(result.kernel_names(),
            "demo::atomic_count, demo::copy, demo::shared_conflict, demo::copy, demo::divergent");
}

TEST_F(recorded_block, for_kernel_totals_that_kernels_launches_by_full_or_last_name) {
  const profile_result result = measure({"global_store_sectors_hw", "launch_registers_per_thread"});
  const profile_result copy = result.for_kernel("copy");
  ASSERT_EQ(result_record(copy).kernels.size(), 2u);
  EXPECT_EQ(copy.value("global_store_sectors_hw"), 65536);
  EXPECT_EQ(copy.value("launch_registers_per_thread"), 19);  // the largest of the two launches (17, 19)
  EXPECT_EQ(result.for_kernel("demo::divergent").value("global_store_sectors_hw"), 65536);
  EXPECT_EQ(copy.for_kernel("demo::copy").value("global_store_sectors_hw"), 65536);
}

TEST_F(recorded_block, a_ratio_is_not_summed_over_launches) {
  const profile_result result = measure({store_ratio});
  EXPECT_EQ(result.for_kernel("divergent").value(store_ratio), 4);  // one launch: its own value
  // Two launches of a non-summable metric: unmeasured rather than 4 + 4.
  EXPECT_FALSE(result.for_kernel("copy").has(store_ratio));
}

TEST_F(recorded_block, a_kernel_that_never_ran_has_nothing) {
  const profile_result none = measure({"global_store_sectors_hw"}).for_kernel("absent");
  EXPECT_TRUE(result_record(none).kernels.empty());
  EXPECT_FALSE(none.has("global_store_sectors_hw"));
  EXPECT_TRUE(std::isnan(none.value("global_store_sectors_hw")));
  EXPECT_EQ(none.kernel_names(), "no kernel launches");
}

TEST_F(recorded_block, an_unknown_metric_is_an_input_error) {
  EXPECT_THROW(static_cast<void>(measure({"global_store_sector"})), input_error);
}

TEST(profile_result, a_result_read_back_without_counters_sums_only_plain_counts) {
  case_result whole;
  for (int i = 0; i < 2; ++i) {
    kernel_measurement launch;
    launch.function = "demo::copy";
    launch.launch_index = i;
    launch.metrics = {{"global_load_requests", 100.0}, {"global_load_sectors_per_request", 4.0}};
    whole.kernels.push_back(launch);
  }
  const profile_result narrowed = profile_result(whole).for_kernel("copy");
  EXPECT_EQ(narrowed.value("global_load_requests"), 200);
  // A ratio cannot be re-totalled without its counters: unmeasured, never 4 + 4.
  EXPECT_FALSE(narrowed.has("global_load_sectors_per_request"));
}

}  // namespace
}  // namespace counterguard
