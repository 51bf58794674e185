// Loads at an index stride: thread t reads a[t * stride] and b[t * stride] and writes c[t]. A warp's 32
// loads span 128 * stride bytes, so they touch min(32, 4 * stride) sectors; the store stays contiguous.
#include <cstdint>
#include <memory>
#include <string>

#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/host_work.hpp"
#include "counterguard/registry/kernel_arguments.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "test_data.cuh"

namespace counterguard::kernels::coalescing {

__global__ void strided_add(const float* a, const float* b, float* c, std::int64_t threads, int stride) {
  const std::int64_t t = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t < threads)
    c[t] = a[t * stride] + b[t * stride];
}

namespace {

constexpr std::uint32_t a_seed = 3;
constexpr std::uint32_t b_seed = 4;

// The reference of c[t], from t alone.
struct strided_sum {
  std::int64_t stride;
  __host__ __device__ float operator()(std::size_t t) const {
    const auto i = static_cast<std::uint64_t>(t) * static_cast<std::uint64_t>(stride);
    return input_value(a_seed, i) + input_value(b_seed, i);
  }
};

// Inputs written and the output checked on the GPU (device_elementwise.cuh).
class strided_run final : public kernel_run {
 public:
  explicit strided_run(const kernel_arguments& a)
      : m_n(a.integer("n")), m_stride(a.integer("stride")), m_block(a.block_x(256)) {
    m_threads = m_n / m_stride;
    const auto n = static_cast<std::size_t>(m_n);
    m_a = std::make_unique<device_buffer<float>>(n);
    m_b = std::make_unique<device_buffer<float>>(n);
    fill_elements_on_device(m_a->data(), n, generated_input{a_seed});
    fill_elements_on_device(m_b->data(), n, generated_input{b_seed});
    m_c = std::make_unique<device_buffer<float>>(static_cast<std::size_t>(m_threads));
    m_c->fill_bytes(0xFF);
  }

  void launch(cudaStream_t stream) override {
    const auto blocks = static_cast<unsigned>((m_threads + m_block - 1) / m_block);
    strided_add<<<blocks, m_block, 0, stream>>>(m_a->data(), m_b->data(), m_c->data(), m_threads,
                                                static_cast<int>(m_stride));
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    return check_elements_on_device("c", m_c->data(), static_cast<std::size_t>(m_threads),
                                    strided_sum{m_stride});
  }

 private:
  std::int64_t m_n;
  std::int64_t m_stride;
  unsigned m_block;
  std::int64_t m_threads = 0;
  std::unique_ptr<device_buffer<float>> m_a;
  std::unique_ptr<device_buffer<float>> m_b;
  std::unique_ptr<device_buffer<float>> m_c;
};

}  // namespace

COUNTERGUARD_REGISTER_KERNEL("coalescing/strided")
    .describe("c[t] = a[t * stride] + b[t * stride] for t < n / stride: strided loads, contiguous store")
    .launches("counterguard::kernels::coalescing::strided_add")
    .parameter("n", std::int64_t{1} << 22, "elements per input array", range(1, 1 << 28))
    .parameter("stride", std::int64_t{2}, "index stride of the loads, in elements", range(1, 1024))
    .block_size(range(1, 1024))
    .factory([](const kernel_arguments& a) { return std::make_unique<strided_run>(a); });

}  // namespace counterguard::kernels::coalescing
// SPDX-License-Identifier: Apache-2.0
