// An ordinary CUDA application, written without counterguard in mind: it transposes a matrix three ways, adds
// vectors and histograms values with atomics, marks its phases with NVTX ranges (push/pop ranges of the
// default domain, a registered string in a domain of its own, a start/end range), checks its results on the
// CPU and exits 0 when they are right. `counterguard exec` measures it unmodified (demo.yaml, docs/exec.md).
//
//   exec_demo [--size N] [--iterations K] [--ranks R] [--exit-status S] [--crash] [--hang]
//     --ranks R      start R copies of itself, each with OMPI_COMM_WORLD_RANK set, as an MPI launcher would
//     --exit-status  exit with this status after the work (a failing test program)
//     --crash        die of SIGSEGV after the work;  --hang  never return after the work
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int tile = 32;
constexpr int rows = 8;  // a block is tile x rows threads
constexpr int bins = 64;

#define DEMO_CHECK(call)                                                               \
  do {                                                                                 \
    const cudaError_t status_ = (call);                                                \
    if (status_ != cudaSuccess) {                                                      \
      std::fprintf(stderr, "exec_demo: %s: %s\n", #call, cudaGetErrorString(status_)); \
      std::exit(2);                                                                    \
    }                                                                                  \
  } while (0)

__global__ void fill(float* values, int count, float scale) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    values[i] = scale * static_cast<float>(i % 1000);
}

__global__ void vec_add(const float* a, const float* b, float* c, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    c[i] = a[i] + b[i];
}

// Reads rows, writes columns: the stores scatter over 32 rows (32 sectors per request).
__global__ void transpose_naive(const float* in, float* out, int n) {
  const int x = blockIdx.x * tile + threadIdx.x;
  const int y = blockIdx.y * tile + threadIdx.y;
  for (int j = 0; j < tile; j += rows)
    out[static_cast<std::int64_t>(x) * n + y + j] = in[static_cast<std::int64_t>(y + j) * n + x];
}

// Through a shared tile whose rows are `pitch` floats apart: the column-wise store of a 32-float pitch puts
// a warp's 32 words in one bank, a pitch of 33 spreads them over all 32.
template <int pitch>
__global__ void transpose_tiled(const float* in, float* out, int n) {
  __shared__ float buffer[tile * pitch];
  const int x = blockIdx.x * tile + threadIdx.x;
  const int y = blockIdx.y * tile + threadIdx.y;
  for (int j = 0; j < tile; j += rows)
    buffer[threadIdx.x * pitch + threadIdx.y + j] = in[static_cast<std::int64_t>(y + j) * n + x];
  __syncthreads();
  const int out_x = blockIdx.y * tile + threadIdx.x;
  const int out_y = blockIdx.x * tile + threadIdx.y;
  for (int j = 0; j < tile; j += rows)
    out[static_cast<std::int64_t>(out_y + j) * n + out_x] = buffer[(threadIdx.y + j) * pitch + threadIdx.x];
}

// Not idempotent: every launch adds to the bins. Correct results under profiling need a replay that restores
// memory between passes.
__global__ void histogram(const float* values, unsigned* counts, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    atomicAdd(&counts[static_cast<int>(values[i]) % bins], 1u);
}

struct options {
  int size = 2048;
  int iterations = 3;
  int ranks = 0;
  int exit_status = 0;
  bool crash = false;
  bool hang = false;
};

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    const bool has_value = i + 1 < argc;
    if (argument == "--size" && has_value) {
      o.size = std::atoi(argv[++i]);
    } else if (argument == "--iterations" && has_value) {
      o.iterations = std::atoi(argv[++i]);
    } else if (argument == "--ranks" && has_value) {
      o.ranks = std::atoi(argv[++i]);
    } else if (argument == "--exit-status" && has_value) {
      o.exit_status = std::atoi(argv[++i]);
    } else if (argument == "--crash") {
      o.crash = true;
    } else if (argument == "--hang") {
      o.hang = true;
    } else {
      std::fprintf(stderr, "exec_demo: unknown argument '%s'\n", argument.c_str());
      std::exit(64);
    }
  }
  if (o.size < tile || o.size % tile != 0 || o.iterations < 1) {
    std::fprintf(stderr, "exec_demo: --size must be a multiple of 32, --iterations at least 1\n");
    std::exit(64);
  }
  return o;
}

// As an MPI launcher does: R processes of this program, each told its rank. They inherit the environment,
// counterguard's injection included.
int launch_ranks(int argc, char** argv, int ranks) {
  std::vector<pid_t> children;
  for (int rank = 0; rank < ranks; ++rank) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      const std::string value = std::to_string(rank);
      ::setenv("OMPI_COMM_WORLD_RANK", value.c_str(), 1);
      std::vector<char*> arguments;
      for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--ranks") == 0) {
          ++i;  // the children do the work themselves
          continue;
        }
        arguments.push_back(argv[i]);
      }
      arguments.push_back(nullptr);
      ::execv("/proc/self/exe", arguments.data());
      std::perror("exec_demo: execv");
      ::_exit(127);
    }
    children.push_back(pid);
  }
  int worst = 0;
  for (const pid_t child : children) {
    int status = 0;
    ::waitpid(child, &status, 0);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    worst = code > worst ? code : worst;
  }
  return worst;
}

bool check(bool condition, const char* what) {
  if (!condition)
    std::fprintf(stderr, "exec_demo: wrong result: %s\n", what);
  return condition;
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  if (o.ranks > 0)
    return launch_ranks(argc, argv, o.ranks);

  const int n = o.size;
  const int count = n * n;
  const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(float);
  float* a = nullptr;
  float* b = nullptr;
  float* c = nullptr;
  float* t = nullptr;
  unsigned* counts = nullptr;

  nvtxRangePushA("setup");
  DEMO_CHECK(cudaMalloc(&a, bytes));
  DEMO_CHECK(cudaMalloc(&b, bytes));
  DEMO_CHECK(cudaMalloc(&c, bytes));
  DEMO_CHECK(cudaMalloc(&t, bytes));
  DEMO_CHECK(cudaMalloc(&counts, bins * sizeof(unsigned)));
  DEMO_CHECK(cudaMemset(counts, 0, bins * sizeof(unsigned)));
  const int threads = 256;
  const int blocks = (count + threads - 1) / threads;
  fill<<<blocks, threads>>>(a, count, 1.0f);
  fill<<<blocks, threads>>>(b, count, 2.0f);
  DEMO_CHECK(cudaGetLastError());
  nvtxRangePop();

  const nvtxDomainHandle_t domain = nvtxDomainCreateA("demo");
  const nvtxStringHandle_t solve = nvtxDomainRegisterStringA(domain, "solve");
  nvtxEventAttributes_t solve_range{};
  solve_range.version = NVTX_VERSION;
  solve_range.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  solve_range.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  solve_range.message.registered = solve;

  const dim3 grid(n / tile, n / tile);
  const dim3 block(tile, rows);
  const nvtxRangeId_t epoch = nvtxRangeStartA("epoch 0");
  for (int iteration = 0; iteration < o.iterations; ++iteration) {
    nvtxRangePushA("step");
    vec_add<<<blocks, threads>>>(a, b, c, count);
    transpose_naive<<<grid, block>>>(a, t, n);
    nvtxDomainRangePushEx(domain, &solve_range);
    transpose_tiled<32><<<grid, block>>>(c, t, n);
    transpose_tiled<33><<<grid, block>>>(a, t, n);
    nvtxDomainRangePop(domain);
    histogram<<<blocks, threads>>>(a, counts, count);
    DEMO_CHECK(cudaGetLastError());
    nvtxRangePop();
  }
  nvtxRangeEnd(epoch);
  DEMO_CHECK(cudaDeviceSynchronize());

  // The last transpose wrote transpose(a); c = a + b; the histogram counted a's values once per iteration.
  std::vector<float> host_t(static_cast<std::size_t>(count));
  std::vector<float> host_c(static_cast<std::size_t>(count));
  std::vector<unsigned> host_counts(bins);
  DEMO_CHECK(cudaMemcpy(host_t.data(), t, bytes, cudaMemcpyDeviceToHost));
  DEMO_CHECK(cudaMemcpy(host_c.data(), c, bytes, cudaMemcpyDeviceToHost));
  DEMO_CHECK(cudaMemcpy(host_counts.data(), counts, bins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::vector<unsigned> expected_counts(bins, 0);
  bool right = true;
  for (int i = 0; i < count && right; ++i) {
    const float value_a = static_cast<float>(i % 1000);
    right = check(host_c[static_cast<std::size_t>(i)] == 3.0f * value_a, "vec_add");
    const int x = i % n;
    const int y = i / n;
    right = right && check(host_t[static_cast<std::size_t>(x) * n + y] == value_a, "transpose");
    expected_counts[static_cast<int>(value_a) % bins] += static_cast<unsigned>(o.iterations);
  }
  right = right && check(host_counts == expected_counts, "histogram (atomics, replayed under profiling)");
  for (void* pointer : {static_cast<void*>(a), static_cast<void*>(b), static_cast<void*>(c),
                        static_cast<void*>(t), static_cast<void*>(counts)}) {
    DEMO_CHECK(cudaFree(pointer));
  }
  std::printf("exec_demo: n=%d, %d iterations: %s\n", n, o.iterations, right ? "results right" : "WRONG");
  std::fflush(stdout);
  if (o.crash)
    std::raise(SIGSEGV);
  while (o.hang)
    ::pause();
  return right ? o.exit_status : 1;
}
// SPDX-License-Identifier: Apache-2.0
