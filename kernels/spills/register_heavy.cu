// The register-heavy kernel, built once per register limit (see CMakeLists.txt): the build's
// COUNTERGUARD_KERNEL_VARIANT names the namespace of the kernel and the suffix of the registered variant.
#include <memory>

#include "counterguard/registry/kernel_registry.hpp"
#include "register_pressure.cuh"

#ifdef COUNTERGUARD_KERNEL_VARIANT
#define COUNTERGUARD_SPILLS_STRINGIZE2(x) #x
#define COUNTERGUARD_SPILLS_STRINGIZE(x) COUNTERGUARD_SPILLS_STRINGIZE2(x)
#define COUNTERGUARD_SPILLS_VARIANT_NAME COUNTERGUARD_SPILLS_STRINGIZE(COUNTERGUARD_KERNEL_VARIANT)
#define COUNTERGUARD_SPILLS_SUFFIX "@" COUNTERGUARD_SPILLS_VARIANT_NAME
#else
#define COUNTERGUARD_KERNEL_VARIANT default_limit
#define COUNTERGUARD_SPILLS_VARIANT_NAME "default_limit"
#define COUNTERGUARD_SPILLS_SUFFIX ""
#endif

namespace counterguard::kernels::spills::COUNTERGUARD_KERNEL_VARIANT {

__global__ void register_heavy(const std::uint32_t* in, std::uint32_t* out, int threads) {
  register_heavy_body(in, out, threads);
}

COUNTERGUARD_REGISTER_KERNEL("spills/register_heavy" COUNTERGUARD_SPILLS_SUFFIX)
    .describe(
        "64 values per thread live through 4 mixing rounds, built with register "
        "limit " COUNTERGUARD_SPILLS_VARIANT_NAME)
    .launches("counterguard::kernels::spills::" COUNTERGUARD_SPILLS_VARIANT_NAME "::register_heavy")
    .parameter("threads", std::int64_t{32768}, "threads; each loads and stores 64 words", range(1, 1 << 20))
    .block_size(range(1, 1024))
    .factory([](const kernel_arguments& a) {
      return std::make_unique<register_heavy_run>(a, register_heavy);
    });

}  // namespace counterguard::kernels::spills::COUNTERGUARD_KERNEL_VARIANT
// SPDX-License-Identifier: Apache-2.0
