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

// x, y, z, mass of particle i are values 4i .. 4i+3 of input 7.
constexpr std::uint32_t fields_seed = 7;

// One field of every particle, as its own array (struct of arrays).
struct particle_field {
  int field;
  __host__ __device__ float operator()(std::size_t i) const {
    return input_value(fields_seed, 4 * i + field);
  }
};

// The reference of out[i], from i alone.
struct x_plus_y {
  __host__ __device__ float operator()(std::size_t i) const {
    return input_value(fields_seed, 4 * i) + input_value(fields_seed, 4 * i + 1);
  }
};

// Inputs written and the output checked on the GPU (device_elementwise.cuh).
class layout_run final : public kernel_run {
 public:
  layout_run(const kernel_arguments& a, bool struct_of_arrays)
      : m_n(a.integer("n")), m_soa(struct_of_arrays), m_block(a.block_x(256)) {
    const auto n = static_cast<std::size_t>(m_n);
    if (m_soa) {
      m_x = std::make_unique<device_buffer<float>>(n);
      m_y = std::make_unique<device_buffer<float>>(n);
      fill_elements_on_device(m_x->data(), n, particle_field{0});
      fill_elements_on_device(m_y->data(), n, particle_field{1});
    } else {
      m_particles = std::make_unique<device_buffer<particle>>(n);
      fill_elements_on_device(reinterpret_cast<float*>(m_particles->data()), 4 * n,
                              generated_input{fields_seed});
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
    return check_elements_on_device("out", m_out->data(), static_cast<std::size_t>(m_n), x_plus_y{});
  }

 private:
  std::int64_t m_n;
  bool m_soa;
  unsigned m_block;
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
// SPDX-License-Identifier: Apache-2.0
