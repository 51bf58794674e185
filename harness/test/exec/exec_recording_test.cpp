// SPDX-License-Identifier: Apache-2.0
// Evaluating what `counterguard exec` recorded, with no GPU: counter data recorded on an H200
// (harness/test/fixtures/h200_builtin) laid out as the injection library lays out a process's launches.
#include "counterguard/exec/exec_recording.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "counterguard/exec/exec_envelope.hpp"
#include "counterguard/metrics/metric_catalog.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;

const fs::path fixtures = fs::path(COUNTERGUARD_SOURCE_DIR) / "harness/test/fixtures/h200_builtin";
const std::string per_thread = "atomics/per_thread?block=128";  // fixture 0000: one launch

// The instance the suite gives, selecting launches (the expectations' metrics decide what is measured).
case_instance atomics_instance(const std::string& name = per_thread) {
  case_instance instance;
  instance.suite = "atomics";
  instance.case_name = name.substr(name.find('/') + 1);
  instance.name = name;
  launch_selector selector;
  selector.kernel = name_pattern::glob("per_thread");
  selector.where = {"atomics.yaml", 12, 13};
  instance.select = selector;
  for (const char* metric : {"global_reduction_requests", "global_atomic_requests",
                             "shared_atomic_instructions", "launch_registers_per_thread"}) {
    resolved_expectation expectation;
    expectation.metric = metric;
    instance.expectations.push_back(expectation);
  }
  return instance;
}

class exec_recording : public ::testing::Test {
 protected:
  exec_recording() {
    m_directory =
        fs::temp_directory_path() / ("counterguard_exec_recording_" + std::to_string(::getpid()) + "_" +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_directory);
    fs::create_directories(m_directory);
  }
  ~exec_recording() override { fs::remove_all(m_directory); }

  // A process folder as the injection writes it; `launches` are fixture archive numbers, each recorded for
  // the cases of `names`.
  fs::path add_process(std::int64_t pid, std::optional<std::int64_t> rank,
                       const std::vector<int>& fixture_numbers, const std::vector<std::string>& names,
                       bool attributes_known = true, const std::vector<kernel_resources>& codes = {}) {
    process_record record;
    record.process.pid = pid;
    record.process.started_ns = pid;
    record.process.executable = "/work/bin/app";
    record.process.argv = {"./app"};
    record.process.rank = rank;
    record.device = device_description{};
    record.device->chip = "GH100";
    record.device->sm_count = 132;
    record.device->compute_capability = 90;
    record.finished = true;
    for (const auto& name : names)
      record.cases.push_back({name,
                              true,
                              static_cast<std::int64_t>(fixture_numbers.size()),
                              static_cast<std::int64_t>(fixture_numbers.size()),
                              {}});
    const fs::path folder = process_folder(m_directory, record.process);
    fs::create_directories(folder);
    int index = 0;
    for (const int number : fixture_numbers) {
      char fixture[8];
      std::snprintf(fixture, sizeof(fixture), "%04d", number);
      const counter_data_archive archive = load_counter_data_archive(fixtures / fixture);
      for (const auto& launch : archive.cases.front().launches)
        note_launch(record, launch.function, launch.mangled, nvtx_context{{{"", {"main", "step"}}}, {}});
      recorded_launch launch;
      launch.cases = names;
      launch.data = archive.cases.front();
      if (!codes.empty()) {  // the launch names the code it ran, kept in the record
        const kernel_resources& code = codes.at(static_cast<std::size_t>(index));
        for (auto& ran : launch.data.launches)
          ran.code = code.module;
        record.functions.push_back(code);
      }
      launch.seconds = 0.01;
      launch.attributes_known = attributes_known;
      save_recorded_launch(folder, index++, archive.chip, launch);
    }
    save_process_record((folder / "process.json").string(), record);
    return folder;
  }

  exec_evaluation evaluate(const std::vector<case_instance>& instances) {
    return evaluate_exec_recording(load_recorded_processes(m_directory), instances, {}, {});
  }

  // The fixture run's total of a metric for an instance.
  static double recorded_total(const std::string& instance, const std::string& metric) {
    std::ifstream in(fixtures / "results.json");
    const nlohmann::json results = nlohmann::json::parse(in);
    for (const auto& c : results["cases"]) {
      if (c["instance"] == instance)
        return c["totals"][metric]["value"].get<double>();
    }
    ADD_FAILURE() << instance << " is not in the fixture results";
    return -1;
  }

  fs::path m_directory;
};

TEST_F(exec_recording, a_recorded_launch_measures_the_values_the_gpu_run_measured) {
  add_process(100, std::nullopt, {0}, {per_thread});
  const exec_evaluation evaluation = evaluate({atomics_instance()});
  ASSERT_EQ(evaluation.results.size(), 1U);
  const case_result& result = evaluation.results[0];
  EXPECT_EQ(result.instance, per_thread);
  EXPECT_EQ(result.kernel, "kernel 'per_thread'");
  ASSERT_EQ(result.kernels.size(), 1U);
  EXPECT_EQ(result.kernels[0].function, "counterguard::kernels::atomics::per_thread");
  for (const char* metric :
       {"global_reduction_requests", "global_atomic_requests", "shared_atomic_instructions"})
    EXPECT_EQ(result.totals.at(metric).value, recorded_total(per_thread, metric)) << metric;
  // The kernel's 8 registers, as ncu's launch__registers_per_thread reports them: at least 16.
  EXPECT_EQ(result.totals.at("launch_registers_per_thread").value, 16);
  EXPECT_EQ(result.passes, 1);
  ASSERT_TRUE(evaluation.device.has_value());
  EXPECT_EQ(evaluation.device->chip, "GH100");
}

TEST_F(exec_recording, launches_of_a_case_in_several_archives_add_up_like_one_image) {
  // Two launches of the same kernel, each profiled alone: the case's summable totals are their sum.
  add_process(100, std::nullopt, {0, 0}, {per_thread});
  const case_result result = evaluate({atomics_instance()}).results.at(0);
  ASSERT_EQ(result.kernels.size(), 2U);
  EXPECT_EQ(result.kernels[1].launch_index, 1);
  EXPECT_EQ(result.totals.at("global_reduction_requests").value,
            2 * recorded_total(per_thread, "global_reduction_requests"));
}

TEST_F(exec_recording, each_rank_is_a_result_of_its_own) {
  add_process(200, 1, {0}, {per_thread});
  add_process(100, 0, {0}, {per_thread});
  const exec_evaluation evaluation = evaluate({atomics_instance()});
  ASSERT_EQ(evaluation.results.size(), 2U);
  EXPECT_EQ(evaluation.results[0].instance, per_thread + ",rank=0");
  EXPECT_EQ(evaluation.results[1].instance, per_thread + ",rank=1");
  EXPECT_EQ(evaluation.instances[1].name, per_thread + ",rank=1");
  EXPECT_EQ(evaluation.results[1].parameters.at("rank"), "1");
  EXPECT_EQ(evaluation.results[0].totals.at("global_reduction_requests").value,
            evaluation.results[1].totals.at("global_reduction_requests").value);
}

TEST_F(exec_recording, a_case_that_selected_nothing_fails_listing_the_kernels_launched) {
  add_process(100, std::nullopt, {0, 1}, {per_thread});
  case_instance missing = atomics_instance("atomics/none");
  missing.select->kernel = name_pattern::glob("reduce*");
  const exec_evaluation evaluation = evaluate({missing});
  ASSERT_EQ(evaluation.results.size(), 1U);
  const case_result& result = evaluation.results[0];
  ASSERT_EQ(result.checks.size(), 1U);
  const check_outcome& check = result.checks[0];
  EXPECT_TRUE(check.failing);
  EXPECT_EQ(check.origin, "selection");
  EXPECT_EQ(check.metric, "selected_launches");
  EXPECT_EQ(check.source->to_string(), "atomics.yaml:12:13");
  EXPECT_NE(check.message.find("selected no kernel launch (kernel 'reduce*')"), std::string::npos)
      << check.message;
  EXPECT_NE(check.message.find("the program launched 1 kernel, the closest to the selector first: "
                               "'counterguard::kernels::atomics::per_thread' (2 launches)"),
            std::string::npos)
      << check.message;
}

TEST_F(exec_recording, a_near_miss_says_why_and_what_to_write) {
  add_process(100, std::nullopt, {0}, {per_thread});  // launched inside "main" > "step"
  case_instance missing = atomics_instance("atomics/none");
  nvtx_selector one_range;
  one_range.path.push_back(name_pattern::glob("main/step"));
  missing.select->nvtx = one_range;
  const check_outcome check = evaluate({missing}).results.at(0).checks.at(0);
  EXPECT_NE(
      check.message.find("selected no kernel launch (kernel 'per_thread', inside NVTX 'main/step'): "
                         "`nvtx: [\"main/step\"]` asks for one range whose name holds '/', and the program "
                         "pushed the parts as nested ranges; write `nvtx: \"main/step\"`"),
      std::string::npos)
      << check.message;
}

TEST_F(exec_recording, launch_ordinals_past_the_matches_say_which_ordinal_to_write) {
  add_process(100, std::nullopt, {0, 0}, {per_thread});
  // The process matched twice and profiled nothing: the selector skips 5.
  case_instance late = atomics_instance("atomics/late");
  late.select->launch_skip = 5;
  std::vector<recorded_process> processes = load_recorded_processes(m_directory);
  processes.at(0).launches.clear();
  processes.at(0).record.cases.push_back({"atomics/late", true, 2, 0, {}});
  const check_outcome check = evaluate_exec_recording(processes, {late}, {}, {}).results.at(0).checks.at(0);
  EXPECT_NE(
      check.message.find("2 launches matched, fewer than the 5 the selector skips (launch ordinals count "
                         "from 0 in each process); write `launch: 1` for the last of them, or `launch: "
                         "{skip: 0, count: 2}` for all"),
      std::string::npos)
      << check.message;
}

TEST_F(exec_recording, static_metrics_come_from_the_loaded_module_when_the_program_files_have_none) {
  // A JIT-compiled kernel: no file holds its cubin; the injection read the module the driver loaded.
  const fs::path folder = add_process(100, std::nullopt, {0}, {per_thread});
  process_record record = load_process_record((folder / "process.json").string());
  kernel_resources loaded;
  loaded.mangled = record.kernels.at(0).mangled;
  loaded.function = record.kernels.at(0).function;
  loaded.architecture = "sm_90";
  loaded.registers = 64;
  loaded.stack_frame_bytes = 3824;
  loaded.spill_store_bytes = 3820;
  record.kernels.at(0).resources = loaded;
  save_process_record((folder / "process.json").string(), record);
  case_instance instance = atomics_instance();
  for (const char* metric : {"registers_per_thread", "spill_store_bytes", "stack_frame_bytes"}) {
    resolved_expectation expectation;
    expectation.metric = metric;
    instance.expectations.push_back(expectation);
  }
  const case_result result = evaluate({instance}).results.at(0);
  EXPECT_EQ(result.totals.at("registers_per_thread").value, 64);
  EXPECT_EQ(result.totals.at("spill_store_bytes").value, 3820);
  EXPECT_EQ(result.totals.at("stack_frame_bytes").value, 3824);
}

TEST_F(exec_recording, each_launch_is_measured_with_the_code_it_names_not_another_of_its_name) {
  // Two launches of one kernel name that ran the code of two modules (an autotuned kernel's configs); the
  // record's by-name resources (the first module's) must not stand in for the second's.
  const counter_data_archive fixture = load_counter_data_archive(fixtures / "0000");
  const std::string mangled = fixture.cases.front().launches.at(0).mangled;
  std::vector<kernel_resources> codes;
  for (const auto& [module, registers] : {std::pair{"module 24", 18}, std::pair{"module 25", 168}}) {
    kernel_resources code;
    code.mangled = mangled;
    code.function = fixture.cases.front().launches.at(0).function;
    code.module = module;
    code.registers = registers;
    code.spill_store_bytes = registers == 168 ? 96 : 0;
    codes.push_back(code);
  }
  const fs::path folder = add_process(100, std::nullopt, {0, 0}, {per_thread}, true, codes);
  process_record record = load_process_record((folder / "process.json").string());
  ASSERT_EQ(record.functions.size(), 2U);
  kernel_resources by_name = codes[0];
  by_name.module.clear();
  record.kernels.at(0).resources = by_name;
  save_process_record((folder / "process.json").string(), record);
  case_instance instance = atomics_instance();
  for (const char* metric : {"registers_per_thread", "spill_store_bytes"}) {
    resolved_expectation expectation;
    expectation.metric = metric;
    instance.expectations.push_back(expectation);
  }
  const case_result result = evaluate({instance}).results.at(0);
  ASSERT_EQ(result.kernels.size(), 2U);
  EXPECT_EQ(result.kernels[0].metrics.at("registers_per_thread"), 18);
  EXPECT_EQ(result.kernels[1].metrics.at("registers_per_thread"), 168);
  EXPECT_EQ(result.kernels[1].metrics.at("spill_store_bytes"), 96);
  EXPECT_EQ(result.totals.at("spill_store_bytes").value, 96);
}

TEST_F(exec_recording, a_process_selector_that_matched_no_process_says_which_processes_ran) {
  add_process(100, 0, {0}, {});
  case_instance rank3 = atomics_instance();
  rank3.select->process.rank = 3;
  // The record says the case exists but does not apply to rank 0.
  std::vector<recorded_process> processes = load_recorded_processes(m_directory);
  processes[0].record.cases.push_back({per_thread, false, 0, 0, {}});
  const exec_evaluation evaluation = evaluate_exec_recording(processes, {rank3}, {}, {});
  EXPECT_NE(evaluation.results[0].checks[0].message.find("no process matched its process selector"),
            std::string::npos)
      << evaluation.results[0].checks[0].message;
  EXPECT_NE(evaluation.results[0].checks[0].message.find("rank 0 (pid 100, ./app)"), std::string::npos);
}

TEST_F(exec_recording, a_program_without_a_profiled_process_is_named_as_such) {
  const exec_evaluation evaluation = evaluate({atomics_instance()});
  EXPECT_NE(
      evaluation.results[0].checks[0].message.find("no process of the program loaded the injection library"),
      std::string::npos);
}

TEST_F(exec_recording, a_launch_that_could_not_be_profiled_is_an_error_of_its_case) {
  std::vector<recorded_process> processes;
  recorded_process process;
  process.record.process.pid = 7;
  process.record.process.argv = {"./app"};
  process.record.cases.push_back({per_thread, true, 1, 1, {"kernel 'per_thread': CUPTI_ERROR_UNKNOWN"}});
  processes.push_back(process);
  const exec_evaluation evaluation = evaluate_exec_recording(processes, {atomics_instance()}, {}, {});
  EXPECT_EQ(evaluation.results[0].status, case_status::error);
  EXPECT_NE(evaluation.results[0].status_reason.find("CUPTI_ERROR_UNKNOWN"), std::string::npos);
}

TEST_F(exec_recording, an_environment_problem_of_a_process_is_reported) {
  std::vector<recorded_process> processes(1);
  processes[0].record.process.pid = 7;
  processes[0].record.environment = environment_problem::insufficient_privileges;
  processes[0].record.environment_message = "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES";
  const exec_evaluation evaluation = evaluate_exec_recording(processes, {atomics_instance()}, {}, {});
  EXPECT_EQ(evaluation.environment, environment_problem::insufficient_privileges);
  EXPECT_NE(evaluation.environment_message.find("pid 7"), std::string::npos);
}

TEST_F(exec_recording, launch_metrics_without_attributes_stay_unmeasured) {
  add_process(100, std::nullopt, {0}, {per_thread}, false);
  const case_result result = evaluate({atomics_instance()}).results.at(0);
  EXPECT_EQ(result.totals.count("launch_registers_per_thread"), 0U);
  EXPECT_EQ(result.totals.count("global_reduction_requests"), 1U);
}

TEST_F(exec_recording, a_skipped_case_stays_skipped) {
  case_instance skipped = atomics_instance();
  skipped.skip_reason = "not on this GPU";
  const exec_evaluation evaluation = evaluate({skipped});
  EXPECT_EQ(evaluation.results.at(0).status, case_status::skipped);
  EXPECT_EQ(evaluation.results.at(0).status_reason, "not on this GPU");
}

TEST_F(exec_recording, processes_load_in_start_order_and_half_written_ones_are_skipped) {
  add_process(300, std::nullopt, {0}, {per_thread});
  add_process(100, std::nullopt, {0}, {per_thread});
  fs::create_directories(m_directory / "processes" / "999-999");  // died before writing its record
  const fs::path half = m_directory / "processes" / "100-100" / "0001";
  fs::create_directories(half);  // killed while writing an archive: no manifest yet
  const std::vector<recorded_process> processes = load_recorded_processes(m_directory);
  ASSERT_EQ(processes.size(), 2U);
  EXPECT_EQ(processes[0].record.process.pid, 100);
  EXPECT_EQ(processes[0].launches.size(), 1U);
}

TEST_F(exec_recording, the_envelope_and_resources_read_back) {
  exec_envelope envelope;
  envelope.suite_paths = {"cases/exec.yaml"};
  envelope.command_line_cases.push_back({"exec/selection", atomics_instance().select.value(), {}});
  envelope.extra_metrics = {"dram_read_bytes"};
  envelope.program.argv = {"./app"};
  envelope.program.exit_status = 0;
  envelope.allow_program_failure = true;
  envelope.results.metadata.device.chip = "GH100";
  save_exec_envelope(m_directory, envelope);
  EXPECT_TRUE(is_exec_recording(m_directory));
  const exec_envelope back = load_exec_envelope(m_directory);
  EXPECT_EQ(back.suite_paths, envelope.suite_paths);
  EXPECT_EQ(back.command_line_cases.at(0).selector.describe(), "kernel 'per_thread'");
  EXPECT_EQ(back.extra_metrics, envelope.extra_metrics);
  EXPECT_TRUE(back.allow_program_failure);
  EXPECT_EQ(back.results.metadata.device.chip, "GH100");

  kernel_resources kernel;
  kernel.function = "k";
  kernel.architecture = "sm_90";
  kernel.registers = 40;
  kernel.spill_bytes_known = false;
  save_recorded_resources(m_directory, {kernel});
  const std::vector<kernel_resources> resources = load_recorded_resources(m_directory);
  ASSERT_EQ(resources.size(), 1U);
  EXPECT_EQ(resources[0].registers, 40);
  EXPECT_FALSE(resources[0].spill_bytes_known);
  EXPECT_TRUE(load_recorded_resources(m_directory / "absent").empty());
}

}  // namespace
}  // namespace counterguard
