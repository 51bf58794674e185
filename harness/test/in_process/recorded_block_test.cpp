// SPDX-License-Identifier: Apache-2.0
// A block saved with save_profiled_block measures again to what it measured, with the compiler resources of
// the kernels it launched and whether their launch attributes were known: the H200 image of five launches
// (harness/test/fixtures) as the block.
#include "counterguard/in_process/recorded_block.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "counterguard/core/error.hpp"
#include "counterguard/core/temporary_directory.hpp"
#include "counterguard/evaluator/counter_data_archive.hpp"
#include "counterguard/exec/exec_envelope.hpp"
#include "counterguard/in_process/process_profiler.hpp"
#include "fixture_image.hpp"

namespace counterguard {
namespace {

constexpr const char* raw_store_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";

kernel_resources resources_of(const std::string& function, std::size_t spill_store_bytes) {
  kernel_resources resources;
  resources.function = function;
  resources.mangled = function;
  resources.architecture = "sm_90";
  resources.registers = 40;
  resources.spill_store_bytes = spill_store_bytes;
  return resources;
}

// The fixture's five launches as the archive `counterguard run` writes, and the resources of two kernels
// (one that the block launched, one that it did not).
class saved_block : public ::testing::Test {
 protected:
  void SetUp() override {
    archived_case recorded;
    recorded.name = "five_kernels";
    recorded.raw_metrics = {raw_store_sectors, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"};
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
    archive.chip = "GH100";
    archive.cases.push_back(recorded);
  }

  void write_recording() const {
    save_counter_data_archive(m_recorded.path(), archive);
    save_recorded_resources(m_recorded.path(),
                            {resources_of("demo::copy", 8), resources_of("demo::unused", 16)});
  }

  [[nodiscard]] profile_result measure_recorded(const std::vector<std::string>& metrics) const {
    return measure_recorded_block(m_recorded.path(), 0, metrics);
  }
  [[nodiscard]] profile_result measure_saved(const std::vector<std::string>& metrics) const {
    return measure_recorded_block(m_saved.path(), 0, metrics);
  }
  void save(const profile_result& result) const {
    save_profiled_block(result, saved_path(), "tests/test_copy.py::test_copy#1", "GH100",
                        nlohmann::json{{"nodeid", "tests/test_copy.py::test_copy"}});
  }

  [[nodiscard]] std::filesystem::path saved_path() const { return m_saved.path(); }

  counter_data_archive archive;

 private:
  temporary_directory m_recorded{"recorded_block_test"};
  temporary_directory m_saved{"recorded_block_test"};
};

TEST_F(saved_block, measures_again_to_the_same_values_per_launch_and_in_total) {
  write_recording();
  const std::vector<std::string> metrics = {"global_store_sectors_hw", "launch_registers_per_thread"};
  const profile_result first = measure_recorded(metrics);
  save(first);
  const profile_result again = measure_saved(metrics);
  EXPECT_EQ(again.value("global_store_sectors_hw"), 163840);
  EXPECT_EQ(again.value("launch_registers_per_thread"), first.value("launch_registers_per_thread"));
  ASSERT_EQ(result_record(again).kernels.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i)
    EXPECT_EQ(result_record(again).kernels[i].metrics, result_record(first).kernels[i].metrics) << i;
  EXPECT_EQ(again.for_kernel("copy").value("global_store_sectors_hw"), 65536);
  EXPECT_EQ(load_counter_data_archive(saved_path()).cases.at(0).name, "tests/test_copy.py::test_copy#1");
}

TEST_F(saved_block, keeps_the_resources_of_the_kernels_it_launched_only) {
  write_recording();
  const profile_result first = measure_recorded({"spill_store_bytes"});
  ASSERT_EQ(first.for_kernel("copy").value("spill_store_bytes"), 8);
  save(first);
  EXPECT_EQ(measure_saved({"spill_store_bytes"}).for_kernel("copy").value("spill_store_bytes"), 8);
  const std::vector<kernel_resources> kept = load_recorded_resources(saved_path());
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].function, "demo::copy");
}

TEST_F(saved_block, launch_metrics_stay_unmeasured_where_the_launch_attributes_were_unknown) {
  archive.metadata = {{"launch_attributes_known", false}};
  write_recording();
  const profile_result first = measure_recorded({"launch_registers_per_thread", "global_store_sectors_hw"});
  EXPECT_FALSE(first.has("launch_registers_per_thread"));
  save(first);
  const profile_result again = measure_saved({"launch_registers_per_thread", "global_store_sectors_hw"});
  EXPECT_FALSE(again.has("launch_registers_per_thread"));
  EXPECT_EQ(again.value("global_store_sectors_hw"), 163840);
}

TEST_F(saved_block, a_result_without_counter_data_is_refused) {
  EXPECT_THROW(save(profile_result{}), input_error);
}

}  // namespace
}  // namespace counterguard
