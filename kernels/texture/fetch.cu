// out[i] = 2 * in[i] + 1, reading `in` either through a linear texture object (tex1Dfetch: the texture
// pipeline, no LSU global loads) or with plain global loads (no texture requests).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/host_work.hpp"
#include "counterguard/registry/kernel_arguments.hpp"
#include "counterguard/registry/kernel_registry.hpp"

namespace counterguard::kernels::texture {

__global__ void texture_fetch(cudaTextureObject_t in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * tex1Dfetch<float>(in, i) + 1.0f;
}

__global__ void global_fetch(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i] + 1.0f;
}

namespace {

// Owns a texture object over a linear float buffer.
class linear_texture {
 public:
  linear_texture(const float* data, std::size_t count) {
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeLinear;
    resource.res.linear.devPtr = const_cast<float*>(data);  // the API takes void*; the texture only reads
    resource.res.linear.desc = cudaCreateChannelDesc<float>();
    resource.res.linear.sizeInBytes = count * sizeof(float);
    cudaTextureDesc description{};
    description.readMode = cudaReadModeElementType;
    description.addressMode[0] = cudaAddressModeClamp;
    description.filterMode = cudaFilterModePoint;
    description.normalizedCoords = 0;
    COUNTERGUARD_CUDA_CHECK(cudaCreateTextureObject(&m_object, &resource, &description, nullptr));
  }
  linear_texture(const linear_texture&) = delete;
  linear_texture& operator=(const linear_texture&) = delete;
  ~linear_texture() { COUNTERGUARD_CUDA_NOTHROW(cudaDestroyTextureObject(m_object)); }

  [[nodiscard]] cudaTextureObject_t object() const { return m_object; }

 private:
  cudaTextureObject_t m_object = 0;
};

class fetch_run final : public kernel_run {
 public:
  fetch_run(const kernel_arguments& a, bool through_texture)
      : m_n(a.integer("n")), m_texture_path(through_texture), m_block(a.block_x(256)) {
    const auto n = static_cast<std::size_t>(m_n);
    m_in_host.resize(n);
    fill_from_lcg(m_in_host, 777u, [](std::uint32_t state) {
      return static_cast<float>(static_cast<int>(state >> 22) - 512);
    });
    m_in = std::make_unique<device_buffer<float>>(m_in_host);
    if (m_texture_path)
      m_texture = std::make_unique<linear_texture>(m_in->data(), n);
    m_out = std::make_unique<device_buffer<float>>(n);
    m_out->fill_bytes(0xFF);
  }

  void launch(cudaStream_t stream) override {
    const auto blocks = static_cast<unsigned>((m_n + m_block - 1) / m_block);
    const int n = static_cast<int>(m_n);
    if (m_texture_path) {
      texture_fetch<<<blocks, m_block, 0, stream>>>(m_texture->object(), m_out->data(), n);
    } else {
      global_fetch<<<blocks, m_block, 0, stream>>>(m_in->data(), m_out->data(), n);
    }
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    std::vector<float> expected(m_in_host.size());
    parallel_for(expected.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i)
        expected[i] = 2.0f * m_in_host[i] + 1.0f;
    });
    return compare_with_reference("out", m_out->download(), expected);
  }

 private:
  std::int64_t m_n;
  bool m_texture_path;
  unsigned m_block;
  std::vector<float> m_in_host;
  std::unique_ptr<device_buffer<float>> m_in;
  std::unique_ptr<linear_texture> m_texture;
  std::unique_ptr<device_buffer<float>> m_out;
};

}  // namespace

COUNTERGUARD_REGISTER_KERNEL("texture/fetch")
    .describe("out[i] = 2 in[i] + 1 with in read by tex1Dfetch from a linear texture object")
    .launches("counterguard::kernels::texture::texture_fetch")
    .parameter("n", std::int64_t{1} << 22, "elements", range(1, 1 << 26))  // linear textures hold up to 2^27
    .block_size(range(1, 1024))
    .factory([](const kernel_arguments& a) { return std::make_unique<fetch_run>(a, true); });

COUNTERGUARD_REGISTER_KERNEL("texture/global")
    .describe("out[i] = 2 in[i] + 1 with in read by plain global loads")
    .launches("counterguard::kernels::texture::global_fetch")
    .parameter("n", std::int64_t{1} << 22, "elements", range(1, 1 << 26))  // linear textures hold up to 2^27
    .block_size(range(1, 1024))
    .factory([](const kernel_arguments& a) { return std::make_unique<fetch_run>(a, false); });

}  // namespace counterguard::kernels::texture
// SPDX-License-Identifier: Apache-2.0
