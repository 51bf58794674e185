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

// T is double or float4; float4 is handled as 4 floats on the host.
template <typename T>
class wide_run final : public kernel_run {
 public:
  explicit wide_run(const kernel_arguments& a) : m_n(a.integer("n")), m_block(a.block_x(256)) {
    const std::size_t values = static_cast<std::size_t>(m_n) * lanes();
    m_a_host = make_inputs(values, 5);
    m_b_host = make_inputs(values, 6);
    m_a = std::make_unique<device_buffer<T>>(static_cast<std::size_t>(m_n));
    m_b = std::make_unique<device_buffer<T>>(static_cast<std::size_t>(m_n));
    m_c = std::make_unique<device_buffer<T>>(static_cast<std::size_t>(m_n));
    upload(*m_a, m_a_host);
    upload(*m_b, m_b_host);
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
    std::vector<double> expected(m_a_host.size());
    parallel_for(expected.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i)
        expected[i] = static_cast<double>(m_a_host[i]) + static_cast<double>(m_b_host[i]);
    });
    std::vector<double> actual(expected.size());
    if constexpr (std::is_same_v<T, double>) {
      actual = m_c->download();
    } else {
      const std::vector<float4> c = m_c->download();
      for (std::size_t i = 0; i < c.size(); ++i) {
        actual[4 * i] = c[i].x;
        actual[4 * i + 1] = c[i].y;
        actual[4 * i + 2] = c[i].z;
        actual[4 * i + 3] = c[i].w;
      }
    }
    return compare_with_reference(std::is_same_v<T, double> ? "c" : "c (float4 components)", actual,
                                  expected);
  }

 private:
  static constexpr std::size_t lanes() { return std::is_same_v<T, double> ? 1 : 4; }

  static void upload(device_buffer<T>& buffer, const std::vector<float>& values) {
    std::vector<T> host(buffer.size());
    for (std::size_t i = 0; i < host.size(); ++i) {
      if constexpr (std::is_same_v<T, double>) {
        host[i] = values[i];
      } else {
        host[i] = make_float4(values[4 * i], values[4 * i + 1], values[4 * i + 2], values[4 * i + 3]);
      }
    }
    buffer.upload(host);
  }

  std::int64_t m_n;
  unsigned m_block;
  std::vector<float> m_a_host;
  std::vector<float> m_b_host;
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
