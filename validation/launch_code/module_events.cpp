// SPDX-License-Identifier: Apache-2.0
// What the driver and CUPTI say about modules and the functions launched from them: in which API call each
// module-loaded callback arrives (cuModuleLoadData, cuLibraryLoadData, a lazily loading launch), whether its
// cubin pointer is the image the program passed, and what cuFuncGetModule / cuKernelGetLibrary return at a
// launch. Prints one line per event; validation/launch_code_checks.sh runs it. Arguments: two or three
// cubins that define the same extern "C" kernel `twin`.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

thread_local std::vector<std::string> t_calls;  // the API calls this thread is inside, outermost first

std::string inside() {
  std::string text;
  for (const auto& call : t_calls)
    text += (text.empty() ? "" : " > ") + call;
  return text.empty() ? "(no API call)" : text;
}

void describe_function(const char* how, CUfunction f) {
  CUmodule module = nullptr;
  const CUresult got_module = cuFuncGetModule(&module, f);
  const char* name = nullptr;
  cuFuncGetName(&name, f);
  int regs = -1, local = -1, shared = -1, constant = -1;
  cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
  cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
  cuFuncGetAttribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
  cuFuncGetAttribute(&constant, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, f);
  std::printf(
      "launch %s function=%p name=%s cuFuncGetModule=%d module=%p regs=%d local=%d shared=%d const=%d\n", how,
      static_cast<void*>(f), name ? name : "?", static_cast<int>(got_module), static_cast<void*>(module),
      regs, local, shared, constant);
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    const auto* resource = static_cast<const CUpti_ResourceData*>(data);
    const auto* module = static_cast<const CUpti_ModuleResourceData*>(resource->resourceDescriptor);
    if (id == CUPTI_CBID_RESOURCE_MODULE_LOADED || id == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
      std::printf("%s moduleId=%u size=%zu pCubin=%p context=%p inside: %s\n",
                  id == CUPTI_CBID_RESOURCE_MODULE_LOADED ? "module-loaded" : "module-unload",
                  module->moduleId, module->cubinSize, static_cast<const void*>(module->pCubin),
                  static_cast<void*>(resource->context), inside().c_str());
    }
    return;
  }
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  if (cb->callbackSite == CUPTI_API_ENTER) {
    t_calls.push_back(cb->functionName);
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && (id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel))
      std::printf("enter cuLaunchKernel f=%p (under: %s)\n",
                  static_cast<void*>(static_cast<const cuLaunchKernel_params*>(cb->functionParams)->f),
                  inside().c_str());
    return;
  }
  if (!t_calls.empty())
    t_calls.pop_back();
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API)
    return;
  const void* p = cb->functionParams;
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData: {
      const auto* q = static_cast<const cuModuleLoadData_params*>(p);
      std::printf("exit cuModuleLoadData image=%p module=%p\n", q->image, static_cast<void*>(*q->module));
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx: {
      const auto* q = static_cast<const cuModuleLoadDataEx_params*>(p);
      std::printf("exit cuModuleLoadDataEx image=%p module=%p\n", q->image, static_cast<void*>(*q->module));
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData: {
      const auto* q = static_cast<const cuLibraryLoadData_params*>(p);
      std::printf("exit cuLibraryLoadData code=%p library=%p\n", q->code, static_cast<void*>(*q->library));
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLibraryGetModule: {
      const auto* q = static_cast<const cuLibraryGetModule_params*>(p);
      std::printf("exit cuLibraryGetModule library=%p module=%p\n", static_cast<void*>(q->library),
                  static_cast<void*>(*q->pMod));
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuKernelGetFunction: {
      const auto* q = static_cast<const cuKernelGetFunction_params*>(p);
      std::printf("exit cuKernelGetFunction kernel=%p function=%p\n", static_cast<void*>(q->kernel),
                  static_cast<void*>(*q->pFunc));
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: {
      const auto* q = static_cast<const cuLaunchKernel_params*>(p);
      CUfunction f = q->f;
      CUfunction from_kernel = nullptr;
      // A CUkernel cast to CUfunction: its function in the current context.
      if (cuKernelGetFunction(&from_kernel, reinterpret_cast<CUkernel>(f)) == CUDA_SUCCESS &&
          from_kernel != f) {
        CUlibrary library = nullptr;
        cuKernelGetLibrary(&library, reinterpret_cast<CUkernel>(f));
        std::printf("launched handle %p is a CUkernel of library %p\n", static_cast<void*>(f),
                    static_cast<void*>(library));
        f = from_kernel;
      }
      describe_function("(cuLaunchKernel exit)", f);
      break;
    }
    default:
      break;
  }
}

std::vector<char> read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

__global__ void runtime_kernel(float* out) {
  out[threadIdx.x] = 2.0f;
}

void launch(CUfunction f, CUdeviceptr in, CUdeviceptr out) {
  int n = 256;
  void* args[] = {&in, &out, &n};
  cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: module_events A.cubin B.cubin [C.cubin]\n");
    return 2;
  }
  cudaFree(nullptr);
  CUdeviceptr in = 0, out = 0;
  cuMemAlloc(&in, 1 << 20);
  cuMemAlloc(&out, 1 << 20);
  cuMemsetD8(in, 0, 1 << 20);
  // Loaded before the subscriber exists: no callback can describe it.
  const std::vector<char> a = read_file(argv[1]);
  CUmodule early = nullptr;
  std::printf("cuModuleLoadData(A, before subscribing) = %d module=%p image=%p\n",
              static_cast<int>(cuModuleLoadData(&early, a.data())), static_cast<void*>(early),
              static_cast<const void*>(a.data()));

  CUpti_SubscriberHandle subscriber = nullptr;
  cuptiSubscribe(&subscriber, on_callback, nullptr);
  cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
  cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING);

  const std::vector<char> b = read_file(argv[2]);
  CUmodule late = nullptr;
  std::printf("-- cuModuleLoadData(B) image=%p\n", static_cast<const void*>(b.data()));
  cuModuleLoadData(&late, b.data());
  CUfunction fa = nullptr, fb = nullptr;
  cuModuleGetFunction(&fa, early, "twin");
  cuModuleGetFunction(&fb, late, "twin");
  std::printf("-- launch A's twin, then B's twin\n");
  launch(fa, in, out);
  launch(fb, in, out);
  if (argc > 3) {
    const std::vector<char> c = read_file(argv[3]);
    CUlibrary library = nullptr;
    std::printf("-- cuLibraryLoadData(C) code=%p\n", static_cast<const void*>(c.data()));
    cuLibraryLoadData(&library, c.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
    CUkernel kernel = nullptr;
    cuLibraryGetKernel(&kernel, library, "twin");
    std::printf("-- launch C's twin through its CUkernel %p\n", static_cast<void*>(kernel));
    launch(reinterpret_cast<CUfunction>(kernel), in, out);
  }
  std::printf("-- runtime <<<>>> of a kernel of this program's fat binary\n");
  runtime_kernel<<<1, 32>>>(reinterpret_cast<float*>(out));
  cudaDeviceSynchronize();
  std::printf("-- unload B\n");
  cuModuleUnload(late);
  cuptiUnsubscribe(subscriber);
  std::printf("done: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
