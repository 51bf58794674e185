// c[i] = a[i] + b[i] on 8-byte (double) and 16-byte (float4) elements: a warp loads 256 or 512 contiguous
// bytes per instruction, 8 or 16 sectors, with no byte wasted.
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/host_work.hpp"
#include "counterguard/registry/kernel_arguments.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "test_data.cuh"

namespace counterguard::kernels::coalescing {

__global__ void vec_add_double(const double* a, const double* b, double* c, std::int64_t n) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

__global__ void vec_add_float4(const float4* a, const float4* b, float4* c, std::int64_t n) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) {
    const float4 x = a[i];
    const float4 y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

namespace {

constexpr std::uint32_t a_seed = 5;
constexpr std::uint32_t b_seed = 6;

// Input `seed` as values of type V (float4 holds four consecutive values: its components are floats).
template <typename V>
struct wide_input {
  std::uint32_t seed;
  __host__ __device__ V operator()(std::size_t i) const { return static_cast<V>(input_value(seed, i)); }
};

// The reference of value i of c, from i alone.
template <typename V>
struct wide_sum {
  __host__ __device__ V operator()(std::size_t i) const {
    return static_cast<V>(input_value(a_seed, i)) + static_cast<V>(input_value(b_seed, i));
  }
};

// T is double or float4; float4 is written and checked as 4 floats. Inputs written and the output checked on
// the GPU (device_elementwise.cuh).
template <typename T>
class wide_run final : public kernel_run {
 public:
  // The scalar each value is: double, or float for the components of float4.
  using value_type = std::conditional_t<std::is_same_v<T, double>, double, float>;

  explicit wide_run(const kernel_arguments& a) : m_n(a.integer("n")), m_block(a.block_x(256)) {
    m_a = std::make_unique<device_buffer<T>>(static_cast<std::size_t>(m_n));
    m_b = std::make_unique<device_buffer<T>>(static_cast<std::size_t>(m_n));
    m_c = std::make_unique<device_buffer<T>>(static_cast<std::size_t>(m_n));
    fill_elements_on_device(values(*m_a), value_count(), wide_input<value_type>{a_seed});
    fill_elements_on_device(values(*m_b), value_count(), wide_input<value_type>{b_seed});
    m_c->fill_bytes(0xFF);
  }

  void launch(cudaStream_t stream) override {
    const auto blocks = static_cast<unsigned>((m_n + m_block - 1) / m_block);
    if constexpr (std::is_same_v<T, double>) {
      vec_add_double<<<blocks, m_block, 0, stream>>>(m_a->data(), m_b->data(), m_c->data(), m_n);
    } else {
      vec_add_float4<<<blocks, m_block, 0, stream>>>(m_a->data(), m_b->data(), m_c->data(), m_n);
    }
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    return check_elements_on_device(std::is_same_v<T, double> ? "c" : "c (float4 components)", values(*m_c),
                                    value_count(), wide_sum<value_type>{});
  }

 private:
  [[nodiscard]] std::size_t value_count() const {
    return static_cast<std::size_t>(m_n) * (std::is_same_v<T, double> ? 1 : 4);
  }
  static value_type* values(device_buffer<T>& buffer) { return reinterpret_cast<value_type*>(buffer.data()); }

  std::int64_t m_n;
  unsigned m_block;
  std::unique_ptr<device_buffer<T>> m_a;
  std::unique_ptr<device_buffer<T>> m_b;
  std::unique_ptr<device_buffer<T>> m_c;
};

}  // namespace

COUNTERGUARD_REGISTER_KERNEL("coalescing/vec_add_double")
    .describe("c[i] = a[i] + b[i] on doubles: 256 bytes, 8 sectors per warp load")
    .launches("counterguard::kernels::coalescing::vec_add_double")
    .parameter("n", std::int64_t{1} << 21, "elements per array", range(1, 1 << 26))
    .block_size(range(1, 1024))
    .factory([](const kernel_arguments& a) { return std::make_unique<wide_run<double>>(a); });

COUNTERGUARD_REGISTER_KERNEL("coalescing/vec_add_float4")
    .describe("c[i] = a[i] + b[i] on float4: 512 bytes, 16 sectors per warp load instruction")
    .launches("counterguard::kernels::coalescing::vec_add_float4")
    .parameter("n", std::int64_t{1} << 20, "elements (float4) per array", range(1, 1 << 26))
    .block_size(range(1, 1024))
    .factory([](const kernel_arguments& a) { return std::make_unique<wide_run<float4>>(a); });

}  // namespace counterguard::kernels::coalescing
// SPDX-License-Identifier: Apache-2.0
