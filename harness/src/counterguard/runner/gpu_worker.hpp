// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "counterguard/runner/worker_protocol.hpp"

namespace counterguard {

// Exit status of a worker whose CUDA context is lost (a kernel faulted): the parent restarts one.
inline constexpr int worker_context_lost_status = 70;

// The worker process: profiles the requested cases on the GPU, writing one event per line to `event_fd`
// (worker_protocol.hpp). Returns the exit status.
int run_gpu_worker(const worker_request& request, int event_fd);

// `<exe> __worker <request file>`: the worker process, which dies with its parent, reads its request and runs
// run_gpu_worker on descriptor 3 (set up by the parent). Returns the exit status.
int run_gpu_worker_process(const std::string& request_file);

}  // namespace counterguard
