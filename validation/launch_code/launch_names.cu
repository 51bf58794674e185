// SPDX-License-Identifier: Apache-2.0
// Launches that vary what ncu's launch__ metrics depend on beyond the geometry and the registers: static and
// dynamic shared memory across the H200's carve-out sizes, a preferred carve-out (the function's attribute
// and the launch's), named barriers, several streams (created, non-blocking, prioritised, the legacy and the
// per-thread default streams) and a second context. validation/launch_code_checks.sh `names` runs it under
// ncu and under `counterguard exec` and compares every launch__ value of the same launches. Each launch also
// prints what the driver says of it (one line, "launch ..."), for fitting a rule where the two differ.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}

void check(CUresult status, const char* what) {
  if (status != CUDA_SUCCESS) {
    const char* name = nullptr;
    cuGetErrorName(status, &name);
    std::fprintf(stderr, "%s: %s\n", what, name != nullptr ? name : "?");
    std::exit(1);
  }
}

}  // namespace

// Static shared memory of Bytes per block.
template <int Bytes>
__global__ void static_shared(float* out) {
  __shared__ float tile[Bytes / 4];
  const int n = Bytes / 4;
  tile[threadIdx.x % n] = static_cast<float>(threadIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[(threadIdx.x + 1) % n];
}

// Dynamic shared memory only; one instance per preferred carve-out (a function attribute), -1: none set.
template <int Carveout>
__global__ void dynamic_shared(float* out, int words) {
  extern __shared__ float tile[];
  if (words > 0)
    tile[threadIdx.x % words] = static_cast<float>(threadIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = words > 0 ? tile[(threadIdx.x + 1) % words] : 0.0f;
}

// Static and dynamic shared memory together.
__global__ void static_and_dynamic(float* out, int words) {
  __shared__ float fixed[2048];
  extern __shared__ float tile[];
  fixed[threadIdx.x % 2048] = 1.0f;
  if (words > 0)
    tile[threadIdx.x % words] = static_cast<float>(threadIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      fixed[(threadIdx.x + 3) % 2048] + (words > 0 ? tile[(threadIdx.x + 1) % words] : 0.0f);
}

// No barrier at all.
__global__ void no_barrier(float* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

// Barrier 0 (__syncthreads) only.
__global__ void barrier_zero(float* out) {
  __shared__ float s[256];
  s[threadIdx.x % 256] = 1.0f;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % 256];
}

// Barriers 0 and 1: the first two warps meet at named barrier 1 (64 threads), then everyone at 0.
__global__ void barriers_zero_one(float* out) {
  __shared__ float s[256];
  s[threadIdx.x % 256] = 1.0f;
  if (threadIdx.x < 64)
    asm volatile("bar.sync 1, 64;" ::: "memory");
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % 256];
}

// Named barrier 5 only (no barrier 0): does the count follow the highest id or the ids used?
__global__ void barrier_five_only(float* out) {
  __shared__ float s[64];
  if (threadIdx.x < 64) {
    s[threadIdx.x] = 1.0f;
    asm volatile("bar.sync 5, 64;" ::: "memory");
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % 64];
  }
}

// Barriers 0, 1, 2 and 3: four pairs of warps, each at its own named barrier.
__global__ void barriers_zero_to_three(float* out) {
  __shared__ float s[256];
  s[threadIdx.x % 256] = 1.0f;
  const unsigned pair = threadIdx.x / 64;
  if (pair == 1)
    asm volatile("bar.sync 1, 64;" ::: "memory");
  else if (pair == 2)
    asm volatile("bar.sync 2, 64;" ::: "memory");
  else if (pair == 3)
    asm volatile("bar.sync 3, 64;" ::: "memory");
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % 256];
}

// A barrier id from a register: the compiler cannot know which ids are used.
__global__ void barrier_from_register(float* out, int id) {
  __shared__ float s[256];
  s[threadIdx.x % 256] = 1.0f;
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(static_cast<int>(blockDim.x)) : "memory");
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % 256];
}

namespace {

float* g_out = nullptr;

// Says what the driver states of the function and the launch, then launches it.
template <typename Kernel, typename... Args>
void launch(const char* name, Kernel kernel, unsigned blocks, unsigned threads, std::size_t dynamic_bytes,
            cudaStream_t stream, Args... args) {
  cudaFuncAttributes a{};
  check(cudaFuncGetAttributes(&a, kernel), "cudaFuncGetAttributes");
  int blocks_per_sm = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, static_cast<int>(threads),
                                                      dynamic_bytes),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  CUcontext context = nullptr;
  cuCtxGetCurrent(&context);
  unsigned long long context_id = 0;
  cuCtxGetId(context, &context_id);
  unsigned long long stream_id = 0;
  cudaStreamGetId(stream, &stream_id);
  std::printf(
      "launch %s blocks=%u threads=%u dynamic=%zu static=%zu regs=%d carveout=%d max_dynamic=%d "
      "blocks_per_sm=%d ctx_id=%llu stream_id=%llu\n",
      name, blocks, threads, dynamic_bytes, a.sharedSizeBytes, a.numRegs, a.preferredShmemCarveout,
      a.maxDynamicSharedSizeBytes, blocks_per_sm, context_id, stream_id);
  kernel<<<blocks, threads, dynamic_bytes, stream>>>(g_out, args...);
  check(cudaGetLastError(), name);
}

// Launches through cudaLaunchKernelEx with the launch's own preferred carve-out (a launch attribute).
void launch_with_carveout(unsigned carveout, std::size_t dynamic_bytes, int words) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(264);
  config.blockDim = dim3(256);
  config.dynamicSmemBytes = dynamic_bytes;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributePreferredSharedMemoryCarveout;
  attribute.val.sharedMemCarveout = carveout;
  config.attrs = &attribute;
  config.numAttrs = 1;
  std::printf("launch dynamic_shared<-1> (launch carveout %u) blocks=264 threads=256 dynamic=%zu\n", carveout,
              dynamic_bytes);
  check(cudaLaunchKernelEx(&config, dynamic_shared<-1>, g_out, words), "cudaLaunchKernelEx");
}

// Launches dynamic_shared<-1> in clusters of `cluster` blocks (cudaLaunchKernelEx), and says what the
// driver's cluster occupancy calculator states of that launch: ncu's launch__cluster_* and
// _occupancy_cluster_* names.
void launch_in_clusters(unsigned cluster, unsigned threads, std::size_t dynamic_bytes) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(528);  // a multiple of every cluster size
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = dynamic_bytes;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = cluster;
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  int active = -1;
  int potential = -1;
  const cudaError_t active_status = cudaOccupancyMaxActiveClusters(&active, dynamic_shared<-1>, &config);
  const cudaError_t potential_status =
      cudaOccupancyMaxPotentialClusterSize(&potential, dynamic_shared<-1>, &config);
  std::printf(
      "launch dynamic_shared<-1> (cluster %u) blocks=528 threads=%u dynamic=%zu max_active_clusters=%d "
      "(%s) max_potential_cluster_size=%d (%s)\n",
      cluster, threads, dynamic_bytes, active, cudaGetErrorString(active_status), potential,
      cudaGetErrorString(potential_status));
  check(cudaLaunchKernelEx(&config, dynamic_shared<-1>, g_out, static_cast<int>(dynamic_bytes / 4)),
        "cudaLaunchKernelEx (clusters)");
}

template <int Carveout>
void prefer(int max_dynamic) {
  if (Carveout >= 0)
    check(cudaFuncSetAttribute(dynamic_shared<Carveout>, cudaFuncAttributePreferredSharedMemoryCarveout,
                               Carveout),
          "carveout");
  check(cudaFuncSetAttribute(dynamic_shared<Carveout>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             max_dynamic),
        "max dynamic");
}

// Every dynamic size across the carve-outs, at two block sizes, for the instance of preference Carveout.
template <int Carveout>
void sweep(const char* name, cudaStream_t stream) {
  constexpr std::size_t sizes[] = {0,         1024,      7 * 1024,   15 * 1024,  31 * 1024,  47 * 1024,
                                   63 * 1024, 99 * 1024, 131 * 1024, 163 * 1024, 195 * 1024, 226 * 1024};
  for (const unsigned threads : {128u, 1024u}) {
    for (const std::size_t bytes : sizes)
      launch(name, dynamic_shared<Carveout>, 264, threads, bytes, stream, static_cast<int>(bytes / 4));
  }
}

}  // namespace

int main() {
  check(cudaSetDevice(0), "cudaSetDevice");
  int optin = 0;
  check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), "optin");
  check(cudaMalloc(&g_out, 1024 * 1024 * sizeof(float)), "cudaMalloc");
  const int max_dynamic = optin;  // 227 KB on the H200
  prefer<-1>(max_dynamic);
  prefer<0>(max_dynamic);
  prefer<25>(max_dynamic);
  prefer<50>(max_dynamic);
  prefer<100>(max_dynamic);
  check(cudaFuncSetAttribute(static_and_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             max_dynamic - 8192),
        "max dynamic");

  // Static shared memory at several sizes and block sizes.
  for (const unsigned threads : {32u, 256u, 1024u}) {
    launch("static_shared<1024>", static_shared<1024>, 264, threads, 0, nullptr);
    launch("static_shared<8192>", static_shared<8192>, 264, threads, 0, nullptr);
    launch("static_shared<20480>", static_shared<20480>, 264, threads, 0, nullptr);
    launch("static_shared<40960>", static_shared<40960>, 264, threads, 0, nullptr);
  }
  // Dynamic shared memory across the carve-out sizes, without and with preferred carve-outs.
  sweep<-1>("dynamic_shared<-1>", nullptr);
  sweep<0>("dynamic_shared<0>", nullptr);
  sweep<25>("dynamic_shared<25>", nullptr);
  sweep<50>("dynamic_shared<50>", nullptr);
  sweep<100>("dynamic_shared<100>", nullptr);
  for (const std::size_t bytes : {std::size_t{0}, std::size_t{40 * 1024}, std::size_t{150 * 1024}})
    launch("static_and_dynamic", static_and_dynamic, 264, 256, bytes, nullptr, static_cast<int>(bytes / 4));
  for (const unsigned carveout : {0u, 50u, 100u}) {
    launch_with_carveout(carveout, 0, 0);
    launch_with_carveout(carveout, 20 * 1024, 5 * 1024);
  }

  // Thread-block clusters (16 blocks needs the non-portable size): ncu's cluster occupancy names.
  check(cudaFuncSetAttribute(dynamic_shared<-1>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
        "non-portable clusters");
  for (const unsigned cluster : {1u, 2u, 4u, 8u, 16u}) {
    for (const unsigned threads : {128u, 1024u}) {
      for (const std::size_t bytes : {std::size_t{0}, std::size_t{48 * 1024}, std::size_t{150 * 1024}})
        launch_in_clusters(cluster, threads, bytes);
    }
  }

  // Barriers.
  launch("no_barrier", no_barrier, 264, 256, 0, nullptr);
  launch("barrier_zero", barrier_zero, 264, 256, 0, nullptr);
  launch("barriers_zero_one", barriers_zero_one, 264, 256, 0, nullptr);
  launch("barrier_five_only", barrier_five_only, 264, 64, 0, nullptr);
  launch("barriers_zero_to_three", barriers_zero_to_three, 264, 256, 0, nullptr);
  launch("barrier_from_register", barrier_from_register, 264, 256, 0, nullptr, 0);

  // Streams: created ones, non-blocking, prioritised, the legacy and per-thread default streams.
  cudaStream_t streams[4] = {};
  check(cudaStreamCreate(&streams[0]), "stream");
  check(cudaStreamCreate(&streams[1]), "stream");
  check(cudaStreamCreateWithFlags(&streams[2], cudaStreamNonBlocking), "stream");
  int lowest = 0;
  int highest = 0;
  check(cudaDeviceGetStreamPriorityRange(&lowest, &highest), "priorities");
  check(cudaStreamCreateWithPriority(&streams[3], cudaStreamNonBlocking, highest), "stream");
  for (cudaStream_t stream : streams)
    launch("no_barrier", no_barrier, 132, 128, 0, stream);
  launch("no_barrier", no_barrier, 132, 128, 0, cudaStreamLegacy);
  launch("no_barrier", no_barrier, 132, 128, 0, cudaStreamPerThread);
  launch("no_barrier", no_barrier, 132, 128, 0, streams[1]);
  check(cudaDeviceSynchronize(), "synchronize");

  // A second context on the same device: the runtime launches into the context current to the thread.
  check(cuInit(0), "cuInit");
  CUdevice device = 0;
  check(cuDeviceGet(&device, 0), "cuDeviceGet");
  CUcontext second = nullptr;
  check(cuCtxCreate(&second, nullptr, 0, device), "cuCtxCreate");
  float* second_out = nullptr;
  check(cudaMalloc(&second_out, 1024 * 1024 * sizeof(float)), "cudaMalloc (second context)");
  float* first_out = g_out;
  g_out = second_out;
  cudaStream_t second_stream = nullptr;
  check(cudaStreamCreate(&second_stream), "stream (second context)");
  launch("no_barrier", no_barrier, 132, 256, 0, nullptr);
  launch("barrier_zero", barrier_zero, 132, 256, 0, second_stream);
  launch("static_shared<8192>", static_shared<8192>, 132, 256, 0, second_stream);
  check(cudaDeviceSynchronize(), "synchronize (second context)");
  check(cuCtxPopCurrent(nullptr), "cuCtxPopCurrent");
  g_out = first_out;
  launch("no_barrier", no_barrier, 132, 256, 0, streams[0]);
  check(cudaDeviceSynchronize(), "synchronize");
  std::printf("done\n");
  return 0;
}
