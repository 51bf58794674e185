// SPDX-License-Identifier: Apache-2.0
// `counterguard record`'s suite, from process records as the injection library writes them: what it selects,
// how it names the cases, and what it does with launches that are not the same in every run.
#include "counterguard/exec/program_suite.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/suite_loader.hpp"

namespace counterguard {
namespace {

// A program's suite names no registered kernel.
class no_kernels final : public kernel_catalog {
 public:
  [[nodiscard]] const kernel_signature* find_signature(const std::string&) const override { return nullptr; }
  [[nodiscard]] std::vector<std::string> kernel_names() const override { return {}; }
};

nvtx_context ranges(std::vector<std::string> path) {
  nvtx_context context;
  if (!path.empty())
    context.stacks.push_back({"", std::move(path)});
  return context;
}

// A process that launched `mangled` `count` times in each context given.
process_record launched(std::vector<std::tuple<std::string, nvtx_context, int>> launches,
                        std::optional<std::int64_t> rank = std::nullopt) {
  process_record record;
  record.process.pid = 100 + rank.value_or(0);
  record.process.executable = "/opt/app/bench";
  record.process.rank = rank;
  for (const auto& [mangled, context, count] : launches) {
    for (int i = 0; i < count; ++i)
      note_launch(record, names_of_kernel(mangled).function, mangled, context);
  }
  return record;
}

program_suite_request request() {
  program_suite_request r;
  r.suite = "bench";
  r.file = "bench.yaml";
  r.program = {"./bench", "--variant", "tiled"};
  r.metrics = default_program_metrics();
  r.recorded_at = "2026-12-04T03:00:00Z";
  r.gpu = "NVIDIA H200";
  return r;
}

// The written suite loaded as `exec` loads it.
std::vector<case_instance> load_written(const program_suite& written) {
  std::string pattern = (std::filesystem::temp_directory_path() / "counterguard-record-XXXXXX").string();
  const std::filesystem::path dir = ::mkdtemp(pattern.data());
  const std::string path = (dir / "bench.yaml").string();
  std::ofstream(path) << written.yaml;
  no_kernels kernels;
  const suite s = load_suite(path, kernels, metric_catalog::builtin());
  std::filesystem::remove_all(dir);
  return expand_instances(s, kernels, metric_catalog::builtin());
}

const case_instance& named(const std::vector<case_instance>& instances, const std::string& name) {
  for (const auto& instance : instances) {
    if (instance.name == name)
      return instance;
  }
  throw std::runtime_error("no case " + name);
}

const std::string vec_add = "_Z7vec_addPKfS0_Pfi";
const std::string tiled32 = "_Z15transpose_tiledILi32EEvPKfPfi";
const std::string tiled33 = "_Z15transpose_tiledILi33EEvPKfPfi";

TEST(program_suite, selects_each_launch_of_a_kernel_launched_a_few_times_and_measures_the_exact_metrics) {
  const std::vector<std::vector<process_record>> runs(2, {launched({{vec_add, ranges({}), 3}})});
  const program_suite written = write_program_suite(runs, request());
  const std::vector<case_instance> instances = load_written(written);
  ASSERT_EQ(instances.size(), 3U) << written.yaml;
  for (std::int64_t i = 0; i < 3; ++i) {
    const case_instance& c = named(instances, "bench/vec_add." + std::to_string(i));
    EXPECT_EQ(c.select->launch_skip, i);
    EXPECT_EQ(c.select->launch_count, std::optional<std::int64_t>(1));
    EXPECT_FALSE(c.select->nvtx.has_value());
    EXPECT_EQ(c.measured_metrics, default_program_metrics());
    EXPECT_TRUE(c.expectations.empty()) << "no number is written into the suite";
  }
  EXPECT_EQ(written.cases, 3U);
  EXPECT_TRUE(written.notes.empty());
}

TEST(program_suite, selects_the_first_and_last_launch_of_a_benchmark_loop) {
  const std::vector<std::vector<process_record>> runs(2, {launched({{vec_add, ranges({}), 5000}})});
  const std::vector<case_instance> instances = load_written(write_program_suite(runs, request()));
  ASSERT_EQ(instances.size(), 2U);
  EXPECT_EQ(named(instances, "bench/vec_add.first").select->launch_skip, 0);
  EXPECT_EQ(named(instances, "bench/vec_add.last").select->launch_skip, 4999);
}

TEST(program_suite, comments_say_where_each_selector_came_from) {
  const std::vector<std::vector<process_record>> runs(2, {launched({{vec_add, ranges({}), 1}})});
  const program_suite written = write_program_suite(runs, request());
  EXPECT_NE(written.yaml.find("# Written by `counterguard record` from 2 runs of: ./bench --variant tiled"),
            std::string::npos)
      << written.yaml;
  EXPECT_NE(written.yaml.find("1 launch in each of 2 runs"), std::string::npos) << written.yaml;
}

TEST(program_suite, tells_template_instances_apart_by_their_arguments) {
  const std::vector<std::vector<process_record>> runs(
      1, {launched({{tiled32, ranges({}), 1}, {tiled33, ranges({}), 1}})});
  const std::vector<case_instance> instances = load_written(write_program_suite(runs, request()));
  ASSERT_EQ(instances.size(), 2U);
  EXPECT_EQ(named(instances, "bench/transpose_tiled_32").select->kernel->matches("transpose_tiled<32>"),
            true);
  EXPECT_EQ(named(instances, "bench/transpose_tiled_33").select->kernel->matches("transpose_tiled<32>"),
            false);
}

TEST(program_suite, selects_by_nvtx_range_with_ordinals_counted_within_the_range) {
  const std::vector<std::vector<process_record>> runs(
      2, {launched({{vec_add, ranges({"step", "forward"}), 2}, {vec_add, ranges({"step", "backward"}), 1}})});
  const std::vector<case_instance> instances = load_written(write_program_suite(runs, request()));
  ASSERT_EQ(instances.size(), 3U);
  const case_instance& second = named(instances, "bench/vec_add.step.forward.1");
  ASSERT_TRUE(second.select->nvtx.has_value());
  EXPECT_TRUE(second.select->nvtx->matches(ranges({"step", "forward"})));
  EXPECT_FALSE(second.select->nvtx->matches(ranges({"step", "backward"})));
  EXPECT_EQ(second.select->launch_skip, 1);
  EXPECT_EQ(named(instances, "bench/vec_add.step.backward").select->launch_skip, 0);
}

TEST(program_suite, a_kernel_launched_both_inside_and_outside_ranges_also_gets_a_selector_without_nvtx) {
  const std::vector<std::vector<process_record>> runs(
      1, {launched({{vec_add, ranges({}), 1}, {vec_add, ranges({"warmup"}), 1}})});
  const std::vector<case_instance> instances = load_written(write_program_suite(runs, request()));
  ASSERT_EQ(instances.size(), 3U);
  EXPECT_FALSE(named(instances, "bench/vec_add.0").select->nvtx.has_value());
  EXPECT_EQ(named(instances, "bench/vec_add.1").select->launch_skip, 1);
  EXPECT_TRUE(named(instances, "bench/vec_add.warmup").select->nvtx.has_value());
}

TEST(program_suite, a_launch_count_that_varies_between_runs_gates_the_first_launch_and_skips_the_later_ones) {
  const std::vector<std::vector<process_record>> runs{{launched({{vec_add, ranges({}), 140}})},
                                                      {launched({{vec_add, ranges({}), 143}})}};
  const program_suite written = write_program_suite(runs, request());
  const std::vector<case_instance> instances = load_written(written);
  ASSERT_EQ(instances.size(), 2U);
  const case_instance& first = named(instances, "bench/vec_add.first");
  EXPECT_EQ(first.select->launch_skip, 0);
  EXPECT_FALSE(first.skip_reason.has_value());
  const case_instance& settled = named(instances, "bench/vec_add.settled");
  EXPECT_EQ(settled.select->launch_skip, 139);
  ASSERT_TRUE(settled.skip_reason.has_value());
  EXPECT_NE(settled.skip_reason->find("by an NVTX range"), std::string::npos) << *settled.skip_reason;
  EXPECT_EQ(written.cases, 1U);
  ASSERT_EQ(written.notes.size(), 1U);
  EXPECT_NE(written.notes[0].find("launches varied between the recording's runs (140, 143"),
            std::string::npos)
      << written.notes[0];
}

TEST(program_suite, a_kernel_launched_in_some_runs_only_is_written_skipped_with_the_reason) {
  const std::vector<std::vector<process_record>> runs{
      {launched({{vec_add, ranges({}), 1}, {tiled32, ranges({}), 1}})},
      {launched({{vec_add, ranges({}), 1}})}};
  const program_suite written = write_program_suite(runs, request());
  const std::vector<case_instance> instances = load_written(written);
  const case_instance& skipped = named(instances, "bench/transpose_tiled_32.first");
  ASSERT_TRUE(skipped.skip_reason.has_value());
  EXPECT_NE(skipped.skip_reason->find("launched in 1 of the recording's 2 runs"), std::string::npos);
  EXPECT_EQ(written.cases, 1U);
  EXPECT_EQ(written.skipped, 1U);
  EXPECT_EQ(written.notes.size(), 1U);
}

TEST(program_suite, ranks_alike_share_cases_and_ranks_that_differ_get_a_process_selector) {
  const std::vector<std::vector<process_record>> runs(
      2, {launched({{vec_add, ranges({}), 1}, {tiled32, ranges({}), 1}}, 0),
          launched({{vec_add, ranges({}), 1}, {tiled32, ranges({}), 2}}, 1)});
  const std::vector<case_instance> instances = load_written(write_program_suite(runs, request()));
  EXPECT_TRUE(named(instances, "bench/vec_add").select->process.is_any());
  EXPECT_EQ(named(instances, "bench/transpose_tiled_32.rank0").select->process.rank,
            std::optional<std::int64_t>(0));
  EXPECT_EQ(named(instances, "bench/transpose_tiled_32.rank1.1").select->process.rank,
            std::optional<std::int64_t>(1));
}

TEST(program_suite, a_long_template_instance_is_named_by_its_function_and_a_hash_of_its_symbol) {
  const std::string fill =
      "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIiEESt5arrayIPcLm1EEEEviT0_T1_";
  const std::vector<std::vector<process_record>> runs(1, {launched({{fill, ranges({}), 1}})});
  const std::vector<case_instance> one = load_written(write_program_suite(runs, request()));
  const std::vector<case_instance> again = load_written(write_program_suite(runs, request()));
  ASSERT_EQ(one.size(), 1U);
  EXPECT_EQ(one[0].name.rfind("bench/vectorized_elementwise_kernel_", 0), 0U) << one[0].name;
  EXPECT_LE(one[0].name.size(), std::string("bench/").size() + 48 + 9);
  EXPECT_EQ(one[0].name, again[0].name);
}

TEST(program_suite, names_stay_unique_when_two_kernels_read_the_same) {
  const std::vector<std::vector<process_record>> runs(
      1, {launched({{"_ZN1a6reduceEPf", ranges({}), 1}, {"_ZN1b6reduceEPf", ranges({}), 1}})});
  const std::vector<case_instance> instances = load_written(write_program_suite(runs, request()));
  ASSERT_EQ(instances.size(), 2U);
  EXPECT_EQ(instances[0].name, "bench/reduce");
  EXPECT_EQ(instances[1].name, "bench/reduce_2");
  EXPECT_TRUE(instances[0].select->kernel->matches("a::reduce"));
  EXPECT_FALSE(instances[0].select->kernel->matches("b::reduce"));
}

}  // namespace
}  // namespace counterguard
