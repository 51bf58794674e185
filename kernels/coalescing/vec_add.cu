// c[i] = a[i] + b[i], one 4-byte element per thread: the coalesced reference (4 sectors per request), and
// the same with a start that is not 32-byte aligned (5 sectors per load request).
#include <cstdint>
#include <memory>
#include <string>

#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/host_work.hpp"
#include "counterguard/registry/kernel_arguments.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "test_data.cuh"

namespace counterguard::kernels::coalescing {

__global__ void vec_add(const float* a, const float* b, float* c, std::int64_t n) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

// Reads start `offset` elements into a and b: a warp's 128 loaded bytes straddle one more sector when
// 4 * offset is not a multiple of 32. The store to c stays aligned.
__global__ void vec_add_offset(const float* a, const float* b, float* c, std::int64_t n, int offset) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i + offset] + b[i + offset];
}

namespace {

constexpr std::int64_t max_offset = 32;
constexpr std::uint32_t a_seed = 1;
constexpr std::uint32_t b_seed = 2;

// The reference of c[i], from i alone.
struct shifted_sum {
  std::int64_t shift;
  __host__ __device__ float operator()(std::size_t i) const {
    const auto j = static_cast<std::uint64_t>(i) + static_cast<std::uint64_t>(shift);
    return input_value(a_seed, j) + input_value(b_seed, j);
  }
};

// Inputs written and the output checked on the GPU (device_elementwise.cuh).
class vec_add_run final : public kernel_run {
 public:
  // shifted: vec_add_offset with the case's offset; otherwise the aligned kernel vec_add.
  vec_add_run(const kernel_arguments& a, bool shifted)
      : m_n(a.integer("n")), m_offset(shifted ? a.integer("offset") : -1), m_block(a.block_x(256)) {
    const auto padded = static_cast<std::size_t>(m_n + max_offset);
    m_a = std::make_unique<device_buffer<float>>(padded);
    m_b = std::make_unique<device_buffer<float>>(padded);
    fill_elements_on_device(m_a->data(), padded, generated_input{a_seed});
    fill_elements_on_device(m_b->data(), padded, generated_input{b_seed});
    m_c = std::make_unique<device_buffer<float>>(static_cast<std::size_t>(m_n));
    m_c->fill_bytes(0xFF);
  }

  void launch(cudaStream_t stream) override {
    const auto blocks = static_cast<unsigned>((m_n + m_block - 1) / m_block);
    if (m_offset < 0) {
      vec_add<<<blocks, m_block, 0, stream>>>(m_a->data(), m_b->data(), m_c->data(), m_n);
    } else {
      vec_add_offset<<<blocks, m_block, 0, stream>>>(m_a->data(), m_b->data(), m_c->data(), m_n,
                                                     static_cast<int>(m_offset));
    }
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    return check_elements_on_device("c", m_c->data(), static_cast<std::size_t>(m_n),
                                    shifted_sum{m_offset < 0 ? 0 : m_offset});
  }

 private:
  std::int64_t m_n;
  std::int64_t m_offset;
  unsigned m_block;
  std::unique_ptr<device_buffer<float>> m_a;
  std::unique_ptr<device_buffer<float>> m_b;
  std::unique_ptr<device_buffer<float>> m_c;
};

}  // namespace

COUNTERGUARD_REGISTER_KERNEL("coalescing/vec_add")
    .describe("c[i] = a[i] + b[i] on floats, one element per thread: 4 sectors per request")
    .launches("counterguard::kernels::coalescing::vec_add")
    .parameter("n", std::int64_t{1} << 22, "elements per array", range(1, 1 << 28))
    .block_size(range(1, 1024))
    .factory([](const kernel_arguments& a) { return std::make_unique<vec_add_run>(a, false); });

COUNTERGUARD_REGISTER_KERNEL("coalescing/misaligned")
    .describe("c[i] = a[i + offset] + b[i + offset]: loads start offset floats past a 256-byte boundary")
    .launches("counterguard::kernels::coalescing::vec_add_offset")
    .parameter("n", std::int64_t{1} << 22, "elements per array", range(1, 1 << 28))
    .parameter("offset", std::int64_t{1}, "elements the loads are shifted by", range(0, max_offset - 1))
    .block_size(range(1, 1024))
    .factory([](const kernel_arguments& a) { return std::make_unique<vec_add_run>(a, true); });

}  // namespace counterguard::kernels::coalescing
// SPDX-License-Identifier: Apache-2.0
