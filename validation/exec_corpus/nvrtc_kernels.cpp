// SPDX-License-Identifier: Apache-2.0
// A plain NVRTC program: two kernels compiled at run time to a cubin for the device's architecture, loaded
// with the driver API and launched with cuLaunchKernel. `strided` reads with a stride (32 sectors per request
// when the stride is 32 floats); `spilling` keeps a large array live under a 32-register limit, so ptxas
// spills.
#include <cuda.h>
#include <nvrtc.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

const char* source = R"(
extern "C" __global__ void strided(const float* in, float* out, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[(static_cast<long long>(i) * stride) % n] * 2.0f;
}
extern "C" __global__ void spilling(const float* in, float* out, int n) {
  float v[48];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  #pragma unroll
  for (int k = 0; k < 48; ++k) v[k] = in[(i + k * 131) % n];
  float acc = 0.0f;
  #pragma unroll
  for (int k = 0; k < 48; ++k) acc += v[k] * v[47 - k] + v[(k * 5) % 48];
  if (i < n) out[i] = acc;
}
)";

bool driver_ok(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS)
    return true;
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "%s failed: %s\n", what, name != nullptr ? name : "?");
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (!driver_ok(cuInit(0), "cuInit"))
    return 2;
  CUdevice device = 0;
  CUcontext context = nullptr;
  if (!driver_ok(cuDeviceGet(&device, 0), "cuDeviceGet") ||
      !driver_ok(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain") ||
      !driver_ok(cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return 2;
  int major = 0, minor = 0;
  cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);

  nvrtcProgram program = nullptr;
  nvrtcCreateProgram(&program, source, "nvrtc_kernels.cu", 0, nullptr, nullptr);
  const std::string arch = "-arch=sm_" + std::to_string(major * 10 + minor);
  const char* options[] = {arch.c_str(), "-maxrregcount=32", "-lineinfo"};
  if (nvrtcCompileProgram(program, 3, options) != NVRTC_SUCCESS) {
    std::size_t size = 0;
    nvrtcGetProgramLogSize(program, &size);
    std::string log(size, '\0');
    nvrtcGetProgramLog(program, log.data());
    std::fprintf(stderr, "nvrtc: %s\n", log.c_str());
    return 2;
  }
  std::size_t cubin_size = 0;
  nvrtcGetCUBINSize(program, &cubin_size);
  std::vector<char> cubin(cubin_size);
  nvrtcGetCUBIN(program, cubin.data());
  nvrtcDestroyProgram(&program);
  if (argc > 1) {
    if (FILE* out = std::fopen(argv[1], "wb")) {
      std::fwrite(cubin.data(), 1, cubin.size(), out);
      std::fclose(out);
    }
  }

  CUmodule module = nullptr;
  CUfunction strided = nullptr, spilling = nullptr;
  if (!driver_ok(cuModuleLoadData(&module, cubin.data()), "cuModuleLoadData") ||
      !driver_ok(cuModuleGetFunction(&strided, module, "strided"), "cuModuleGetFunction") ||
      !driver_ok(cuModuleGetFunction(&spilling, module, "spilling"), "cuModuleGetFunction"))
    return 2;

  int n = 1 << 20;
  int stride = 32;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = static_cast<float>(i % 1000);
  CUdeviceptr in = 0, out = 0;
  if (!driver_ok(cuMemAlloc(&in, n * sizeof(float)), "cuMemAlloc") ||
      !driver_ok(cuMemAlloc(&out, n * sizeof(float)), "cuMemAlloc") ||
      !driver_ok(cuMemcpyHtoD(in, host.data(), n * sizeof(float)), "cuMemcpyHtoD"))
    return 2;
  void* strided_args[] = {&in, &out, &n, &stride};
  void* spilling_args[] = {&in, &out, &n};
  nvtxRangePushA("nvrtc");
  bool ok = driver_ok(cuLaunchKernel(strided, n / 256, 1, 1, 256, 1, 1, 0, nullptr, strided_args, nullptr),
                      "cuLaunchKernel strided");
  std::vector<float> result(n);
  ok = ok && driver_ok(cuMemcpyDtoH(result.data(), out, n * sizeof(float)), "cuMemcpyDtoH");
  for (int i = 0; ok && i < n; i += 997)
    ok = result[i] == 2.0f * host[(static_cast<long long>(i) * stride) % n];
  ok = ok && driver_ok(cuLaunchKernel(spilling, n / 128, 1, 1, 128, 1, 1, 0, nullptr, spilling_args, nullptr),
                       "cuLaunchKernel spilling");
  ok = ok && driver_ok(cuCtxSynchronize(), "cuCtxSynchronize");
  nvtxRangePop();
  cuMemFree(in);
  cuMemFree(out);
  cuModuleUnload(module);
  cuDevicePrimaryCtxRelease(device);
  std::printf("nvrtc_kernels: %s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
