// A plain Thrust/CUB program, written as a user of those libraries would: each phase inside its own NVTX
// range. It knows nothing of counterguard; it checks its own results and exits 1 when one is wrong.
#include <nvtx3/nvToolsExt.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstdio>
#include <cstdlib>

namespace {

struct saxpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

struct scramble {
  __host__ __device__ unsigned operator()(unsigned i) const {
    unsigned h = i * 2654435761u;
    h ^= h >> 15;
    return h * 2246822519u;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : (1 << 22);
  thrust::device_vector<float> x(n);
  thrust::device_vector<float> y(n, 1.0f);
  thrust::device_vector<unsigned> keys(n);

  nvtxRangePushA("phase/sequence");
  thrust::sequence(x.begin(), x.end());
  thrust::sequence(keys.begin(), keys.end());
  nvtxRangePop();

  nvtxRangePushA("phase/transform");
  thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), saxpy{2.0f});
  thrust::transform(keys.begin(), keys.end(), keys.begin(), scramble{});
  nvtxRangePop();

  nvtxRangePushA("phase/reduce");
  const double sum = thrust::reduce(y.begin(), y.end(), 0.0, thrust::plus<double>());
  nvtxRangePop();

  nvtxRangePushA("phase/scan");
  thrust::device_vector<float> prefix(n);
  thrust::inclusive_scan(y.begin(), y.begin() + 4096, prefix.begin());
  nvtxRangePop();

  nvtxRangePushA("phase/sort");
  thrust::sort(keys.begin(), keys.end());
  nvtxRangePop();

  // Check every phase against what it must give.
  const double expected_sum = 2.0 * (static_cast<double>(n) - 1.0) * n / 2.0 + n;
  thrust::host_vector<unsigned> sorted = keys;
  bool ok = sum == expected_sum;
  for (int i = 1; i < n && ok; ++i)
    ok = sorted[i - 1] <= sorted[i];
  const float last_prefix = prefix[4095];
  ok = ok && last_prefix == 2.0f * 4095.0f * 4096.0f / 2.0f + 4096.0f;
  std::printf("thrust_phases: n=%d sum=%.1f prefix=%.1f sorted=%s\n", n, sum, last_prefix, ok ? "yes" : "no");
  return ok ? 0 : 1;
}
// SPDX-License-Identifier: Apache-2.0
