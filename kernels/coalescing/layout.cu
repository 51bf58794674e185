// Array of structs vs struct of arrays: out[i] = x[i] + y[i] for particles of four floats. In the AoS
// layout a warp's 32 loads of one field lie 16 bytes apart (512 bytes, 16 sectors per request); in the SoA
// layout they are contiguous (4 sectors per request).
#include <cstdint>
#include <memory>
#include <string>

#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/host_work.hpp"
#include "counterguard/registry/kernel_arguments.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "test_data.cuh"

namespace counterguard::kernels::coalescing {

// Alignment 4 on purpose: the compiler cannot merge x and y into one 8-byte load.
struct particle {
  float x;
  float y;
  float z;
  float mass;
};
static_assert(sizeof(particle) == 16 && alignof(particle) == 4, "particle must be 16 bytes, 4-byte aligned");

__global__ void aos_sum(const particle* particles, float* out, std::int64_t n) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = particles[i].x + particles[i].y;
}

__global__ void soa_sum(const float* x, const float* y, float* out, std::int64_t n) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[i] + y[i];
}

namespace {

class layout_run final : public kernel_run {
 public:
  layout_run(const kernel_arguments& a, bool struct_of_arrays)
      : m_n(a.integer("n")), m_soa(struct_of_arrays), m_block(a.block_x(256)) {
    const auto n = static_cast<std::size_t>(m_n);
    m_fields = make_inputs(4 * n, 7);  // x, y, z, mass of particle i at 4i .. 4i+3
    if (m_soa) {
      std::vector<float> x(n);
      std::vector<float> y(n);
      for (std::size_t i = 0; i < n; ++i) {
        x[i] = m_fields[4 * i];
        y[i] = m_fields[4 * i + 1];
      }
      m_x = std::make_unique<device_buffer<float>>(x);
      m_y = std::make_unique<device_buffer<float>>(y);
    } else {
      std::vector<particle> particles(n);
      for (std::size_t i = 0; i < n; ++i) {
        particles[i] = {m_fields[4 * i], m_fields[4 * i + 1], m_fields[4 * i + 2], m_fields[4 * i + 3]};
      }
      m_particles = std::make_unique<device_buffer<particle>>(particles);
    }
    m_out = std::make_unique<device_buffer<float>>(n);
    m_out->fill_bytes(0xFF);
  }

  void launch(cudaStream_t stream) override {
    const auto blocks = static_cast<unsigned>((m_n + m_block - 1) / m_block);
    if (m_soa) {
      soa_sum<<<blocks, m_block, 0, stream>>>(m_x->data(), m_y->data(), m_out->data(), m_n);
    } else {
      aos_sum<<<blocks, m_block, 0, stream>>>(m_particles->data(), m_out->data(), m_n);
    }
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    std::vector<float> expected(static_cast<std::size_t>(m_n));
    parallel_for(expected.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i)
        expected[i] = m_fields[4 * i] + m_fields[4 * i + 1];
    });
    return compare_with_reference("out", m_out->download(), expected);
  }

 private:
  std::int64_t m_n;
  bool m_soa;
  unsigned m_block;
  std::vector<float> m_fields;
  std::unique_ptr<device_buffer<particle>> m_particles;
  std::unique_ptr<device_buffer<float>> m_x;
  std::unique_ptr<device_buffer<float>> m_y;
  std::unique_ptr<device_buffer<float>> m_out;
};

}  // namespace

COUNTERGUARD_REGISTER_KERNEL("coalescing/aos")
    .describe("out[i] = p[i].x + p[i].y over 16-byte particles (array of structs): 16 sectors per load")
    .launches("counterguard::kernels::coalescing::aos_sum")
    .parameter("n", std::int64_t{1} << 20, "particles", range(1, 1 << 26))
    .block_size(range(1, 1024))
    .factory([](const kernel_arguments& a) { return std::make_unique<layout_run>(a, false); });

COUNTERGUARD_REGISTER_KERNEL("coalescing/soa")
    .describe("out[i] = x[i] + y[i], the same particles as a struct of arrays: 4 sectors per load")
    .launches("counterguard::kernels::coalescing::soa_sum")
    .parameter("n", std::int64_t{1} << 20, "particles", range(1, 1 << 26))
    .block_size(range(1, 1024))
    .factory([](const kernel_arguments& a) { return std::make_unique<layout_run>(a, true); });

}  // namespace counterguard::kernels::coalescing
