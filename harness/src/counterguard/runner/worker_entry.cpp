// SPDX-License-Identifier: Apache-2.0
// `<exe> __worker <request file>`: the GPU worker process that `run` starts (runner/isolated_runner.hpp).
#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <sstream>

#include "counterguard/core/json_reader.hpp"
#include "counterguard/runner/gpu_worker.hpp"

namespace counterguard {

int run_gpu_worker_process(const std::string& request_file) {
  // If the parent dies (even by SIGKILL), the worker must not live on holding the GPU's counters.
  const pid_t parent = ::getppid();
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent)
    return static_cast<int>(exit_code::environment);  // the parent died before the line above
  std::ifstream in(request_file);
  std::ostringstream text;
  text << in.rdbuf();
  const worker_request request =
      read_worker_request(json_reader(request_file).parse(text.str()), request_file);
  constexpr int event_fd = 3;  // set up by the parent (isolated_runner)
  return run_gpu_worker(request, event_fd);
}

}  // namespace counterguard
