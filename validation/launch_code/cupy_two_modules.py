# SPDX-License-Identifier: Apache-2.0
"""Two CuPy RawModules, each with a kernel named `twin` (different bodies, different registers), launched
alternately: module A with 128-thread blocks, module B with 256, so a launch's block size names its module.
It knows nothing of counterguard; --report F writes each module's RawKernel.attributes."""
import argparse
import json

import cupy

SOURCE = r"""
extern "C" __global__ void twin(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc[WORK];
#pragma unroll
  for (int k = 0; k < WORK; ++k)
    acc[k] = in[i + k * 64];
  float product = 1.0f;
#pragma unroll
  for (int k = 0; k < WORK; ++k)
    product = product * acc[k] + acc[WORK - 1 - k];
  if (i < n)
    out[i] = product;
}
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--report", default="")
    args = parser.parse_args()
    n = 1 << 16
    x = cupy.zeros(n + 64 * 64, dtype=cupy.float32)
    out = cupy.empty(n, dtype=cupy.float32)
    modules = {"A": (cupy.RawModule(code=SOURCE.replace("WORK", "2")), 128),
               "B": (cupy.RawModule(code=SOURCE.replace("WORK", "40")), 256)}
    for _ in range(3):
        for module, threads in modules.values():
            module.get_function("twin")((n // threads,), (threads,), (x, out, cupy.int32(n)))
    cupy.cuda.Device().synchronize()
    report = {}
    for label, (module, threads) in modules.items():
        attributes = module.get_function("twin").attributes
        report[label] = {"block_threads": threads, "num_regs": attributes["num_regs"],
                         "local_size_bytes": attributes["local_size_bytes"]}
        print(label, report[label])
    if args.report:
        with open(args.report, "w") as f:
            json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
