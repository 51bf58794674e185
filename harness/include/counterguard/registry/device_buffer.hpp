// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/registry/device_memory_reuse.hpp"

namespace counterguard {

// Owns a device allocation of `size` elements of T (cudaMalloc memory, never managed memory; in the `run`
// worker possibly a block an earlier case freed: device_memory_reuse.hpp).
template <typename T>
class device_buffer {
 public:
  explicit device_buffer(std::size_t size)
      : m_data(static_cast<T*>(allocate_device_memory(size * sizeof(T)))), m_size(size) {}
  explicit device_buffer(const std::vector<T>& host) : device_buffer(host.size()) { upload(host); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& other) noexcept : m_data(other.m_data), m_size(other.m_size) {
    other.m_data = nullptr;
    other.m_size = 0;
  }
  device_buffer& operator=(device_buffer&&) = delete;
  ~device_buffer() { free_device_memory(m_data, bytes()); }

  [[nodiscard]] T* data() { return m_data; }
  [[nodiscard]] const T* data() const { return m_data; }
  [[nodiscard]] std::size_t size() const { return m_size; }
  [[nodiscard]] std::size_t bytes() const { return m_size * sizeof(T); }

  void upload(const std::vector<T>& host) {
    COUNTERGUARD_CUDA_CHECK(cudaMemcpy(m_data, host.data(), sizeof(T) * host.size(), cudaMemcpyHostToDevice));
  }
  // Fills every byte with `byte` (poison outputs before launch so unwritten elements show).
  void fill_bytes(int byte) { COUNTERGUARD_CUDA_CHECK(cudaMemset(m_data, byte, bytes())); }
  [[nodiscard]] std::vector<T> download() const {
    std::vector<T> host(m_size);
    COUNTERGUARD_CUDA_CHECK(cudaMemcpy(host.data(), m_data, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  T* m_data = nullptr;
  std::size_t m_size = 0;
};

}  // namespace counterguard
