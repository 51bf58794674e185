// SPDX-License-Identifier: Apache-2.0
// `counterguard exec` and the evaluation of what it records, end to end through the command line, with no
// GPU: the counter data recorded on an H200 (harness/test/fixtures/h200_builtin, one archive per built-in
// case) laid out the way the injection library records `counterguard exec --cases cases -- counterguard
// launch cases` (every case's launches selected by the NVTX range `launch` marks them with), then evaluated
// with `counterguard evaluate DIR`. The GPU run of the same command is in validation/exec_checks.sh.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_test_support.hpp"
#include "counterguard/exec/exec_envelope.hpp"
#include "counterguard/exec/exec_instructions.hpp"
#include "counterguard/exec/recorded_processes.hpp"
#include "counterguard/measurement/recorded_run.hpp"
#include "counterguard/statics/binary_resources.hpp"

namespace counterguard::test {
namespace {

namespace fs = std::filesystem;

const fs::path fixtures = fs::path(COUNTERGUARD_SOURCE_DIR) / "harness/test/fixtures/h200_builtin";

nlohmann::json read_json(const fs::path& path) {
  return nlohmann::json::parse(read_text(path));
}

struct recorded_process_spec {
  std::int64_t pid = 1000;
  std::optional<std::int64_t> rank;
  std::set<std::string> leave_out;  // cases whose launches this process does not record
  std::string only_suite;           // when set, only this suite's cases
};

// Writes DIR as `counterguard exec --cases cases --save-counter-data DIR -- counterguard launch cases` would
// on the H200: the envelope, the resources of the counterguard binary, and per process its record and one
// archive per case (the fixture's, whose image holds that case's launches).
void write_recording(const fs::path& directory, const std::vector<recorded_process_spec>& processes) {
  const recorded_run run = load_recorded_run(fixtures);
  exec_envelope envelope;
  envelope.suite_paths = {"cases"};
  envelope.program.argv = {COUNTERGUARD_BINARY, "launch", "cases"};
  envelope.program.exit_status = 0;
  envelope.program.seconds = 2.5;
  envelope.results.metadata = run.results.metadata;
  envelope.results.metadata.mode = "exec";
  fs::create_directories(directory);
  save_exec_envelope(directory, envelope);
  std::vector<kernel_resources> resources;
  for (auto& kernel : read_binary_kernel_resources(COUNTERGUARD_BINARY)) {
    if (kernel.architecture == "sm_90")
      resources.push_back(std::move(kernel));
  }
  save_recorded_resources(directory, resources);

  std::vector<fs::path> archives;
  for (const auto& item : fs::directory_iterator(fixtures)) {
    if (item.is_directory())
      archives.push_back(item.path());
  }
  std::sort(archives.begin(), archives.end());
  // What the injection library was told: every case the fixture recorded (cases added to the suites since are
  // not part of this recording).
  exec_instructions instructions;
  instructions.output_directory = directory.string();
  for (const auto& recorded : run.results.cases)
    instructions.cases.push_back({recorded.instance, {}, {}});
  save_exec_instructions((directory / exec_instructions_file).string(), instructions);
  for (const auto& spec : processes) {
    process_record record;
    record.process.pid = spec.pid;
    record.process.started_ns = spec.pid;
    record.process.executable = COUNTERGUARD_BINARY;
    record.process.argv = envelope.program.argv;
    record.process.rank = spec.rank;
    record.device = run.results.metadata.device;
    record.finished = true;
    const fs::path folder = process_folder(directory, record.process);
    fs::create_directories(folder);
    int index = 0;
    for (const auto& path : archives) {
      const counter_data_archive archive = load_counter_data_archive(path);
      const archived_case& data = archive.cases.front();
      for (const auto& launch : data.launches)
        note_launch(record, launch.function, launch.mangled, nvtx_context{{{"", {data.name}}}, {}});
      const bool wrong_suite = !spec.only_suite.empty() && data.name.rfind(spec.only_suite + "/", 0) != 0;
      if (spec.leave_out.count(data.name) != 0 || wrong_suite)
        continue;
      record.cases.push_back({data.name,
                              true,
                              static_cast<std::int64_t>(data.launches.size()),
                              static_cast<std::int64_t>(data.launches.size()),
                              {}});
      recorded_launch launch;
      launch.cases = {data.name};
      launch.data = data;
      save_recorded_launch(folder, index++, archive.chip, launch);
    }
    save_process_record((folder / "process.json").string(), record);
  }
}

const nlohmann::json* find_case(const nlohmann::json& results, const std::string& instance) {
  for (const auto& c : results["cases"]) {
    if (c["instance"] == instance)
      return &c;
  }
  return nullptr;
}

TEST(exec_command, an_exec_recording_of_the_builtin_cases_reproduces_every_value_of_run) {
  scratch_directory dir;
  write_recording(dir.path() / "recording", {recorded_process_spec{}});
  const auto out = dir.path() / "evaluated.json";
  const command_result r = run_counterguard("evaluate " + (dir.path() / "recording").string() +
                                            " --no-baselines --quiet --json " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json recorded = read_json(fixtures / "results.json");
  const nlohmann::json evaluated = read_json(out);
  EXPECT_EQ(evaluated["metadata"]["mode"], "evaluate");
  EXPECT_EQ(evaluated["metadata"]["gpu_key"], "GH100-132sm-cuda13");
  ASSERT_EQ(evaluated["cases"].size(), recorded["cases"].size() + 1);  // + exec/program
  EXPECT_EQ(evaluated["cases"][0]["instance"], "exec/program");
  std::size_t compared = 0;
  for (const auto& expected : recorded["cases"]) {
    const nlohmann::json* actual = find_case(evaluated, expected["instance"]);
    ASSERT_NE(actual, nullptr) << expected["instance"];
    EXPECT_EQ((*actual)["status"], expected["status"]) << expected["instance"];
    for (const auto& [metric, value] : expected["totals"].items()) {
      EXPECT_EQ((*actual)["totals"][metric]["value"], value["value"])
          << expected["instance"] << " " << metric;
      ++compared;
    }
  }
  EXPECT_GT(compared, 300U);
}

TEST(exec_command, the_recording_passes_the_expectations_and_the_committed_baselines) {
  scratch_directory dir;
  write_recording(dir.path() / "recording", {recorded_process_spec{}});
  const command_result r =
      run_counterguard("evaluate " + (dir.path() / "recording").string() + " --baseline-dir baselines");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find("REGRESSION"), std::string::npos) << r.output;
}

TEST(exec_command, ranks_are_reported_separately_with_their_own_values) {
  scratch_directory dir;
  recorded_process_spec rank0;
  rank0.rank = 0;
  rank0.only_suite = "transpose";
  recorded_process_spec rank1 = rank0;
  rank1.pid = 1001;
  rank1.rank = 1;
  write_recording(dir.path() / "recording", {rank0, rank1});
  const auto out = dir.path() / "evaluated.json";
  const command_result r =
      run_counterguard("evaluate " + (dir.path() / "recording").string() +
                       " --filter 'transpose/*' --no-baselines --quiet --json " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json evaluated = read_json(out);
  const nlohmann::json* rank0_case = find_case(evaluated, "transpose/smem_unpadded?n=2048,rank=0");
  const nlohmann::json* rank1_case = find_case(evaluated, "transpose/smem_unpadded?n=2048,rank=1");
  ASSERT_NE(rank0_case, nullptr) << r.output;
  ASSERT_NE(rank1_case, nullptr) << r.output;
  EXPECT_EQ((*rank1_case)["parameters"]["rank"], "1");
  EXPECT_EQ((*rank0_case)["totals"]["shared_store_bank_conflicts"]["value"], 4063232.0);
  EXPECT_EQ((*rank1_case)["totals"], (*rank0_case)["totals"]);
}

TEST(exec_command, a_case_that_selected_nothing_fails_the_run_naming_the_kernels_launched) {
  scratch_directory dir;
  recorded_process_spec process;
  process.leave_out = {"transpose/naive?n=2048"};
  write_recording(dir.path() / "recording", {process});
  const command_result r = run_counterguard("evaluate " + (dir.path() / "recording").string() +
                                            " --filter 'transpose/naive*' --no-baselines");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(
      r.output.find("transpose/naive?n=2048: selected no kernel launch (inside NVTX "
                    "'transpose/naive?n=2048'); the program launched 37 kernels, the closest to the selector "
                    "first: 'counterguard::kernels::transpose::naive' (2 launches; NVTX "),
      std::string::npos)
      << r.output;
  // The recording still has the launch in its kernel list: the closest NVTX ranges come first.
  EXPECT_NE(
      r.output.find("'counterguard::kernels::transpose::naive' (2 launches; NVTX transpose/naive?n=2048, "
                    "transpose/naive?n=1024)"),
      std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("selected_launches"), std::string::npos) << r.output;
}

TEST(exec_command, a_failing_program_fails_the_run_unless_allowed) {
  scratch_directory dir;
  const fs::path recording = dir.path() / "recording";
  write_recording(recording, {recorded_process_spec{}});
  exec_envelope envelope = load_exec_envelope(recording);
  envelope.program.exit_status = std::nullopt;
  envelope.program.signal = 11;
  save_exec_envelope(recording, envelope);
  const command_result failed =
      run_counterguard("evaluate " + recording.string() + " --filter 'transpose/naive*' --no-baselines");
  EXPECT_EQ(failed.status, 1) << failed.output;
  EXPECT_NE(failed.output.find("was killed by signal 11 (SIGSEGV)"), std::string::npos) << failed.output;
  envelope.allow_program_failure = true;
  save_exec_envelope(recording, envelope);
  const command_result allowed =
      run_counterguard("evaluate " + recording.string() + " --filter 'transpose/naive*' --no-baselines");
  EXPECT_EQ(allowed.status, 0) << allowed.output;
}

TEST(exec_command, without_a_gpu_it_stops_with_the_environment_status_and_says_what_runs_without_one) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0)
    GTEST_SKIP() << "this machine has a GPU";
  const command_result r = run_counterguard("exec --cases cases/transpose.yaml -- /bin/true");
  EXPECT_EQ(r.status, 3) << r.output;
  EXPECT_NE(r.output.find("static --binary PROGRAM --cases F.yaml"), std::string::npos) << r.output;
}

TEST(exec_command, input_mistakes_stop_before_the_program_runs) {
  scratch_directory dir;
  const fs::path marker = dir.path() / "ran";
  const std::string program = " -- /bin/sh -c 'touch " + marker.string() + "'";
  const command_result nothing = run_counterguard("exec" + program);
  EXPECT_EQ(nothing.status, 2) << nothing.output;
  EXPECT_NE(nothing.output.find("nothing says which launches to measure"), std::string::npos)
      << nothing.output;
  const command_result no_metric = run_counterguard("exec --kernel-name 'reduce*'" + program);
  EXPECT_EQ(no_metric.status, 2) << no_metric.output;
  EXPECT_NE(no_metric.output.find("no metric is named"), std::string::npos) << no_metric.output;
  const command_result unknown = run_counterguard("exec --kernel-name k --metric dram_red_bytes" + program);
  EXPECT_EQ(unknown.status, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("unknown metric 'dram_red_bytes'; did you mean 'dram_read_bytes'"),
            std::string::npos)
      << unknown.output;
  const command_result raw = run_counterguard("exec --kernel-name k --metric dram__bytes_red.sum" + program);
  EXPECT_EQ(raw.status, 2) << raw.output;
  EXPECT_NE(raw.output.find("no CUPTI metric 'dram__bytes_red.sum' on chip GH100"), std::string::npos)
      << raw.output;
  const fs::path suite =
      dir.write("bad.yaml", "suite: p\ncases:\n  - name: c\n    select: {kernel: \"regex:(\"}\n");
  const command_result bad = run_counterguard("exec --cases " + suite.string() + program);
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_NE(bad.output.find(suite.string() + ":4:22"), std::string::npos) << bad.output;
  const command_result missing = run_counterguard("exec --cases cases/transpose.yaml -- ./no-such-program");
  EXPECT_EQ(missing.status, 2) << missing.output;
  EXPECT_NE(missing.output.find("cannot find an executable './no-such-program'"), std::string::npos);
  EXPECT_FALSE(fs::exists(marker));
}

TEST(exec_command, run_refuses_a_program_suite_pointing_at_exec) {
  scratch_directory dir;
  const fs::path suite = dir.write("program.yaml", "suite: p\ncases:\n  - name: c\n    select: reduce\n");
  const command_result r = run_counterguard("run " + suite.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find(suite.string() + ":3:5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("counterguard exec --cases"), std::string::npos) << r.output;
  const command_result validate = run_counterguard("metrics validate " + suite.string());
  EXPECT_EQ(validate.status, 0) << validate.output;
}

TEST(exec_command, static_binary_checks_a_program_suite_without_a_gpu) {
  scratch_directory dir;
  const fs::path suite = dir.write("program.yaml", R"(suite: p
cases:
  - name: limited
    select: {kernel: "regex:maxrreg32::register_heavy$"}
    expect:
      registers_per_thread: {max: 32}
      spill_store_bytes: 1400
      shared_store_bank_conflicts: 0
  - name: in_range_only
    select: {nvtx: step}
    expect:
      spill_store_bytes: 0
)");
  const auto junit = dir.path() / "junit.xml";
  const command_result pass = run_counterguard(std::string("static --binary ") + COUNTERGUARD_BINARY +
                                               " --cases " + suite.string() + " --junit " + junit.string());
  EXPECT_EQ(pass.status, 0) << pass.output;
  EXPECT_NE(pass.output.find("p/limited        spill_store_bytes     == 1400   1400"), std::string::npos)
      << pass.output;
  EXPECT_NE(read_text(junit).find("p/in_range_only"), std::string::npos);

  const fs::path failing = dir.write("failing.yaml", R"(suite: q
cases:
  - name: spills
    select: "*register_heavy"
    expect:
      spill_store_bytes: 0
  - name: absent
    select: "reduce*"
    expect:
      spill_store_bytes: 0
)");
  const command_result fail = run_counterguard(std::string("static --binary ") + COUNTERGUARD_BINARY +
                                               " --cases " + failing.string());
  EXPECT_EQ(fail.status, 1) << fail.output;
  EXPECT_NE(fail.output.find("q/absent: no kernel in"), std::string::npos) << fail.output;
  // The kernels it does have are named (the first ones in sorted order, then how many more).
  EXPECT_NE(fail.output.find("its kernels: 'counterguard::detail::check_elements_kernel<"), std::string::npos)
      << fail.output;
  EXPECT_NE(fail.output.find(" more"), std::string::npos) << fail.output;
  EXPECT_NE(fail.output.find("FAIL"), std::string::npos) << fail.output;
}

TEST(exec_command, junit_without_cases_is_refused_for_binaries) {
  const command_result r =
      run_counterguard(std::string("static --binary ") + COUNTERGUARD_BINARY + " --junit x.xml");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("name a suite (`static F.yaml --binary B`)"), std::string::npos) << r.output;
}

TEST(exec_command, the_injection_library_exports_only_its_entry_points) {
  const fs::path library = fs::path(COUNTERGUARD_BINARY).parent_path() / "libcounterguard_injection.so";
  ASSERT_TRUE(fs::exists(library)) << library;
  FILE* pipe = ::popen(("nm -D --defined-only '" + library.string() + "'").c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::set<std::string> exported;
  char line[1024];
  while (std::fgets(line, sizeof(line), pipe) != nullptr) {
    std::string text(line);
    const std::size_t last = text.find_last_of(' ');
    std::string name = text.substr(last + 1);
    while (!name.empty() && (name.back() == '\n' || name.back() == '\r'))
      name.pop_back();
    exported.insert(name);
  }
  ASSERT_EQ(::pclose(pipe), 0) << "nm failed";
  EXPECT_EQ(exported, (std::set<std::string>{"InitializeInjection", "InitializeInjectionNvtx2"}));
}

}  // namespace
}  // namespace counterguard::test
