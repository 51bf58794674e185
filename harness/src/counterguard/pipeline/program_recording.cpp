// SPDX-License-Identifier: Apache-2.0
// `counterguard record`: a suite written from what an unmodified program launched.
#include "counterguard/pipeline/program_recording.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/interruption.hpp"
#include "counterguard/exec/program_suite.hpp"
#include "counterguard/pipeline/case_selection.hpp"
#include "counterguard/pipeline/exec_run.hpp"
#include "counterguard/pipeline/run_identity.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;

// The suite's name from the file's: "tests/kernels.yaml" -> "kernels" (a name's characters only).
std::string suite_name_of(const std::string& file) {
  std::string name;
  for (const char c : fs::path(file).stem().string())
    name += std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-' ? c : '_';
  return name.empty() ? "program" : name;
}

}  // namespace

int record_program_suite(const record_options& options) {
  if (options.program.empty())
    throw input_error({}, "program", "no program given",
                      "name it after '--': counterguard record F.yaml -- ./app");
  if (fs::exists(options.file) && !options.force) {
    throw input_error(
        {options.file}, "", "exists already",
        "give --force to write it again (baselines of cases that keep their names are kept), or "
        "another file");
  }
  const std::string suite = options.suite.empty() ? suite_name_of(options.file) : options.suite;
  std::vector<std::vector<process_record>> runs;
  std::string gpu;
  for (int r = 0; r < options.runs; ++r) {
    program_launches launches =
        record_program_launches(options.program, options.timeout_seconds, options.wait_for_gpu_seconds);
    interruption_guard::throw_if_interrupted();
    std::int64_t launched = 0;
    std::vector<process_record> records;
    for (auto& process : launches.processes) {
      launched += process.record.launches;
      if (gpu.empty() && process.record.device)
        gpu = process.record.device->name;
      if (process.record.environment) {
        throw environment_error(*process.record.environment, describe_process(process.record.process) + ": " +
                                                                 process.record.environment_message);
      }
      records.push_back(std::move(process.record));
    }
    std::fputs(fmt::format("counterguard: run {}/{}: the program {}; {} process(es), {} kernel launch(es)\n",
                           r + 1, options.runs, launches.program.describe(), records.size(), launched)
                   .c_str(),
               stderr);
    if (!launches.program.succeeded() && !options.allow_program_failure) {
      throw input_error({}, "program",
                        "the program " + launches.program.describe() + " in run " + std::to_string(r + 1) +
                            "; no suite written",
                        "record a run that succeeds, or give --allow-program-failure");
    }
    if (records.empty()) {
      throw input_error(
          {}, "program", "no process of the program loaded the injection library (it used no CUDA)",
          "record a program that launches CUDA kernels; `counterguard exec -v` shows why a process "
          "was not seen");
    }
    runs.push_back(std::move(records));
  }

  program_suite_request request;
  request.suite = suite;
  request.file = options.file;
  request.program = options.program;
  request.metrics = options.metrics.empty() ? default_program_metrics() : options.metrics;
  request.recorded_at = host_metadata("record", {}).started_at;
  request.gpu = gpu;
  const program_suite written = write_program_suite(runs, request);
  if (written.cases + written.skipped == 0)
    throw input_error({}, "program", "the program launched no kernel",
                      "record a program that launches CUDA kernels");
  write_file_atomically(options.file, written.yaml);
  // The file must read back as the suite it is meant to be: a case name or selector written wrongly is a bug.
  selection_options selection;
  selection.paths = {options.file};
  selection.allow_program_cases = true;
  try {
    static_cast<void>(select_instances(selection));
  } catch (const input_error& e) {
    throw internal_error(std::string("the suite written does not read back: ") + e.what());
  }
  for (const auto& note : written.notes)
    std::fputs(fmt::format("counterguard: {}\n", note).c_str(), stderr);
  std::fputs(
      fmt::format("counterguard: wrote {}: suite '{}', {} case(s) selecting what the program launched in "
                  "every run{}; next: counterguard baseline update {} -- PROGRAM\n",
                  options.file, suite, written.cases,
                  written.skipped == 0
                      ? std::string()
                      : fmt::format(", {} written skipped (not the same in every run)", written.skipped),
                  options.file)
          .c_str(),
      stderr);
  return 0;
}

}  // namespace counterguard
