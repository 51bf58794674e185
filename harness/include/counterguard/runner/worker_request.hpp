#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace counterguard {

// What the parent process asks a GPU worker process to profile. The worker loads the same suites and
// runs the named instances in order, so a kernel that faults or hangs costs only its own case: the parent
// restarts a worker for the cases after it (CUDA cannot recover a context after an illegal address).
struct worker_request {
  std::vector<std::string> suite_paths;
  std::vector<std::string> instances;      // names, in the order to run
  std::vector<int> archive_indices;        // per instance: its number in the counter-data archive
  std::vector<std::string> extra_metrics;  // measured for every case besides those its expectations name
  std::string save_counter_data_dir;       // empty: keep no images
  int device = 0;
};

void to_json(nlohmann::json& out, const worker_request& request);
void from_json(const nlohmann::json& in, worker_request& request);

}  // namespace counterguard
