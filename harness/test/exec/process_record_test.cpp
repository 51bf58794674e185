// SPDX-License-Identifier: Apache-2.0
// What each process under `counterguard exec` records about itself, and reading it back.
#include "counterguard/exec/process_record.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace counterguard {
namespace {

std::string temporary_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("counterguard_exec_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// A launch inside the push/pop ranges `ranges` of `domain`.
nvtx_context inside(std::vector<std::string> ranges, std::string domain = "") {
  nvtx_context context;
  context.stacks.push_back({std::move(domain), std::move(ranges)});
  return context;
}

TEST(process_record, launches_are_counted_per_kernel_with_their_first_nvtx_contexts) {
  process_record record;
  for (int i = 0; i < 20; ++i)
    note_launch(record, "ns::reduce<256>", "_Z6reduce", inside({"step " + std::to_string(i % 10)}));
  note_launch(record, "init", "_Z4init", nvtx_context{});
  EXPECT_EQ(record.launches, 21);
  ASSERT_EQ(record.kernels.size(), 2U);
  EXPECT_EQ(record.kernels[0].launches, 20);
  EXPECT_EQ(record.kernels[0].nvtx.size(), process_record::max_nvtx_contexts_per_kernel);
  EXPECT_EQ(record.kernels[0].nvtx.front(), "step 0");
  ASSERT_EQ(record.kernels[0].contexts.size(), process_record::max_nvtx_contexts_per_kernel);
  EXPECT_EQ(record.kernels[0].contexts.front().ranges_of(""), std::vector<std::string>{"step 0"});
  EXPECT_EQ(record.kernels[1].function, "init");
  EXPECT_EQ(record.kernels[1].nvtx.front(), "(none)");
}

TEST(process_record, launches_are_counted_per_context_for_the_contexts_kept) {
  process_record record;
  for (int i = 0; i < 20; ++i)
    note_launch(record, "ns::reduce<256>", "_Z6reduce", inside({"step " + std::to_string(i % 10)}));
  // Ten contexts, two launches each: the first eight are kept with their counts, the others are in the total.
  EXPECT_EQ(record.kernels[0].context_launches, std::vector<std::int64_t>(8, 2));
  const std::string path = ::testing::TempDir() + "context_launches.json";
  save_process_record(path, record);
  EXPECT_EQ(load_process_record(path).kernels[0].context_launches, std::vector<std::int64_t>(8, 2));
}

TEST(process_record, a_saved_record_reads_back_whole) {
  process_record record;
  record.process.pid = 4242;
  record.process.argv = {"./app", "--n", "4"};
  record.process.rank = 1;
  device_description device;
  device.name = "NVIDIA H200";
  device.chip = "GH100";
  device.sm_count = 132;
  device.compute_capability = 90;
  device.cuda_runtime_version = "13.0";
  record.device = device;
  nvtx_context context = inside({"phase/transform"});
  context.stacks.push_back({"CCCL", {"cub::DeviceTransform::Transform"}});
  context.start_end.push_back({"", "epoch 1"});
  note_launch(record, "k", "_Z1kv", context);
  kernel_resources resources;
  resources.mangled = "_Z1kv";
  resources.function = "k";
  resources.architecture = "sm_90";
  resources.registers = 64;
  resources.stack_frame_bytes = 3824;
  resources.spill_store_bytes = 3820;
  record.kernels.front().resources = resources;
  record.cases.push_back({"s/a", true, 3, 2, {"kernel 'k': launch failed"}});
  record.environment = environment_problem::profiler_busy;
  record.environment_message = "held by ncu";
  record.finished = true;
  const std::string path = temporary_file("record.json");
  save_process_record(path, record);
  const process_record back = load_process_record(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.process.argv, record.process.argv);
  EXPECT_EQ(back.process.rank, 1);
  ASSERT_TRUE(back.device.has_value());
  EXPECT_EQ(back.device->sm_count, 132);
  EXPECT_EQ(back.kernels.at(0).mangled, "_Z1kv");
  ASSERT_EQ(back.kernels.at(0).contexts.size(), 1U);
  EXPECT_EQ(back.kernels.at(0).contexts.front().describe(), context.describe());
  EXPECT_EQ(back.kernels.at(0).contexts.front().ranges_of("CCCL"),
            std::vector<std::string>{"cub::DeviceTransform::Transform"});
  ASSERT_TRUE(back.kernels.at(0).resources.has_value());
  EXPECT_EQ(back.kernels.at(0).resources->registers, 64);
  EXPECT_EQ(back.kernels.at(0).resources->spill_store_bytes, 3820U);
  EXPECT_EQ(back.cases.at(0).profiled, 2);
  EXPECT_EQ(back.cases.at(0).errors.at(0), "kernel 'k': launch failed");
  EXPECT_EQ(back.environment, environment_problem::profiler_busy);
  EXPECT_TRUE(back.finished);
}

TEST(process_record, the_code_of_each_launched_function_reads_back_with_its_key_and_what_is_unknown) {
  process_record record;
  kernel_resources own;
  own.mangled = "twin";
  own.module = "module 25";
  own.registers = 168;
  own.spill_store_bytes = 96;
  kernel_resources stated;
  stated.mangled = "twin";
  stated.module = "function of module 0x3000";
  stated.registers = 18;
  stated.spill_bytes_known = false;
  stated.barriers_known = false;
  stated.unknown_because = "its module was loaded before counterguard watched the process";
  record.functions = {own, stated};
  const std::string path = temporary_file("functions.json");
  save_process_record(path, record);
  const process_record back = load_process_record(path);
  std::filesystem::remove(path);
  ASSERT_EQ(back.functions.size(), 2U);
  EXPECT_EQ(back.functions[0].module, "module 25");
  EXPECT_EQ(back.functions[0].spill_store_bytes, 96U);
  EXPECT_TRUE(back.functions[0].barriers_known);
  EXPECT_EQ(back.functions[1].module, "function of module 0x3000");
  EXPECT_FALSE(back.functions[1].spill_bytes_known);
  EXPECT_FALSE(back.functions[1].barriers_known);
  EXPECT_EQ(back.functions[1].unknown_because, stated.unknown_because);
}

TEST(process_record, a_malformed_record_names_the_file_and_field) {
  const std::string path = temporary_file("bad.json");
  std::ofstream(path) << R"({"schema_version": 1, "process": {"pid": "x"}})";
  try {
    (void)load_process_record(path);
    ADD_FAILURE() << "a pid that is not a number loaded";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("process.pid"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
  EXPECT_THROW((void)load_process_record(path), input_error);
}

TEST(process_record, environment_problems_have_stable_names) {
  for (const environment_problem problem :
       {environment_problem::no_gpu, environment_problem::insufficient_privileges,
        environment_problem::profiler_busy, environment_problem::under_external_profiler,
        environment_problem::unsupported_device}) {
    EXPECT_EQ(environment_problem_from_name(environment_problem_name(problem)), problem);
  }
  EXPECT_EQ(environment_problem_from_name("teapot"), std::nullopt);
}

}  // namespace
}  // namespace counterguard
