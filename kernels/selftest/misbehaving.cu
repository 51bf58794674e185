// Kernels that fault or never finish, so the GPU tests can show that one bad case fails alone and the rest
// of the suite still runs (harness/test/device/fault_isolation.yaml).
#include <cstdint>
#include <memory>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/kernel_registry.hpp"

namespace counterguard::kernels::selftest {

// Writes through an address no allocation covers: the launch ends with cudaErrorIllegalAddress.
__global__ void illegal_address(int* target) {
  target[threadIdx.x] = 1;
}

// Waits for a flag nobody sets: the case is killed by the per-case timeout.
__global__ void spin_forever(const volatile int* flag) {
  while (*flag == 0) {
  }
}

namespace {

class illegal_address_run : public kernel_run {
 public:
  void launch(cudaStream_t stream) override {
    // An address far outside any allocation (not null, which some drivers map to a trap page).
    auto* nowhere = reinterpret_cast<int*>(std::uintptr_t{0x7f0000000000});
    illegal_address<<<1, 32, 0, stream>>>(nowhere);
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }
  verification verify() override { return verification::failure("the kernel was meant to fault"); }
};

class spin_run : public kernel_run {
 public:
  spin_run() : m_flag(1) { m_flag.fill_bytes(0); }
  void launch(cudaStream_t stream) override {
    spin_forever<<<1, 1, 0, stream>>>(m_flag.data());
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }
  verification verify() override { return verification::failure("the kernel was meant to hang"); }

 private:
  device_buffer<int> m_flag;
};

}  // namespace
}  // namespace counterguard::kernels::selftest

COUNTERGUARD_REGISTER_KERNEL("selftest/illegal_address")
    .describe("writes to an unmapped address (fault-isolation test; not a lesson)")
    .launches("counterguard::kernels::selftest::illegal_address")
    .factory([](const counterguard::kernel_arguments&) {
      return std::make_unique<counterguard::kernels::selftest::illegal_address_run>();
    });

COUNTERGUARD_REGISTER_KERNEL("selftest/spin_forever")
    .describe("spins on a flag nobody sets (per-case timeout test; not a lesson)")
    .launches("counterguard::kernels::selftest::spin_forever")
    .factory([](const counterguard::kernel_arguments&) {
      return std::make_unique<counterguard::kernels::selftest::spin_run>();
    });
// SPDX-License-Identifier: Apache-2.0
