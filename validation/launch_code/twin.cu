// SPDX-License-Identifier: Apache-2.0
// One kernel name, two bodies: built twice (-DTWIN_WORK=1 and =16) into two cubins, loaded as two modules,
// the same function name in each with different registers. What validation/launch_code_checks.sh launches to
// see that each launch is given its own module's static metrics.
#ifndef TWIN_WORK
#define TWIN_WORK 1
#endif

extern "C" __global__ void twin(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc[TWIN_WORK];
#pragma unroll
  for (int k = 0; k < TWIN_WORK; ++k)
    acc[k] = in[i + k * 64];
  float product = 1.0f;
#pragma unroll
  for (int k = 0; k < TWIN_WORK; ++k)
    product = product * acc[k] + acc[TWIN_WORK - 1 - k];
  if (i < n)
    out[i] = product;
}
