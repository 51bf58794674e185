// SPDX-License-Identifier: Apache-2.0
// `counterguard launch`: runs the cases' kernels once each, verified, without CUPTI, so external tools
// (ncu for cross-checks, nsys, compute-sanitizer) can watch them. Each case runs in an NVTX range.
#include "counterguard/pipeline/kernel_launches.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstdio>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/core/cuda_stream.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/nvtx_range.hpp"
#include "counterguard/registry/host_memory_reuse.hpp"
#include "counterguard/registry/kernel_registry.hpp"

namespace counterguard {

int launch_cases(const selection_options& selection) {
  reuse_host_memory();  // as `run` workers do: the host work of the cases costs the same in both
  const std::vector<case_instance> instances = select_instances(selection);
  int device_count = 0;
  if (cudaGetDeviceCount(&device_count) != cudaSuccess || device_count == 0) {
    throw environment_error(environment_problem::no_gpu,
                            "no CUDA device: `launch` runs kernels and needs a GPU");
  }
  cudaDeviceProp properties{};
  COUNTERGUARD_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
  const int capability = properties.major * 10 + properties.minor;
  const cuda_stream stream;
  int wrong = 0;
  for (const auto& instance : instances) {
    const kernel_definition& definition = *kernel_registry::global().find(instance.kernel);
    if (instance.skip_reason || definition.required_compute_capability() > capability) {
      std::fputs(fmt::format("skipped {}\n", instance.name).c_str(), stdout);
      continue;
    }
    // A case that cannot run is reported and the next one goes on, as in `run`.
    try {
      const auto run = definition.create(kernel_arguments(instance.parameters, instance.launch));
      COUNTERGUARD_CUDA_CHECK(cudaDeviceSynchronize());
      {
        const nvtx_range marked(instance.name);
        run->launch(stream.get());
      }
      COUNTERGUARD_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      const verification verdict = run->verify();
      wrong += verdict.passed ? 0 : 1;
      std::fputs(fmt::format("{} {}{}{}\n", verdict.passed ? "ok" : "WRONG", instance.name,
                             verdict.passed ? "" : ": ", verdict.message)
                     .c_str(),
                 stdout);
    } catch (const std::exception& e) {
      ++wrong;
      std::fputs(fmt::format("ERROR {}: {}\n", instance.name, e.what()).c_str(), stdout);
    }
    std::fflush(stdout);
  }
  return wrong == 0 ? 0 : static_cast<int>(exit_code::check_failed);
}

}  // namespace counterguard
