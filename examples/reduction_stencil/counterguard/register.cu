// The library's kernels as counterguard variants: what counterguard/reduction_stencil.yaml measures.
// Each registration declares the parameters, the device arrays (sizes as formulas, inputs generated), how the
// library launches the kernel and how to check its output.
#include <counterguard/counterguard.hpp>

#include "reduction_stencil/reduction.hpp"
#include "reduction_stencil/reference.hpp"
#include "reduction_stencil/stencil.hpp"

namespace rs = reduction_stencil;
using counterguard::array_check;
using counterguard::array_launch;

namespace {

counterguard::verification check_block_sums(const array_check& c) {
  return counterguard::compare_with_reference("partial", c.output<float>("partial"),
                                              rs::block_sums(c.input<float>("in")), 1e-4);
}

counterguard::verification check_box_filter(const array_check& c) {
  return counterguard::compare_with_reference("out", c.output<float>("out"),
                                              rs::box_filter(c.input<float>("in")), 1e-5);
}

int elements(const array_launch& l) {
  return static_cast<int>(l.integer("n"));
}

}  // namespace

COUNTERGUARD_KERNEL("reduction/interleaved")
    .describe("block sums, interleaved addressing: the shared-memory accesses of a warp collide in banks")
    .launches("reduction_stencil::kernels::interleaved")
    .parameter("n", std::int64_t{1} << 22, "elements", counterguard::range(256, 1 << 28).multiple_of(256))
    .input<float>("in", "n", counterguard::uniform(-1, 1))
    .output<float>("partial", "n / 256")
    .run([](const array_launch& l) {
      rs::reduce_interleaved(l.in<float>("in"), l.out<float>("partial"), elements(l), l.stream());
    })
    .verify(check_block_sums);

COUNTERGUARD_KERNEL("reduction/sequential")
    .describe("block sums, sequential addressing: consecutive words, no bank conflicts")
    .launches("reduction_stencil::kernels::sequential")
    .parameter("n", std::int64_t{1} << 22, "elements", counterguard::range(256, 1 << 28).multiple_of(256))
    .input<float>("in", "n", counterguard::uniform(-1, 1))
    .output<float>("partial", "n / 256")
    .run([](const array_launch& l) {
      rs::reduce_sequential(l.in<float>("in"), l.out<float>("partial"), elements(l), l.stream());
    })
    .verify(check_block_sums);

COUNTERGUARD_KERNEL("reduction/warp_shuffle")
    .describe("block sums with warp shuffles: one shared-memory word per warp")
    .launches("reduction_stencil::kernels::warp_shuffle")
    .parameter("n", std::int64_t{1} << 22, "elements", counterguard::range(256, 1 << 28).multiple_of(256))
    .input<float>("in", "n", counterguard::uniform(-1, 1))
    .output<float>("partial", "n / 256")
    .run([](const array_launch& l) {
      rs::reduce_warp_shuffle(l.in<float>("in"), l.out<float>("partial"), elements(l), l.stream());
    })
    .verify(check_block_sums);

COUNTERGUARD_KERNEL("stencil/shared")
    .describe("1D box filter of radius 8 through a shared-memory tile")
    .launches("reduction_stencil::kernels::shared_tile")
    .parameter("n", std::int64_t{1} << 22, "elements", counterguard::range(4096, 1 << 28).multiple_of(4096))
    .input<float>("in", "n", counterguard::uniform(-1, 1))
    .output<float>("out", "n")
    .run([](const array_launch& l) {
      rs::stencil_shared(l.in<float>("in"), l.out<float>("out"), elements(l), l.stream());
    })
    .verify(check_box_filter);

COUNTERGUARD_KERNEL("stencil/registers")
    .describe("the box filter with a 32-float window per thread in registers (44 registers, no spills)")
    .launches("reduction_stencil::kernels::register_window<1>")
    .parameter("n", std::int64_t{1} << 22, "elements", counterguard::range(4096, 1 << 28).multiple_of(4096))
    .input<float>("in", "n", counterguard::uniform(-1, 1))
    .output<float>("out", "n")
    .run([](const array_launch& l) {
      rs::stencil_registers(l.in<float>("in"), l.out<float>("out"), elements(l), l.stream());
    })
    .verify(check_box_filter);

COUNTERGUARD_KERNEL("stencil/registers_bounded")
    .describe("the register window under __launch_bounds__(256, 8): 32 registers, the window spills")
    .launches("reduction_stencil::kernels::register_window<8>")
    .parameter("n", std::int64_t{1} << 22, "elements", counterguard::range(4096, 1 << 28).multiple_of(4096))
    .input<float>("in", "n", counterguard::uniform(-1, 1))
    .output<float>("out", "n")
    .run([](const array_launch& l) {
      rs::stencil_registers_bounded(l.in<float>("in"), l.out<float>("out"), elements(l), l.stream());
    })
    .verify(check_box_filter);
// SPDX-License-Identifier: Apache-2.0
