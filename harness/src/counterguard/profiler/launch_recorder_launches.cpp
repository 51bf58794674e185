// SPDX-License-Identifier: Apache-2.0
// The launch recorder's record of one launch: its symbol and geometry at the call's entry, its attributes,
// occupancy and code when the call returns.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_activity.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <string>

#include "counterguard/core/symbol_names.hpp"
#include "counterguard/cupti/cluster_occupancy.hpp"
#include "detail/driver_entry_points.hpp"
#include "detail/launch_attributes.hpp"
#include "detail/launch_geometry.hpp"
#include "detail/launch_recorder.hpp"
#include "detail/launch_thread_state.hpp"

namespace counterguard::detail {

void launch_recorder::entered(CUpti_CallbackDomain domain, CUpti_CallbackId id,
                              const CUpti_CallbackData& data) {
  launch_geometry geometry;
  if (data.functionParams == nullptr || !read_geometry(domain, id, data.functionParams, &geometry))
    return;
  {
    const std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_armed)
      return;
  }
  profiled_launch launch;
  const char* symbol = data.symbolName;  // valid at API entry for launch callbacks (checked on the H200)
  if (symbol == nullptr && geometry.func != nullptr &&
      cudaFuncGetName(&symbol, geometry.func) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    symbol = nullptr;
  }
  if (symbol == nullptr && geometry.function != nullptr && driver().func_get_name != nullptr &&
      driver().func_get_name(&symbol, geometry.function) != CUDA_SUCCESS) {
    symbol = nullptr;
  }
  launch.mangled = symbol != nullptr ? symbol : "";
  launch.function = strip_signature(demangle(launch.mangled));
  launch.grid = {geometry.grid.x, geometry.grid.y, geometry.grid.z};
  launch.block = {geometry.block.x, geometry.block.y, geometry.block.z};
  launch.cluster = geometry.cluster;
  launch.dynamic_shared_bytes = geometry.dynamic_shared_bytes;
  // ncu's launch__context_id and launch__stream_id: CUPTI's ids, as ncu shows them.
  if (data.contextUid != 0)
    launch.context_id = data.contextUid;
  std::uint32_t stream_id = 0;
  if (cuptiGetStreamIdEx(data.context, geometry.stream, geometry.per_thread_stream ? 1 : 0, &stream_id) ==
      CUPTI_SUCCESS)
    launch.stream_id = stream_id;

  const std::lock_guard<std::mutex> lock(m_mutex);
  if (!m_armed)
    return;
  launch.range_index = static_cast<int>(m_launches.size());
  launch.range_name = std::to_string(launch.range_index);  // replaced by the image's name after decoding
  t_launch.claimed = true;
  t_launch.arming = m_arming;
  t_launch.index = m_launches.size();
  t_launch.geometry = geometry;
  m_launches.push_back(std::move(launch));
}

void launch_recorder::exited() {
  // Read when the call returns, so a driver launch under a runtime launch has named its function. Queries
  // made here fire no launch callback. Not verified on a GPU for driver launches.
  const launch_geometry& geometry = t_launch.geometry;
  const unsigned threads = geometry.block.x * geometry.block.y * geometry.block.z;
  launch_attributes attributes;
  bool known = geometry.func != nullptr &&
               runtime_attributes(geometry.func, threads, geometry.dynamic_shared_bytes, attributes);
  if (!known) {
    // A driver launch, or a runtime launch through another runtime's host stub (PyTorch's own libcudart):
    // the driver knows the function whichever runtime loaded it.
    const auto kernel = geometry.func_is_handle ? reinterpret_cast<CUkernel>(const_cast<void*>(geometry.func))
                                                : reinterpret_cast<CUkernel>(geometry.function);
    attributes = launch_attributes{};
    known = driver_attributes(geometry.function, kernel, threads, geometry.dynamic_shared_bytes, attributes);
  }
  t_launch.claimed = false;
  if (known && attributes.function == nullptr) {
    // Attributes through the runtime: the function the driver ran, for which module it came from.
    const auto kernel = geometry.func_is_handle ? reinterpret_cast<CUkernel>(const_cast<void*>(geometry.func))
                                                : reinterpret_cast<CUkernel>(geometry.function);
    attributes.function = geometry.function;
    CUfunction loaded = nullptr;
    if (kernel != nullptr && driver().kernel_get_function != nullptr &&
        driver().kernel_get_function(&loaded, kernel) == CUDA_SUCCESS && loaded != nullptr)
      attributes.function = loaded;
  }
  CUmodule module = nullptr;
  const bool module_known = known && attributes.function != nullptr && driver().func_get_module != nullptr &&
                            driver().func_get_module(&module, attributes.function) == CUDA_SUCCESS;
  const std::vector<std::uint32_t> loaded_during_call = std::move(t_loaded);
  t_loaded.clear();
  std::shared_ptr<const std::map<std::string, double>> device_attributes;
  {
    const std::lock_guard<std::mutex> lock(m_mutex);
    device_attributes = m_device_attributes;
  }
  if (known && !device_attributes)
    device_attributes = current_device_attributes();  // once: one recorder per device

  const std::lock_guard<std::mutex> lock(m_mutex);
  if (!m_armed || t_launch.arming != m_arming || t_launch.index >= m_launches.size()) {
    if (module_known && !loaded_during_call.empty())  // a lazily loaded module: which handle it became
      m_modules.bind(reinterpret_cast<std::uintptr_t>(module), loaded_during_call);
    return;
  }
  if (!known) {
    m_attributes_known = false;
    return;
  }
  profiled_launch& launch = m_launches[t_launch.index];
  if (!m_device_attributes)
    m_device_attributes = device_attributes;
  launch.device_attributes = m_device_attributes;
  launch.blocks_per_sm = attributes.blocks_per_sm;
  if (module_known) {
    const driver_function_attributes stated{attributes.registers, attributes.local_bytes,
                                            attributes.static_shared_bytes, attributes.constant_bytes};
    kernel_resources code = m_modules.function_code(reinterpret_cast<std::uintptr_t>(module), launch.mangled,
                                                    launch.function, stated, loaded_during_call);
    launch.code = code.module;
    const bool listed = std::any_of(m_codes.begin(), m_codes.end(), [&](const kernel_resources& r) {
      return r.module == code.module && r.mangled == code.mangled;
    });
    if (!listed)
      m_codes.push_back(std::move(code));
  }
  launch.preferred_carveout_pct =
      geometry.launch_carveout_pct >= 0
          ? std::optional<int>(geometry.launch_carveout_pct)  // the launch's first
          : attributes.preferred_carveout_pct;
  std::size_t limit = 0;
  if (driver().ctx_get_limit != nullptr &&
      driver().ctx_get_limit(&limit, CU_LIMIT_STACK_SIZE) == CUDA_SUCCESS)
    launch.stack_size_bytes = limit;
  if (driver().ctx_get_limit != nullptr &&
      driver().ctx_get_limit(&limit, CU_LIMIT_PERSISTING_L2_CACHE_SIZE) == CUDA_SUCCESS)
    launch.persisting_l2_bytes = limit;
  launch.registers_per_thread = attributes.registers;
  launch.local_bytes_per_thread = attributes.local_bytes;
  launch.static_shared_bytes = attributes.static_shared_bytes;
  launch.constant_bytes = attributes.constant_bytes;
  if (launch.cluster == std::array<unsigned, 3>{0, 0, 0})
    launch.cluster = attributes.required_cluster;
  if (const auto clusters = ask_cluster_occupancy(
          driver().occupancy_max_active_clusters, driver().occupancy_max_potential_cluster_size,
          attributes.function, launch.grid, launch.block, launch.dynamic_shared_bytes, launch.cluster)) {
    launch.max_active_clusters = clusters->max_active_clusters;
    launch.max_potential_cluster_size = clusters->max_potential_cluster_size;
  }
  if (m_max_threads_per_sm >= 32) {
    // Whole warps: a partial warp occupies a full warp slot.
    const double warps_per_block =
        static_cast<double>((threads + 31) / 32);  // NOLINT(bugprone-integer-division)
    const double max_warps_per_sm =
        static_cast<double>(m_max_threads_per_sm / 32);  // NOLINT(bugprone-integer-division)
    launch.theoretical_occupancy_pct = attributes.blocks_per_sm * warps_per_block / max_warps_per_sm * 100.0;
  }
}

}  // namespace counterguard::detail
