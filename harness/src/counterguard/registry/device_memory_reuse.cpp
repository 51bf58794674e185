// SPDX-License-Identifier: Apache-2.0
#include "counterguard/registry/device_memory_reuse.hpp"

#include <cuda_runtime_api.h>

#include <list>
#include <mutex>
#include <string>
#include <utility>

#include "counterguard/core/cuda_check.hpp"

namespace counterguard {
namespace {

struct kept_blocks {
  std::mutex mutex;
  std::size_t limit = 0;  // 0: nothing is kept
  std::size_t total = 0;
  std::list<std::pair<void*, std::size_t>> blocks;  // least recently freed first
};

// Never destroyed: a device_buffer of static storage may be freed after every other static has gone.
kept_blocks& kept() {
  static auto* const instance = new kept_blocks;
  return *instance;
}

// Frees the oldest kept blocks until they total at most `bytes`. Called with the mutex held.
void trim_to(kept_blocks& k, std::size_t bytes) noexcept {
  while (k.total > bytes && !k.blocks.empty()) {
    COUNTERGUARD_CUDA_NOTHROW(cudaFree(k.blocks.front().first));
    k.total -= k.blocks.front().second;
    k.blocks.pop_front();
  }
}

}  // namespace

void* allocate_device_memory(std::size_t bytes) {
  kept_blocks& k = kept();
  if (bytes > 0) {
    const std::lock_guard<std::mutex> lock(k.mutex);
    // The most recently freed block of this size: the likeliest to be the same case's again.
    for (auto block = k.blocks.rbegin(); block != k.blocks.rend(); ++block) {
      if (block->second != bytes)
        continue;
      void* pointer = block->first;
      k.total -= bytes;
      k.blocks.erase(std::next(block).base());
      return pointer;
    }
  }
  void* pointer = nullptr;
  cudaError_t status = cudaMalloc(&pointer, bytes);
  if (status == cudaErrorMemoryAllocation) {
    static_cast<void>(cudaGetLastError());
    // Kept blocks of other sizes may be what is missing.
    const std::lock_guard<std::mutex> lock(k.mutex);
    trim_to(k, 0);
    status = cudaMalloc(&pointer, bytes);
  }
  if (status != cudaSuccess)
    throw_cuda_error(status, ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str());
  return pointer;
}

void free_device_memory(void* pointer, std::size_t bytes) noexcept {
  if (pointer == nullptr)
    return;
  kept_blocks& k = kept();
  {
    const std::lock_guard<std::mutex> lock(k.mutex);
    if (bytes > 0 && bytes <= k.limit) {
      k.blocks.emplace_back(pointer, bytes);
      k.total += bytes;
      trim_to(k, k.limit);
      return;
    }
  }
  COUNTERGUARD_CUDA_NOTHROW(cudaFree(pointer));
}

device_memory_reuse::device_memory_reuse(std::size_t limit_bytes) {
  kept_blocks& k = kept();
  const std::lock_guard<std::mutex> lock(k.mutex);
  k.limit = limit_bytes;
}

device_memory_reuse::~device_memory_reuse() {
  kept_blocks& k = kept();
  const std::lock_guard<std::mutex> lock(k.mutex);
  k.limit = 0;
  trim_to(k, 0);
}

}  // namespace counterguard
