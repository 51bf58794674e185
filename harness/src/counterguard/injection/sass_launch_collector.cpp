// SPDX-License-Identifier: Apache-2.0
#include "sass_launch_collector.hpp"

#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "context_profiler.hpp"
#include "counterguard/blame/sass_profile.hpp"
#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/model/launch_context.hpp"
#include "counterguard/profiler/sass_metric_names.hpp"
#include "counterguard/statics/module_image_resources.hpp"
#include "driver_check.hpp"
#include "injection_trace.hpp"

namespace counterguard::injection {
namespace {

using detail::cupti_params;

// CUPTI's CRC of a cubin: what its SASS metrics records name the cubin by. 0 when CUPTI cannot say.
std::uint32_t cubin_crc(const std::uint8_t* data, std::size_t size) {
  CUpti_GetCubinCrcParams params{};
  params.size = CUpti_GetCubinCrcParamsSize;
  params.cubinSize = size;
  params.cubin = data;
  if (cuptiGetCubinCrc(&params) != CUPTI_SUCCESS)
    return 0;
  return static_cast<std::uint32_t>(params.cubinCrc);
}

int device_attribute(CUdevice_attribute which, CUdevice device) {
  int value = 0;
  check_driver(cuDeviceGetAttribute(&value, which, device), "cuDeviceGetAttribute");
  return value;
}

// The device of the current context as a profile names it, once CUPTI says it can collect SASS metrics.
device_description sass_device(CUdevice device) {
  auto supported =
      cupti_params<CUpti_Profiler_DeviceSupported_Params>(CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
  supported.cuDevice = device;
  supported.api = CUPTI_PROFILER_SASS_METRICS;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerDeviceSupported(&supported));
  if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
    throw environment_error(environment_problem::unsupported_device,
                            "device " + std::to_string(device) +
                                " cannot collect CUPTI SASS metrics (cuptiProfilerDeviceSupported says no); "
                                "blame needs compute capability 7.0+");
  }
  auto chip = cupti_params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(device);
  COUNTERGUARD_CUPTI_CHECK(cuptiDeviceGetChipName(&chip));
  device_description out;
  char name[256] = {};
  check_driver(cuDeviceGetName(name, sizeof(name) - 1, device), "cuDeviceGetName");
  out.name = name;
  out.chip = chip.pChipName != nullptr ? chip.pChipName : "";
  out.sm_count = device_attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
  out.compute_capability = device_attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) * 10 +
                           device_attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  return out;
}

void write_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  write_file_atomically(path.string(), std::string(bytes.begin(), bytes.end()));
}

}  // namespace

sass_launch_collector::sass_launch_collector(exec_blame_request request, std::vector<exec_case_request> cases)
    : m_request(std::move(request)), m_cases(std::move(cases)) {}

sass_launch_collector::~sass_launch_collector() = default;

void sass_launch_collector::module_loaded(const std::uint8_t* image, std::size_t size, int architecture,
                                          const std::vector<kernel_resources>& kernels) {
  const bool wanted = std::any_of(kernels.begin(), kernels.end(), [&](const kernel_resources& kernel) {
    const kernel_names names = names_of_kernel(kernel.mangled);
    return std::any_of(m_cases.begin(), m_cases.end(),
                       [&](const exec_case_request& c) { return c.selector.matches_kernel(names); });
  });
  if (!wanted)
    return;
  std::optional<std::vector<std::uint8_t>> cubin = module_image_cubin(image, size, architecture, "module");
  if (!cubin)
    return;
  auto kept = std::make_shared<const std::vector<std::uint8_t>>(std::move(*cubin));
  // The records may name the image as handed over or the cubin in it: both CRCs find the cubin.
  for (const std::uint32_t crc : {cubin_crc(image, size), cubin_crc(kept->data(), kept->size())}) {
    if (crc != 0)
      m_cubins[crc] = kept;
  }
  trace("blame: kept the cubin of a module (" + std::to_string(kept->size()) + " bytes, CRC " +
        std::to_string(cubin_crc(kept->data(), kept->size())) + ", image CRC " +
        std::to_string(cubin_crc(image, size)) + ")");
}

void sass_launch_collector::begin(CUcontext context) {
  if (m_used)
    throw internal_error("a second blamed launch in one process");
  m_used = true;  // CUPTI takes one SASS configuration per process, whatever happens below
  CUdevice device = 0;
  check_driver(cuCtxGetDevice(&device), "cuCtxGetDevice");
  initialize_profiler_api();
  m_device = sass_device(device);
  std::FILE* trace_to = tracing() ? stderr : nullptr;
  std::vector<std::string> available;
  for (const auto& metric : list_sass_metrics(m_device.chip, trace_to))
    available.push_back(metric.name);
  std::vector<sass_metric_choice> metrics = choose_sass_metrics(m_request.metrics, available, m_device.chip);
  m_context = context;
  m_session = std::make_unique<sass_metrics_session>(context, static_cast<std::uint32_t>(device),
                                                     m_device.chip, std::move(metrics), trace_to);
}

void sass_launch_collector::end(const std::filesystem::path& folder, int index,
                                const std::string& case_name) {
  if (!m_session)
    throw internal_error("sass_launch_collector::end without begin");
  const CUresult synchronized = cuCtxSynchronize();
  if (synchronized != CUDA_SUCCESS) {
    abandon();
    check_driver(synchronized, "cuCtxSynchronize");
  }
  const sass_metrics_capture capture = m_session->finish();
  m_session.reset();
  if (capture.records.empty())
    throw api_error("CUPTI SASS metrics reported no instruction of the launch", 0);
  const std::uint32_t crc = capture.records.front().cubin_crc;
  std::shared_ptr<const std::vector<std::uint8_t>> cubin;
  if (const auto found = m_cubins.find(crc); found != m_cubins.end()) {
    cubin = found->second;
  } else {
    // CUPTI computed the records' CRC over other bytes than it hands the callback: the one kept cubin whose
    // symbol names hold the function's.
    const std::string& function = capture.records.front().function;
    for (const auto& [kept_crc, bytes] : m_cubins) {
      const bool holds =
          std::search(bytes->begin(), bytes->end(), function.begin(), function.end()) != bytes->end();
      if (holds && cubin != nullptr && cubin != bytes) {
        cubin = nullptr;
        break;
      }
      if (holds)
        cubin = bytes;
    }
    trace("blame: no kept cubin has CRC " + std::to_string(crc) +
          (cubin ? "; the one holding the function's name is taken" : ""));
  }
  if (cubin == nullptr) {
    throw api_error("the launched function's cubin (CRC " + std::to_string(crc) +
                        ") was not seen loading: its module was loaded before counterguard watched the "
                        "process, or as PTX the driver compiled",
                    0);
  }
  const std::filesystem::path cubin_path = blamed_launch_cubin_path(folder, index);
  write_bytes(cubin_path, *cubin);
  const sass_profile profile =
      make_sass_profile(capture, m_device, case_name, cubin_path.filename().string());
  write_sass_profile(blamed_launch_profile_path(folder, index).string(), profile);
  trace("blame: wrote blamed launch " + std::to_string(index) + " of " + case_name + " (" +
        std::to_string(capture.records.size()) + " instructions)");
}

void sass_launch_collector::abandon() noexcept {
  m_session.reset();  // disables and unsets
}

}  // namespace counterguard::injection
