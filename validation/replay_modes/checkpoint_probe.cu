// SPDX-License-Identifier: Apache-2.0
// What CUPTI's checkpoint API (cupti_checkpoint.h) costs while a program holds much device memory: the save,
// and the restore after a kernel that writes a small part of it, without and with
// CUPTI_CHECKPOINT_OPT_TRANSFER (restore only the blocks that changed). Kernel replay must save and restore
// between passes; this says whether a narrower restore is on offer (validation/replay_modes.sh `checkpoint`).
//   checkpoint_probe HELD_GIB WRITTEN_MIB
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_checkpoint.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace NV::Cupti::Checkpoint;

namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}

void check(CUptiResult status, const char* what) {
  if (status != CUPTI_SUCCESS) {
    std::fprintf(stderr, "%s: CUPTI error %d\n", what, static_cast<int>(status));
    std::exit(1);
  }
}

__global__ void bump(float* data, std::size_t count) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
    data[i] += 1.0F;
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void probe(const char* name, std::uint8_t optimizations, float* held, std::size_t written) {
  CUpti_Checkpoint checkpoint{};
  checkpoint.structSize = CUpti_Checkpoint_STRUCT_SIZE;
  checkpoint.allowOverwrite = 1;
  checkpoint.optimizations = optimizations;
  for (int launch = 0; launch < 3; ++launch) {
    check(cudaDeviceSynchronize(), "synchronize");
    auto start = std::chrono::steady_clock::now();
    check(cuptiCheckpointSave(&checkpoint), "cuptiCheckpointSave");
    check(cudaDeviceSynchronize(), "synchronize");
    const double save = milliseconds_since(start);
    double restores[3] = {};
    for (int pass = 0; pass < 3; ++pass) {
      bump<<<264, 256>>>(held, written);
      check(cudaDeviceSynchronize(), "bump");
      start = std::chrono::steady_clock::now();
      check(cuptiCheckpointRestore(&checkpoint), "cuptiCheckpointRestore");
      check(cudaDeviceSynchronize(), "synchronize");
      restores[pass] = milliseconds_since(start);
    }
    float first = 0;
    check(cudaMemcpy(&first, held, sizeof first, cudaMemcpyDeviceToHost), "read back");
    std::printf("%s launch %d: save %.2f ms, restores %.2f %.2f %.2f ms, first element %g\n", name, launch,
                save, restores[0], restores[1], restores[2], first);
    bump<<<264, 256>>>(held, written);  // the program moves on: the next launch's state differs
  }
  check(cuptiCheckpointFree(&checkpoint), "cuptiCheckpointFree");
}

}  // namespace

int main(int argc, char** argv) {
  const double held_gib = argc > 1 ? std::atof(argv[1]) : 16.0;
  const double written_mib = argc > 2 ? std::atof(argv[2]) : 64.0;
  const auto held_bytes = static_cast<std::size_t>(held_gib * (1ULL << 30));
  float* held = nullptr;
  check(cudaMalloc(&held, held_bytes), "cudaMalloc");
  check(cudaMemset(held, 0, held_bytes), "cudaMemset");
  const auto written = static_cast<std::size_t>(written_mib * (1 << 20)) / sizeof(float);
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  std::printf("held %.1f GiB, written per launch %.1f MiB, free %.1f GiB of %.1f\n", held_gib, written_mib,
              static_cast<double>(free_bytes) / (1ULL << 30),
              static_cast<double>(total_bytes) / (1ULL << 30));
  probe("none", CUPTI_CHECKPOINT_OPT_NONE, held, written);
  probe("transfer", CUPTI_CHECKPOINT_OPT_TRANSFER, held, written);
  return 0;
}
