// SPDX-License-Identifier: Apache-2.0
// The launch recorder's records of module loads: the kernels of each image the driver loads, which module
// handle each became, and the code of the launched functions.
#include <cuda.h>

#include <algorithm>
#include <exception>
#include <string>

#include "counterguard/cupti/launch_callbacks.hpp"
#include "counterguard/statics/module_image_resources.hpp"
#include "detail/driver_entry_points.hpp"
#include "detail/launch_recorder.hpp"
#include "detail/launch_thread_state.hpp"

namespace counterguard::detail {

void launch_recorder::module_loaded(std::uint32_t module_id, const std::uint8_t* image, std::size_t size) {
  module_image_kernels read;
  try {
    // A fat binary holds a cubin per architecture: the one the driver runs is the device's.
    read = read_module_image_resources(image, size, m_architecture, "module " + std::to_string(module_id));
  } catch (const std::exception& e) {
    // A module we cannot read leaves its kernels with what the driver states of them.
    read.note = std::string("an image counterguard could not read: ") + e.what();
  }
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_modules.loaded(module_id, read.kernels, read.note);
  for (auto& kernel : read.kernels) {
    std::string mangled = kernel.mangled;
    m_module_kernels.insert_or_assign(std::move(mangled), std::move(kernel));
  }
}

void launch_recorder::module_load_returned(CUpti_CallbackId id, const CUpti_CallbackData& data) {
  if (t_loaded.empty() || data.functionParams == nullptr || data.functionReturnValue == nullptr ||
      *static_cast<const CUresult*>(data.functionReturnValue) != CUDA_SUCCESS) {
    return;
  }
  CUmodule module = nullptr;
  if (loads_library(id)) {
    const CUlibrary library = *static_cast<const library_load_params*>(data.functionParams)->library;
    // Under lazy loading the library has no module in this context yet: its module loads at its first use.
    if (library == nullptr || driver().library_get_module == nullptr ||
        driver().library_get_module(&module, library) != CUDA_SUCCESS)
      return;
  } else {
    module = *static_cast<const module_load_params*>(data.functionParams)->module;
  }
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_modules.bind(reinterpret_cast<std::uintptr_t>(module), t_loaded);
}

std::vector<kernel_resources> launch_recorder::loaded_resources(
    const std::vector<profiled_launch>& launches) {
  const std::lock_guard<std::mutex> lock(m_mutex);
  std::vector<kernel_resources> resources;
  for (const auto& launch : launches) {
    if (!launch.code.empty()) {
      const auto code = std::find_if(m_codes.begin(), m_codes.end(), [&](const kernel_resources& r) {
        return r.module == launch.code && r.mangled == launch.mangled;
      });
      const bool listed = std::any_of(resources.begin(), resources.end(), [&](const kernel_resources& r) {
        return r.module == launch.code && r.mangled == launch.mangled;
      });
      if (code != m_codes.end() && !listed)
        resources.push_back(*code);
      continue;
    }
    const auto found = m_module_kernels.find(launch.mangled);
    const bool listed = std::any_of(resources.begin(), resources.end(),
                                    [&](const kernel_resources& r) { return r.mangled == launch.mangled; });
    if (found != m_module_kernels.end() && !listed)
      resources.push_back(found->second);
  }
  return resources;
}

}  // namespace counterguard::detail
