// SPDX-License-Identifier: Apache-2.0
// The injection session's view of the program's modules: each loaded image read for its kernels' resources,
// and the code each profiled launch ran identified by its function's own module.
#include <algorithm>
#include <string>

#include "counterguard/statics/module_image_resources.hpp"
#include "injection_session.hpp"
#include "injection_trace.hpp"

namespace counterguard::injection {

bool injection_session::attach_module_resources() {
  bool attached = false;
  for (auto& kernel : m_record.kernels) {
    if (kernel.resources)
      continue;
    const auto found = m_module_kernels.find(kernel.mangled);
    if (found != m_module_kernels.end()) {
      kernel.resources = found->second;
      attached = true;
    }
  }
  return attached;
}

bool injection_session::identify_code(const pending_launch& pending, const profiled_launch& attributes,
                                      const std::vector<std::uint32_t>& loaded_during_call,
                                      std::string& key) {
  const CUfunction function = launched_function(pending.launch);
  CUmodule module = nullptr;
  if (function == nullptr || cuFuncGetModule(&module, function) != CUDA_SUCCESS)
    return false;
  const driver_function_attributes driver{attributes.registers_per_thread, attributes.local_bytes_per_thread,
                                          attributes.static_shared_bytes, attributes.constant_bytes};
  kernel_resources code = m_modules.function_code(reinterpret_cast<std::uintptr_t>(module), pending.mangled,
                                                  pending.function, driver, loaded_during_call);
  key = code.module;
  const bool known = std::any_of(
      m_record.functions.begin(), m_record.functions.end(),
      [&](const kernel_resources& r) { return r.module == code.module && r.mangled == code.mangled; });
  if (!known) {
    m_record.functions.push_back(std::move(code));
    m_record_dirty = true;
  }
  return true;
}

void injection_session::module_unloading(std::uint32_t module_id) {
  const std::lock_guard<std::mutex> lock(m_state);
  m_modules.unloading(module_id);
}

void injection_session::module_load_returned(CUpti_CallbackId id, const CUpti_CallbackData& data,
                                             const std::vector<std::uint32_t>& loaded) {
  if (loaded.empty())
    return;
  const CUmodule module = returned_module(id, data);
  const std::lock_guard<std::mutex> lock(m_state);
  m_modules.bind(reinterpret_cast<std::uintptr_t>(module), loaded);
}

void injection_session::module_loaded(CUcontext context, std::uint32_t module_id, const std::uint8_t* image,
                                      std::size_t size) {
  // A fat binary holds a cubin per architecture: the one the driver runs is the device's.
  int architecture = 0;
  CUdevice device = 0;
  CUcontext current = nullptr;
  if (cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == context &&
      cuCtxGetDevice(&device) == CUDA_SUCCESS) {
    int major = 0;
    int minor = 0;
    if (cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) == CUDA_SUCCESS &&
        cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device) == CUDA_SUCCESS)
      architecture = major * 10 + minor;
  }
  module_image_kernels read;
  try {
    read = read_module_image_resources(image, size, architecture, "module " + std::to_string(module_id));
  } catch (const std::exception& e) {
    trace(std::string("module ") + std::to_string(module_id) + " not read: " + e.what());
    const std::lock_guard<std::mutex> lock(m_state);
    m_modules.loaded(module_id, {}, std::string("an image counterguard could not read: ") + e.what());
    return;
  }
  trace("module " + std::to_string(module_id) + " loaded (" + to_string(read.form) + ", " +
        std::to_string(size) + " bytes): " + std::to_string(read.kernels.size()) + " kernels" +
        (read.note.empty() ? "" : "; " + read.note));
  const std::lock_guard<std::mutex> lock(m_state);
  m_modules.loaded(module_id, read.kernels, read.note);
  if (m_blame)
    m_blame->module_loaded(image, size, architecture, read.kernels);
  for (auto& kernel : read.kernels) {
    std::string mangled = kernel.mangled;
    m_module_kernels.insert_or_assign(std::move(mangled), std::move(kernel));
  }
  if (attach_module_resources())
    save_record();  // a kernel launched before its module loaded (lazy loading loads it inside the launch)
}

}  // namespace counterguard::injection
