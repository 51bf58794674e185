// The register-heavy body under __launch_bounds__ instead of -maxrregcount: 256 threads and 4 resident blocks
// per SM leave 65536 / (256 * 4) = 64 registers per thread, 8 blocks leave 32.
#include <memory>

#include "counterguard/registry/kernel_registry.hpp"
#include "register_pressure.cuh"

namespace counterguard::kernels::spills {

__global__ void __launch_bounds__(256, 4)
    bounded_4_blocks(const std::uint32_t* in, std::uint32_t* out, int threads) {
  register_heavy_body(in, out, threads);
}

__global__ void __launch_bounds__(256, 8)
    bounded_8_blocks(const std::uint32_t* in, std::uint32_t* out, int threads) {
  register_heavy_body(in, out, threads);
}

COUNTERGUARD_REGISTER_KERNEL("spills/launch_bounds_256x4")
    .describe("register_heavy under __launch_bounds__(256, 4): at most 64 registers per thread")
    .launches("counterguard::kernels::spills::bounded_4_blocks")
    .parameter("threads", std::int64_t{32768}, "threads; each loads and stores 64 words", range(1, 1 << 20))
    .block_size(range(1, 256))
    .factory([](const kernel_arguments& a) {
      return std::make_unique<register_heavy_run>(a, bounded_4_blocks);
    });

COUNTERGUARD_REGISTER_KERNEL("spills/launch_bounds_256x8")
    .describe("register_heavy under __launch_bounds__(256, 8): at most 32 registers per thread")
    .launches("counterguard::kernels::spills::bounded_8_blocks")
    .parameter("threads", std::int64_t{32768}, "threads; each loads and stores 64 words", range(1, 1 << 20))
    .block_size(range(1, 256))
    .factory([](const kernel_arguments& a) {
      return std::make_unique<register_heavy_run>(a, bounded_8_blocks);
    });

}  // namespace counterguard::kernels::spills
// SPDX-License-Identifier: Apache-2.0
