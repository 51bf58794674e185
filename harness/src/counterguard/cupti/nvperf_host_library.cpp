// SPDX-License-Identifier: Apache-2.0
#include "counterguard/cupti/nvperf_host_library.hpp"

#include <cupti.h>
#include <dlfcn.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "counterguard/core/error.hpp"

namespace counterguard::detail {
namespace {

constexpr const char* library_name = "libnvperf_host.so";

// Where libcupti is, from one of its functions: CUDA installs libnvperf_host beside it.
std::string beside_libcupti() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cuptiGetVersion), &info) == 0 || info.dli_fname == nullptr)
    return {};
  const std::string cupti = info.dli_fname;
  const std::size_t slash = cupti.rfind('/');
  return slash == std::string::npos ? std::string() : cupti.substr(0, slash + 1) + library_name;
}

void* open_library(std::string& tried) {
  std::vector<std::string> candidates;
  if (std::string beside = beside_libcupti(); !beside.empty())
    candidates.push_back(std::move(beside));
  candidates.emplace_back(library_name);
#ifdef COUNTERGUARD_NVPERF_HOST_LIBRARY
  candidates.emplace_back(COUNTERGUARD_NVPERF_HOST_LIBRARY);
#endif
  for (const auto& candidate : candidates) {
    if (void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL))
      return handle;
    const char* why = dlerror();
    tried += "\n  " + candidate + ": " + (why != nullptr ? why : "not loaded");
  }
  return nullptr;
}

template <typename Function>
void resolve(void* handle, const char* name, Function& function) {
  function = reinterpret_cast<Function>(dlsym(handle, name));
  if (function == nullptr) {
    throw error(exit_code::environment, std::string(library_name) + " has no " + name +
                                            ": a CUDA toolkit whose CUPTI is older than counterguard's?");
  }
}

nvperf_host_functions load() {
  std::string tried;
  void* handle = open_library(tried);
  if (handle == nullptr) {
    throw error(exit_code::environment,
                std::string("cannot load ") + library_name +
                    " (NVIDIA Perfworks, part of CUPTI in the CUDA toolkit), needed to read counters:" +
                    tried + "\nset LD_LIBRARY_PATH to the CUDA toolkit's lib64 (or extras/CUPTI/lib64)");
  }
  nvperf_host_functions f{};
  resolve(handle, "NVPW_InitializeHost", f.initialize_host);
  resolve(handle, "NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize", f.evaluator_scratch_size);
  resolve(handle, "NVPW_CUDA_MetricsEvaluator_Initialize", f.evaluator_initialize);
  resolve(handle, "NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest", f.evaluator_request);
  resolve(handle, "NVPW_MetricsEvaluator_GetMetricRawDependencies", f.evaluator_raw_dependencies);
  resolve(handle, "NVPW_MetricsEvaluator_Destroy", f.evaluator_destroy);
  resolve(handle, "NVPW_CUDA_CounterDataBuilder_Create", f.builder_create);
  resolve(handle, "NVPW_CounterDataBuilder_AddMetrics", f.builder_add_metrics);
  resolve(handle, "NVPW_CounterDataBuilder_GetCounterDataPrefix", f.builder_prefix);
  resolve(handle, "NVPW_CounterDataBuilder_Destroy", f.builder_destroy);
  return f;  // the library stays loaded for the life of the process
}

}  // namespace

const nvperf_host_functions& nvperf_host() {
  // A failed load is not cached: the error reaches every caller, as it would have reached the first. Never
  // destroyed: the loading thread may still hold the lock while the process exits.
  static auto* const mutex = new std::mutex;
  static auto* const functions = new nvperf_host_functions{};
  static bool loaded = false;
  const std::lock_guard<std::mutex> lock(*mutex);
  if (!loaded) {
    *functions = load();
    loaded = true;
  }
  return *functions;
}

void load_nvperf_host_in_background() {
  static std::once_flag started;
  std::call_once(started, [] {
    std::thread([] {
      try {
        static_cast<void>(nvperf_host());
      } catch (const std::exception&) {
        // Reported where the library is needed, by the thread that needs it.
      }
    }).detach();
  });
}

}  // namespace counterguard::detail
