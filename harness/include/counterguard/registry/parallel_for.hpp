// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace counterguard {

// Runs body(begin, end) over contiguous chunks of [0, count) on the host's cores, and returns when every
// chunk is done. Used for the host side of a case (input generation, CPU references, output comparison):
// element i of such work depends only on i, so the result is the same as one loop's. Counts below `min_chunk`
// run on the calling thread. The first exception a chunk throws is rethrown here after all chunks finish.
template <typename Body>
void parallel_for(std::size_t count, Body&& body, std::size_t min_chunk = std::size_t{1} << 16) {
  const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
  const std::size_t chunks =
      std::min(cores, std::max<std::size_t>(1, count / std::max<std::size_t>(1, min_chunk)));
  if (chunks <= 1) {
    body(std::size_t{0}, count);
    return;
  }
  std::vector<std::exception_ptr> errors(chunks);
  std::vector<std::thread> threads;
  threads.reserve(chunks - 1);
  const auto run_chunk = [&](std::size_t chunk) {
    try {
      body(count * chunk / chunks, count * (chunk + 1) / chunks);
    } catch (...) {
      errors[chunk] = std::current_exception();
    }
  };
  for (std::size_t chunk = 1; chunk < chunks; ++chunk)
    threads.emplace_back(run_chunk, chunk);
  run_chunk(0);
  for (auto& thread : threads)
    thread.join();
  for (const auto& error : errors) {
    if (error)
      std::rethrow_exception(error);
  }
}

}  // namespace counterguard
