#pragma once

#include "counterguard/runner/worker_request.hpp"

namespace counterguard {

// Exit status of a worker whose CUDA context is lost (a kernel faulted): the parent restarts one.
inline constexpr int worker_context_lost_status = 70;

// The worker process: profiles the requested cases on the GPU, writing one JSON event per line to
// `event_fd` ({"event": "device"|"begin"|"result"|"environment_error", ...}). Returns the exit status.
int run_gpu_worker(const worker_request& request, int event_fd);

}  // namespace counterguard
