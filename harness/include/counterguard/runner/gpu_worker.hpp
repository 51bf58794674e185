#pragma once

#include "counterguard/runner/worker_protocol.hpp"

namespace counterguard {

// Exit status of a worker whose CUDA context is lost (a kernel faulted): the parent restarts one.
inline constexpr int worker_context_lost_status = 70;

// The worker process: profiles the requested cases on the GPU, writing one event per line to `event_fd`
// (worker_protocol.hpp). Returns the exit status.
int run_gpu_worker(const worker_request& request, int event_fd);

}  // namespace counterguard
