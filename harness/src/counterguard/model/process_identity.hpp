// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace counterguard {

// A process of a program run under `counterguard exec`, as the injection library saw itself.
struct process_identity {
  std::int64_t pid = 0;
  std::int64_t parent_pid = 0;
  std::string executable;            // /proc/self/exe
  std::vector<std::string> argv;     // its command line
  std::optional<std::int64_t> rank;  // from the launcher's environment (read_rank_from_environment)
  std::string rank_variable;         // the variable that gave it
  std::int64_t started_ns = 0;       // CLOCK_REALTIME when the injection started, to order processes
};

// The rank MPI launchers and schedulers give a process, from the first of OMPI_COMM_WORLD_RANK, PMI_RANK,
// PMIX_RANK, SLURM_PROCID, LOCAL_RANK that holds a whole number; `lookup` reads a variable (nullptr when
// unset). Leaves `identity` unchanged when none does.
void read_rank_from_environment(process_identity& identity, const char* (*lookup)(const char*));

// "rank 1 (pid 4242, ./app)": how messages name a process.
[[nodiscard]] std::string describe_process(const process_identity& process);

[[nodiscard]] nlohmann::json process_identity_to_json(const process_identity& process);
// Throws input_error naming `file` and `field` for a malformed document.
[[nodiscard]] process_identity process_identity_from_json(const nlohmann::json& document,
                                                          const std::string& file, const std::string& field);

}  // namespace counterguard
