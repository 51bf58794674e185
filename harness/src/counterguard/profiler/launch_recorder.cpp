// SPDX-License-Identifier: Apache-2.0
// The launch recorder's CUPTI subscription (the process's single subscriber), arming, and the callback that
// dispatches each launch, module-load and module-resource callback to its record.
#include "detail/launch_recorder.hpp"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <utility>

#include "counterguard/core/error.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/launch_callbacks.hpp"
#include "detail/driver_entry_points.hpp"
#include "detail/launch_geometry.hpp"
#include "detail/launch_thread_state.hpp"

namespace counterguard::detail {

// This thread's launch and module loads (detail/launch_thread_state.hpp).
thread_local std::vector<std::uint32_t> t_loaded;
thread_local thread_launch t_launch;

launch_recorder::launch_recorder(int max_threads_per_sm, int architecture)
    : m_max_threads_per_sm(max_threads_per_sm), m_architecture(architecture) {
  static_cast<void>(driver());  // the driver's entry points, before any callback needs them
  COUNTERGUARD_CUPTI_CHECK(cuptiSubscribe(&m_subscriber, &launch_recorder::on_callback, this));
  auto enable = [&](CUpti_CallbackDomain domain, CUpti_CallbackId id, const char* what) {
    const CUptiResult status = cuptiEnableCallback(1, m_subscriber, domain, id);
    if (status != CUPTI_SUCCESS) {
      COUNTERGUARD_CUPTI_NOTHROW(cuptiUnsubscribe(m_subscriber));
      throw_cupti_error(status, what);
    }
  };
  for (const CUpti_CallbackId id : runtime_launch_callback_ids)
    enable(CUPTI_CB_DOMAIN_RUNTIME_API, id, "cuptiEnableCallback(CUPTI_CB_DOMAIN_RUNTIME_API, launch)");
  for (const CUpti_CallbackId id : driver_launch_callback_ids)
    enable(CUPTI_CB_DOMAIN_DRIVER_API, id, "cuptiEnableCallback(CUPTI_CB_DOMAIN_DRIVER_API, launch)");
  enable(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED,
         "cuptiEnableCallback(CUPTI_CB_DOMAIN_RESOURCE, module loaded)");
  enable(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING,
         "cuptiEnableCallback(CUPTI_CB_DOMAIN_RESOURCE, module unload)");
  for (const CUpti_CallbackId id : module_load_callback_ids)
    enable(CUPTI_CB_DOMAIN_DRIVER_API, id, "cuptiEnableCallback(CUPTI_CB_DOMAIN_DRIVER_API, module load)");
}

launch_recorder::~launch_recorder() {
  COUNTERGUARD_CUPTI_NOTHROW(cuptiUnsubscribe(m_subscriber));
}

void launch_recorder::arm() {
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_launches.clear();
  m_codes.clear();
  m_attributes_known = true;
  m_armed = true;
  ++m_arming;
}

std::vector<profiled_launch> launch_recorder::disarm() {
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_armed = false;
  return std::move(m_launches);
}

void CUPTIAPI launch_recorder::on_callback(void* user_data, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                           const void* data) {
  auto* recorder = static_cast<launch_recorder*>(user_data);
  if (domain == CUPTI_CB_DOMAIN_RESOURCE && data != nullptr) {
    const auto& resource = *static_cast<const CUpti_ResourceData*>(data);
    const auto* module = static_cast<const CUpti_ModuleResourceData*>(resource.resourceDescriptor);
    try {
      if (module != nullptr && id == CUPTI_CBID_RESOURCE_MODULE_LOADED) {
        t_loaded.push_back(module->moduleId);
        recorder->module_loaded(module->moduleId, reinterpret_cast<const std::uint8_t*>(module->pCubin),
                                module->cubinSize);
      } else if (module != nullptr && id == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
        const std::lock_guard<std::mutex> lock(recorder->m_mutex);
        recorder->m_modules.unloading(module->moduleId);
      }
    } catch (...) {
    }
    return;
  }
  if ((domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) || data == nullptr)
    return;
  const auto& callback = *static_cast<const CUpti_CallbackData*>(data);
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API && is_module_load_callback(id)) {
    try {
      if (callback.callbackSite == CUPTI_API_ENTER) {
        if (t_launch.depth == 0)
          t_loaded.clear();
      } else {
        recorder->module_load_returned(id, callback);
        t_loaded.clear();
      }
    } catch (...) {
    }
    return;
  }
  // Never let an exception cross CUPTI's C frames.
  try {
    if (callback.callbackSite == CUPTI_API_EXIT) {
      if (t_launch.depth == 0)
        return;
      if (--t_launch.depth == 0 && t_launch.claimed)
        recorder->exited();
      return;
    }
    if (++t_launch.depth == 1) {
      t_launch.claimed = false;
      t_loaded.clear();
      recorder->entered(domain, id, callback);
    } else if (t_launch.claimed && domain == CUPTI_CB_DOMAIN_DRIVER_API &&
               t_launch.geometry.function == nullptr && callback.functionParams != nullptr) {
      // The driver launch under a runtime launch: its function describes kernels of any runtime.
      launch_geometry nested;
      if (read_geometry(domain, id, callback.functionParams, &nested))
        t_launch.geometry.function = nested.function;
    }
  } catch (...) {
  }
}

}  // namespace counterguard::detail
