#include <fstream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "counterguard/runner/gpu_worker.hpp"

namespace counterguard::detail {

int run_worker(const std::string& request_file) {
  std::ifstream in(request_file);
  const worker_request request = nlohmann::json::parse(in).get<worker_request>();
  constexpr int event_fd = 3;  // set up by the parent (isolated_runner)
  return run_gpu_worker(request, event_fd);
}

}  // namespace counterguard::detail
