// SPDX-License-Identifier: Apache-2.0
#include "counterguard/cupti/cupti_check.hpp"

#include <string>

#include "counterguard/core/error.hpp"

namespace counterguard::detail {
namespace {

std::string cupti_message(CUptiResult status) {
  const char* text = nullptr;
  if (cuptiGetErrorMessage(status, &text) == CUPTI_SUCCESS && text != nullptr && *text != '\0')
    return text;
  return "no description";
}

// "cuptiProfilerInitialize(&params)" -> "cuptiProfilerInitialize": the API's name is what a user can look up.
std::string call_name(const char* call) {
  const std::string text(call);
  const auto parenthesis = text.find('(');
  return parenthesis == std::string::npos ? text : text.substr(0, parenthesis);
}

}  // namespace

const char* cupti_result_name(CUptiResult status) {
  const char* name = nullptr;
  if (cuptiGetResultString(status, &name) == CUPTI_SUCCESS && name != nullptr)
    return name;
  return "CUPTI_ERROR_(unknown)";
}

void throw_no_gpu(const char* detail) {
  throw environment_error(
      environment_problem::no_gpu,
      std::string("no CUDA GPU is available (") + detail +
          "); run on a machine with an NVIDIA GPU and driver, check CUDA_VISIBLE_DEVICES and "
          "nvidia-smi, or use the commands that need no GPU (static, evaluate, metrics)");
}

void throw_cupti_error(CUptiResult status, const char* call) {
  const std::string where = call_name(call) + ": " + cupti_result_name(status) + ": " + cupti_message(status);
  switch (status) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
      throw environment_error(
          environment_problem::insufficient_privileges,
          where +
              "; this user may not read GPU performance counters: run as root, give the "
              "process CAP_SYS_ADMIN, or set 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' "
              "in a file under /etc/modprobe.d and reload the nvidia driver (or reboot)");
    case CUPTI_ERROR_HARDWARE_BUSY:
      throw environment_error(
          environment_problem::profiler_busy,
          where +
              "; another process (ncu, nsys, DCGM profiling, another counterguard) holds this "
              "GPU's performance counters: stop it (for DCGM: 'dcgmi profile --pause') and retry");
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      throw environment_error(
          environment_problem::under_external_profiler,
          where +
              "; a profiler or debugger (ncu, nsys, cuda-gdb, compute-sanitizer) is attached to "
              "this process: counterguard profiles itself, run it without ncu/nsys");
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      throw environment_error(environment_problem::unsupported_device,
                              where +
                                  "; this vGPU does not allow profiling: ask the hypervisor administrator to "
                                  "enable profiling for the VM (vGPU 'enable_profiling' setting)");
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
      throw environment_error(
          environment_problem::unsupported_device,
          where +
              "; this GPU or its configuration cannot be profiled with the CUPTI range "
              "profiler (needs compute capability 7.5+, no vGPU without profiling enabled, "
              "no confidential computing, no CMP, no SLI)");
    default:
      throw api_error(where +
                          "; unexpected from CUPTI: check that the driver supports this CUDA version "
                          "(nvidia-smi) and report it with the command line and this message",
                      static_cast<int>(status));
  }
}

}  // namespace counterguard::detail
