// The plant kernels: each one's regression is planted in code inlined from a header (BLAME_INLINE_PLANT), on
// the same lines in both builds, so that a per-line baseline of the unplanted build matches the planted one.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "blame_inline/gather.cuh"
#include "blame_inline/plants.hpp"

namespace cg = cooperative_groups;

namespace blame_inline {
namespace {

// Plant (b): with cg::plus<int>, cg::reduce uses the hardware warp reduction (REDUX, sm_80 and later); with
// a plus of the project's own (the same sum) it takes cooperative groups' shuffle tree: more instructions,
// all of them inlined from the toolkit's cooperative_groups headers.
// Plant (c): an atomicAdd whose result is unused compiles to RED; the planted build keeps the result (ATOM).
#ifdef BLAME_INLINE_PLANT
struct sum_op {
  __device__ int operator()(int a, int b) const { return a + b; }
};
constexpr bool keep_ticket = true;
#else
using sum_op = cg::plus<int>;
constexpr bool keep_ticket = false;
#endif

constexpr unsigned block = 256;

}  // namespace

namespace kernels {

__global__ void scale_gathered(const float* in, float* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = gathered(in, i);  // plant (a): the header's helper
}

__global__ void tile_sums(const int* in, int* sums) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const int sum = cg::reduce(tile, in[i], sum_op());  // plant (b): cooperative groups' reduction
  if (tile.thread_rank() == 0)
    sums[i / 32] = sum;
}

__global__ void count_events(unsigned long long* counter, unsigned long long* tickets) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long ticket = atomicAdd(counter, 1ULL);  // plant (c): the toolkit's atomicAdd
  tickets[i] = keep_ticket ? ticket : 0ULL;
}

}  // namespace kernels

void scale_gathered(const float* in, float* out, unsigned n, cudaStream_t stream) {
  kernels::scale_gathered<<<(n + block - 1) / block, block, 0, stream>>>(in, out, n);
}

void tile_sums(const int* in, int* sums, unsigned n, cudaStream_t stream) {
  kernels::tile_sums<<<n / block, block, 0, stream>>>(in, sums);
}

void count_events(unsigned long long* counter, unsigned long long* tickets, unsigned n, cudaStream_t stream) {
  kernels::count_events<<<n / block, block, 0, stream>>>(counter, tickets);
}

unsigned gather_stride_of_build() {
  return gather_stride;
}

bool tickets_kept() {
  return keep_ticket;
}

}  // namespace blame_inline
// SPDX-License-Identifier: Apache-2.0
