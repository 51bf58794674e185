// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "counterguard/blame/sass_profile.hpp"
#include "counterguard/exec/recorded_processes.hpp"

namespace counterguard {

// The environment variable that names a blame pass's request for the injection library.
inline constexpr const char* exec_blame_variable = "COUNTERGUARD_EXEC_BLAME";

// A blame pass of `counterguard exec` (docs/blame.md): the program runs again and the injection collects the
// per-instruction counters (CUPTI SASS metrics) of each selected launch instead of its hardware counters,
// and keeps the cubin of the function it launched.
struct exec_blame_request {
  static constexpr int schema_version = 1;
  // Blame metric names or the chip's SASS metric names; empty: every blame metric the chip has.
  std::vector<std::string> metrics;
};

void save_exec_blame_request(const std::string& path, const exec_blame_request& request);
// A missing or malformed file is an input_error naming the file and the field.
[[nodiscard]] exec_blame_request load_exec_blame_request(const std::string& path);

// Where the injection writes blamed launch number `index` of a process: its profile
// (counterguard-sass-profile; `binary` is the cubin's file name, beside it) and the cubin of the launched
// function's own module, as the driver ran it.
[[nodiscard]] std::filesystem::path blamed_launch_profile_path(const std::filesystem::path& process_folder,
                                                               int index);
[[nodiscard]] std::filesystem::path blamed_launch_cubin_path(const std::filesystem::path& process_folder,
                                                             int index);

// The profiles the processes of a blame pass recorded, by case instance (the first process's for a case
// several profiled), each profile's `binary` the absolute path of its cubin. A malformed profile is an
// input_error naming the file.
[[nodiscard]] std::map<std::string, sass_profile> load_blamed_launches(
    const std::vector<recorded_process>& processes);

}  // namespace counterguard
