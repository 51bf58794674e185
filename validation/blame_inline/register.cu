// The plant kernels as counterguard variants (blame_inline.yaml measures them). The same registrations in
// both builds; each checks the answer its build computes.
#include <algorithm>
#include <counterguard/registry/array_kernel.hpp>
#include <counterguard/registry/verify.hpp>
#include <numeric>

#include "blame_inline/plants.hpp"

using counterguard::array_check;
using counterguard::array_launch;

namespace {

unsigned elements(const array_launch& l) {
  return static_cast<unsigned>(l.integer("n"));
}

counterguard::verification check_gathered(const array_check& c) {
  const std::vector<float> in = c.input<float>("in");
  std::vector<float> expected(c.size("out"));
  for (std::size_t i = 0; i < expected.size(); ++i)
    expected[i] = in[i * blame_inline::gather_stride_of_build()] * 2.0F;
  return counterguard::compare_with_reference("out", c.output<float>("out"), expected);
}

counterguard::verification check_tile_sums(const array_check& c) {
  const std::vector<int> in = c.input<int>("in");
  std::vector<int> expected(c.size("sums"), 0);
  for (std::size_t i = 0; i < in.size(); ++i)
    expected[i / 32] += in[i];
  return counterguard::compare_with_reference("sums", c.output<int>("sums"), expected);
}

counterguard::verification check_count(const array_check& c) {
  const auto n = static_cast<unsigned long long>(c.integer("n"));
  const std::vector<unsigned long long> counter = c.output<unsigned long long>("counter");
  if (counter.at(0) != n)
    return counterguard::verification::failure("counter = " + std::to_string(counter[0]) + ", expected " +
                                               std::to_string(n));
  std::vector<unsigned long long> tickets = c.output<unsigned long long>("tickets");
  std::vector<unsigned long long> expected(tickets.size(), 0ULL);
  if (blame_inline::tickets_kept()) {
    std::sort(tickets.begin(), tickets.end());  // each ticket once, in whatever order the atomics ran
    std::iota(expected.begin(), expected.end(), 0ULL);
  }
  return counterguard::compare_with_reference("tickets", tickets, expected);
}

}  // namespace

COUNTERGUARD_KERNEL("blame_inline/helper_gather")
    .describe("plant (a): out[i] = 2 * in[i * stride] through a device function of the project's header")
    .launches("blame_inline::kernels::scale_gathered")
    .parameter("n", std::int64_t{1} << 20, "elements", counterguard::range(256, 1 << 26).multiple_of(256))
    .input<float>("in", "2 * n", counterguard::uniform(-1, 1))
    .output<float>("out", "n")
    .run([](const array_launch& l) {
      blame_inline::scale_gathered(l.in<float>("in"), l.out<float>("out"), elements(l), l.stream());
    })
    .verify(check_gathered);

COUNTERGUARD_KERNEL("blame_inline/group_sum")
    .describe("plant (b): sums of 32 elements by cooperative groups' reduce over a tile of 32")
    .launches("blame_inline::kernels::tile_sums")
    .parameter("n", std::int64_t{1} << 20, "elements", counterguard::range(256, 1 << 26).multiple_of(256))
    .input<int>("in", "n", counterguard::uniform_integers(-100, 100))
    .output<int>("sums", "n / 32")
    .run([](const array_launch& l) {
      blame_inline::tile_sums(l.in<int>("in"), l.out<int>("sums"), elements(l), l.stream());
    })
    .verify(check_tile_sums);

COUNTERGUARD_KERNEL("blame_inline/count_events")
    .describe(
        "plant (c): every thread counts itself with atomicAdd (result unused: RED; planted: kept, ATOM)")
    .launches("blame_inline::kernels::count_events")
    .parameter("n", std::int64_t{1} << 20, "threads", counterguard::range(256, 1 << 26).multiple_of(256))
    .inout<unsigned long long>("counter", "1", counterguard::constant(0))
    .output<unsigned long long>("tickets", "n")
    .run([](const array_launch& l) {
      blame_inline::count_events(l.out<unsigned long long>("counter"), l.out<unsigned long long>("tickets"),
                                 elements(l), l.stream());
    })
    .verify(check_count);
// SPDX-License-Identifier: Apache-2.0
