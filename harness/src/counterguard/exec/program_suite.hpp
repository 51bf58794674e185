// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "counterguard/exec/process_record.hpp"

namespace counterguard {

// What `counterguard record FILE -- PROGRAM` writes a suite from, besides the program's runs.
struct program_suite_request {
  std::string suite;                 // the suite's name
  std::string file;                  // where it is written, for the commands in the header
  std::vector<std::string> program;  // its command line, for the header
  std::vector<std::string> metrics;  // defaults.measure (default_program_metrics())
  std::string recorded_at;           // UTC date, for the header
  std::string gpu;                   // the GPU's name, for the header
};

struct program_suite {
  std::string yaml;                // an ordinary suite, with comments saying where each selector came from
  std::size_t cases = 0;           // cases that gate
  std::size_t skipped = 0;         // cases written with skip: (launched in some runs only)
  std::vector<std::string> notes;  // what varied between the runs, for standard error
};

// The exact metrics a recorded suite measures by default: bank conflicts, sectors per request, requests,
// local-memory bytes, spills and registers (as the driver reports them at the launch: an autotuner's variants
// of one kernel name have registers of their own).
[[nodiscard]] std::vector<std::string> default_program_metrics();

// A suite selecting what the program launched, from the records of each of its runs (`runs[r]`: the
// processes of run r). Each kernel (per NVTX context, per process where the processes' counts differ) gets
// cases by launch ordinal: every launch when it made at most 4 in each run, otherwise the first and the last.
// What was not the same in every run is decided here, never left to flake (docs/exec.md, "A suite from a
// program"):
//   - a launch count that varied between runs (an autotuner's trials, a data-dependent loop): the first
//     launch gates; the last launch every run reached ('settled') is written skipped, since it may be a trial
//     in one run and the tuned kernel in the next;
//   - a kernel launched in some runs only (a library's heuristics choosing kernels): written with skip:,
//     saying why.
[[nodiscard]] program_suite write_program_suite(const std::vector<std::vector<process_record>>& runs,
                                                const program_suite_request& request);

}  // namespace counterguard
