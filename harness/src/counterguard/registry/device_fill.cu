// input_fill::value_at on the GPU, element by element: inputs are generated where they are used, with no host
// generation and no upload. Every double operation of value_at is written with an explicitly rounded
// intrinsic (__dadd_rn, __dmul_rn, __ull2double_rn) so the compiler cannot contract it into an FMA: the
// result is the host's, bit for bit (the GPU test device_fill_test compares them).
#include "counterguard/core/cuda_check.hpp"
#include "counterguard/registry/device_fill.hpp"

namespace counterguard {
namespace {

// The index-th output of the SplitMix64 sequence started at `seed` (splitmix64.hpp: the state advances by the
// golden-ratio constant before each output).
__device__ std::uint64_t splitmix64_at(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * index + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31U);
}

// What value_at needs, with the host's own arithmetic done once on the host (high - low, the integer span).
struct fill_parameters {
  input_fill::kind what;
  double low;
  double high;
  double width;        // high - low, as the host rounds it
  std::uint64_t span;  // uniform integers: static_cast<std::uint64_t>(high - low) + 1
  std::uint64_t seed;
};

__device__ double value_at(const fill_parameters& p, std::uint64_t index) {
  switch (p.what) {
    case input_fill::kind::constant:
      return p.low;
    case input_fill::kind::sequence:
      return __dadd_rn(p.low, __dmul_rn(p.high, __ull2double_rn(index)));
    case input_fill::kind::uniform_integer:
      return __dadd_rn(p.low, __ull2double_rn(splitmix64_at(p.seed, index) % p.span));
    case input_fill::kind::uniform_real: {
      const double unit = __dmul_rn(__ull2double_rn(splitmix64_at(p.seed, index) >> 11U), 0x1.0p-53);
      return __dadd_rn(p.low, __dmul_rn(p.width, unit));
    }
  }
  return 0.0;
}

// static_cast<T>(double) as the host does it: round to nearest for float, truncation toward zero for
// integers.
template <typename T>
__device__ T convert(double value) {
  if constexpr (std::is_same_v<T, float>)
    return __double2float_rn(value);
  else if constexpr (std::is_same_v<T, bool>)
    return value != 0.0;
  else
    return static_cast<T>(value);
}

template <typename T>
__global__ void fill_kernel(fill_parameters parameters, std::uint64_t count, T* target) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride)
    target[i] = convert<T>(value_at(parameters, i));
}

}  // namespace

template <typename T>
void fill_on_device(const input_fill& fill, std::uint64_t seed, std::size_t count, T* target,
                    cudaStream_t stream) {
  if (count == 0)
    return;
  fill_parameters parameters{fill.what, fill.low, fill.high, fill.high - fill.low, 0, seed};
  if (fill.what == input_fill::kind::uniform_integer)
    parameters.span = static_cast<std::uint64_t>(fill.high - fill.low) + 1;
  constexpr unsigned threads = 256;
  const std::size_t wanted = (count + threads - 1) / threads;
  const auto blocks = static_cast<unsigned>(wanted < 65536 ? wanted : 65536);
  fill_kernel<T><<<blocks, threads, 0, stream>>>(parameters, count, target);
  COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
}

#define COUNTERGUARD_INSTANTIATE_DEVICE_FILL(T) \
  template void fill_on_device<T>(const input_fill&, std::uint64_t, std::size_t, T*, cudaStream_t);
COUNTERGUARD_INSTANTIATE_DEVICE_FILL(bool)
COUNTERGUARD_INSTANTIATE_DEVICE_FILL(char)
COUNTERGUARD_INSTANTIATE_DEVICE_FILL(signed char)
COUNTERGUARD_INSTANTIATE_DEVICE_FILL(unsigned char)
COUNTERGUARD_INSTANTIATE_DEVICE_FILL(short)
COUNTERGUARD_INSTANTIATE_DEVICE_FILL(unsigned short)
COUNTERGUARD_INSTANTIATE_DEVICE_FILL(int)
COUNTERGUARD_INSTANTIATE_DEVICE_FILL(unsigned)
COUNTERGUARD_INSTANTIATE_DEVICE_FILL(long)
COUNTERGUARD_INSTANTIATE_DEVICE_FILL(unsigned long)
COUNTERGUARD_INSTANTIATE_DEVICE_FILL(long long)
COUNTERGUARD_INSTANTIATE_DEVICE_FILL(unsigned long long)
COUNTERGUARD_INSTANTIATE_DEVICE_FILL(float)
COUNTERGUARD_INSTANTIATE_DEVICE_FILL(double)
#undef COUNTERGUARD_INSTANTIATE_DEVICE_FILL

}  // namespace counterguard
// SPDX-License-Identifier: Apache-2.0
