// SPDX-License-Identifier: Apache-2.0
#pragma once
// The calling process's one CUPTI profiler (CUPTI allows one per process), opened on first use and kept: a
// test binary or a Python test session profiles many pieces of work, and holds the GPU's lock meanwhile so
// other counterguard processes queue. Every front door inside a process (counterguard::profile in GoogleTest,
// the C ABI under the Python package) profiles through here. The part users see (profile_work,
// profiling_unavailable, profiled_by_exec) is in the installed profile_result.hpp; this header is
// counterguard's.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/core/error.hpp"
#include "counterguard/in_process/profile_result.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// The reason's kind (no GPU, no permission, another profiler, ...); nothing when profiling is possible or
// when `counterguard exec` profiles this process.
[[nodiscard]] std::optional<environment_problem> profiling_unavailable_problem(
    const profile_options& options = {});

// Profiles the kernels launched (by any thread, through the CUDA runtime or driver) between begin_profile and
// end_profile. `metrics` are aliases (docs/metrics.md) or raw CUPTI names; an unknown name throws
// input_error naming it with the closest aliases. Where profiling is not possible begin_profile throws
// environment_error with the reason (profiling_unavailable's text). One block at a time: begin_profile while
// one is open, or end_profile with none open, is an input_error. end_profile synchronises the device; more
// launches than options.max_launches is an error (exit_code::check_failed) naming the limit. abandon_profile
// ends an open block keeping nothing (the work failed); it never throws.
void begin_profile(const std::vector<std::string>& metrics, const profile_options& options = {});
[[nodiscard]] profile_result end_profile();
void abandon_profile() noexcept;
[[nodiscard]] bool profile_open();

// The record behind a result: the case `counterguard run` would write for the block (an empty one for a
// default-constructed result).
[[nodiscard]] const case_result& result_record(const profile_result& result);

// A block recorded earlier (one case of a counter-data archive: `counterguard run --save-counter-data`),
// measured offline as end_profile measures a block, for `metrics`: the archive's counters evaluated on any
// machine, no GPU needed. A metric whose counters the recording lacks is unmeasured.
[[nodiscard]] profile_result measure_recorded_block(const std::string& archive_directory,
                                                    std::size_t case_index,
                                                    const std::vector<std::string>& metrics);

// The profiled device as a results file describes it (name, chip, SM count, versions, gpu_key); throws
// environment_error where profiling is not possible.
[[nodiscard]] run_metadata profiled_device_metadata();

}  // namespace counterguard
