#pragma once
// For kernel sources (nvcc): inputs that are functions of their index, written on the GPU, and outputs
// checked on the GPU against a reference that is a function of the index too. No host array is made, copied
// or compared: on the H200 the built-in suite's input creation and verification went from 0.48 and 0.79 s to
// 0.15 and 0.20 s (COUNTERGUARD_TIMING). The check runs after profiling, like verify(), and
// reports like compare_with_reference (exact comparison). `Value` and `Expected` are __host__ __device__
// functors of the index: the first mismatch's expected value is recomputed on the host for the message.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/kernel_run.hpp"
#include "counterguard/registry/verify.hpp"

namespace counterguard {
namespace detail {

constexpr unsigned elementwise_block = 256;

inline unsigned elementwise_blocks(std::size_t count) {
  const std::size_t blocks = (count + elementwise_block - 1) / elementwise_block;
  return static_cast<unsigned>(blocks < 65536 ? (blocks > 0 ? blocks : 1) : 65536);
}

template <typename T, typename Value>
__global__ void fill_elements_kernel(T* out, std::size_t count, Value value) {
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = value(i);
}

struct element_mismatches {
  unsigned long long count;
  unsigned long long first;
};

}  // namespace detail

// Counts an output's wrong elements on the GPU: a check kernel calls record_mismatch for each (several
// threads at once), and report() says them as compare_with_reference does. For outputs whose reference is a
// function of the index, check_elements_on_device does it all; a check that needs a kernel of its own (a
// thread's several values computed together) uses this directly.
class device_mismatches {
 public:
  device_mismatches() : m_found(1) { m_found.upload({detail::element_mismatches{0, ~0ULL}}); }

  [[nodiscard]] detail::element_mismatches* get() { return m_found.data(); }

  // After the check kernel: success, or the first wrong element of `out` (count elements), its value and
  // expected(index) (called on the host), and how many were wrong.
  template <typename T, typename Expected>
  [[nodiscard]] verification report(const std::string& what, const T* out, std::size_t count,
                                    const Expected& expected) const {
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
    const detail::element_mismatches result = m_found.download().front();
    if (result.count == 0)
      return verification::success();
    T actual{};
    COUNTERGUARD_CUDA_CHECK(cudaMemcpy(&actual, out + result.first, sizeof(T), cudaMemcpyDeviceToHost));
    return mismatch_failure(what, static_cast<std::size_t>(result.first), static_cast<double>(actual),
                            static_cast<double>(expected(static_cast<std::size_t>(result.first))),
                            static_cast<std::size_t>(result.count), count);
  }

 private:
  device_buffer<detail::element_mismatches> m_found;
};

// In a check kernel: element `index` of the output is wrong.
__device__ inline void record_mismatch(detail::element_mismatches* found, std::size_t index) {
  atomicAdd(&found->count, 1ULL);
  atomicMin(&found->first, static_cast<unsigned long long>(index));
}

namespace detail {

template <typename T, typename Expected>
__global__ void check_elements_kernel(const T* out, std::size_t count, Expected expected,
                                      element_mismatches* found) {
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    if (!(out[i] == expected(i)))  // NaN never matches, as in compare_with_reference
      record_mismatch(found, i);
  }
}

}  // namespace detail

// out[i] = value(i) for i < count, on the legacy default stream; returns when written.
template <typename T, typename Value>
void fill_elements_on_device(T* out, std::size_t count, const Value& value) {
  if (count == 0)
    return;
  detail::fill_elements_kernel<<<detail::elementwise_blocks(count), detail::elementwise_block>>>(out, count,
                                                                                                 value);
  COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  COUNTERGUARD_CUDA_CHECK(cudaDeviceSynchronize());
}

// Whether out[i] == expected(i) for every i < count: the first mismatch and the count, as
// compare_with_reference says them.
template <typename T, typename Expected>
[[nodiscard]] verification check_elements_on_device(const std::string& what, const T* out, std::size_t count,
                                                    const Expected& expected) {
  if (count == 0)
    return verification::success();
  device_mismatches found;
  detail::check_elements_kernel<<<detail::elementwise_blocks(count), detail::elementwise_block>>>(
      out, count, expected, found.get());
  return found.report(what, out, count, expected);
}

}  // namespace counterguard
// SPDX-License-Identifier: Apache-2.0
