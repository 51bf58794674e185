// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda_runtime_api.h>

#include "counterguard/core/cuda_check.hpp"

namespace counterguard {

// Owns a non-blocking CUDA stream; destroyed on every path out, early returns and exceptions included.
class cuda_stream {
 public:
  cuda_stream() { COUNTERGUARD_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking)); }
  ~cuda_stream() { COUNTERGUARD_CUDA_NOTHROW(cudaStreamDestroy(m_stream)); }
  cuda_stream(const cuda_stream&) = delete;
  cuda_stream& operator=(const cuda_stream&) = delete;

  [[nodiscard]] cudaStream_t get() const { return m_stream; }

 private:
  cudaStream_t m_stream = nullptr;
};

}  // namespace counterguard
