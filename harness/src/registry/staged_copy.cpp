#include "counterguard/registry/staged_copy.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "counterguard/core/cuda_check.hpp"

namespace counterguard {
namespace {

constexpr std::size_t chunk_bytes = std::size_t{4} << 20;
constexpr std::size_t direct_below = std::size_t{1} << 20;  // not worth a chunk's round trip

// Two pinned chunks, a stream and an event per chunk; made on first use and kept for the process (the driver
// frees them at exit: releasing them from a static destructor could run after the runtime is gone).
struct staging {
  void* chunk[2] = {nullptr, nullptr};
  cudaEvent_t done[2] = {nullptr, nullptr};
  cudaStream_t stream = nullptr;
  std::mutex busy;

  staging() {
    for (int i = 0; i < 2; ++i) {
      COUNTERGUARD_CUDA_CHECK(cudaMallocHost(&chunk[i], chunk_bytes));
      COUNTERGUARD_CUDA_CHECK(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming));
    }
    COUNTERGUARD_CUDA_CHECK(cudaStreamCreate(&stream));
  }
};

staging& process_staging() {
  static staging* shared = new staging();
  return *shared;
}

}  // namespace

void copy_host_to_device(void* device, const void* host, std::size_t bytes) {
  if (bytes < direct_below) {
    COUNTERGUARD_CUDA_CHECK(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice));
    return;
  }
  staging& s = process_staging();
  const std::lock_guard<std::mutex> lock(s.busy);
  // The stream waits for earlier work on the legacy default stream (cudaMemset of the same buffer, say).
  for (std::size_t offset = 0, k = 0; offset < bytes; offset += chunk_bytes, ++k) {
    const std::size_t slot = k % 2;
    const std::size_t size = std::min(chunk_bytes, bytes - offset);
    COUNTERGUARD_CUDA_CHECK(cudaEventSynchronize(s.done[slot]));  // the chunk's previous copy has left it
    std::memcpy(s.chunk[slot], static_cast<const char*>(host) + offset, size);
    COUNTERGUARD_CUDA_CHECK(cudaMemcpyAsync(static_cast<char*>(device) + offset, s.chunk[slot], size,
                                            cudaMemcpyHostToDevice, s.stream));
    COUNTERGUARD_CUDA_CHECK(cudaEventRecord(s.done[slot], s.stream));
  }
  COUNTERGUARD_CUDA_CHECK(cudaStreamSynchronize(s.stream));
}

void copy_device_to_host(void* host, const void* device, std::size_t bytes) {
  if (bytes < direct_below) {
    COUNTERGUARD_CUDA_CHECK(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost));
    return;
  }
  staging& s = process_staging();
  const std::lock_guard<std::mutex> lock(s.busy);
  const std::size_t chunks = (bytes + chunk_bytes - 1) / chunk_bytes;
  // Chunk k's DMA runs while chunk k-1 is copied out of the other pinned buffer.
  const auto drain = [&](std::size_t k) {
    const std::size_t offset = k * chunk_bytes;
    COUNTERGUARD_CUDA_CHECK(cudaEventSynchronize(s.done[k % 2]));
    std::memcpy(static_cast<char*>(host) + offset, s.chunk[k % 2], std::min(chunk_bytes, bytes - offset));
  };
  for (std::size_t k = 0; k < chunks; ++k) {
    const std::size_t offset = k * chunk_bytes;
    COUNTERGUARD_CUDA_CHECK(cudaMemcpyAsync(s.chunk[k % 2], static_cast<const char*>(device) + offset,
                                            std::min(chunk_bytes, bytes - offset), cudaMemcpyDeviceToHost,
                                            s.stream));
    COUNTERGUARD_CUDA_CHECK(cudaEventRecord(s.done[k % 2], s.stream));
    if (k > 0)
      drain(k - 1);
  }
  drain(chunks - 1);
}

}  // namespace counterguard
