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

class strided_run final : public kernel_run {
 public:
  explicit strided_run(const kernel_arguments& a)
      : m_n(a.integer("n")), m_stride(a.integer("stride")), m_block(a.block_x(256)) {
    m_threads = m_n / m_stride;
    m_a_host = make_inputs(static_cast<std::size_t>(m_n), 3);
    m_b_host = make_inputs(static_cast<std::size_t>(m_n), 4);
    m_a = std::make_unique<device_buffer<float>>(m_a_host);
    m_b = std::make_unique<device_buffer<float>>(m_b_host);
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
    std::vector<float> expected(static_cast<std::size_t>(m_threads));
    parallel_for(expected.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t t = begin; t < end; ++t) {
        const std::size_t i = t * static_cast<std::size_t>(m_stride);
        expected[t] = m_a_host[i] + m_b_host[i];
      }
    });
    return compare_with_reference("c", m_c->download(), expected);
  }

 private:
  std::int64_t m_n;
  std::int64_t m_stride;
  unsigned m_block;
  std::int64_t m_threads = 0;
  std::vector<float> m_a_host;
  std::vector<float> m_b_host;
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
