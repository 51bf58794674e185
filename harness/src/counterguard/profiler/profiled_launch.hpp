// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace counterguard {

// A kernel launch seen by the profiler's launch callback, in launch order (= auto-range index).
struct profiled_launch {
  int range_index = 0;
  std::string range_name;  // CUPTI's auto-range name ("0", "1", ...)
  std::string mangled;     // the kernel's symbol
  std::string function;    // demangled, without the parameter list
  std::array<unsigned, 3> grid{1, 1, 1};
  std::array<unsigned, 3> block{1, 1, 1};
  std::array<unsigned, 3> cluster{0, 0, 0};  // zero when launched without clusters
  std::size_t dynamic_shared_bytes = 0;
  // From cudaFuncGetAttributes / the occupancy calculator on the device (the "launch" metric source).
  int registers_per_thread = 0;
  std::size_t local_bytes_per_thread = 0;
  std::size_t static_shared_bytes = 0;
  std::size_t constant_bytes = 0;
  double theoretical_occupancy_pct = 0.0;
  int blocks_per_sm = 0;  // the occupancy calculator's; 0 in recordings made before it was kept
  // The device's attributes by ncu's names (metrics/ncu_launch_metrics.hpp), shared by the launches of a
  // device: what ncu's device__attribute_ metrics and the device-dependent launch__ ones read. Null in
  // recordings made before they were kept.
  std::shared_ptr<const std::map<std::string, double>> device_attributes;
  // The launched function's code: the key (kernel_resources::module, with `mangled`) of the resources of this
  // very function, read from its own module or stated by the driver. Empty where the function could not be
  // identified (and in recordings made before it was kept): its static metrics are then found by name.
  std::string code;
  // What ncu's launch__stream_id, _context_id, _stack_size, _persisting_l2_cache_size and the shared-memory
  // configuration read, taken at the launch. Empty in recordings made before they were kept: those metrics
  // are then not measured.
  std::optional<std::uint32_t> stream_id;   // CUPTI's id of the launch's stream (cuptiGetStreamIdEx)
  std::optional<std::uint32_t> context_id;  // CUPTI's id of the launch's context (the callback's contextUid)
  // The preferred shared-memory carve-out in percent (the launch's attribute, else the function's); -1: none.
  std::optional<int> preferred_carveout_pct;
  std::optional<std::uint64_t> stack_size_bytes;     // the context's CU_LIMIT_STACK_SIZE
  std::optional<std::uint64_t> persisting_l2_bytes;  // the context's CU_LIMIT_PERSISTING_L2_CACHE_SIZE
  // The driver's cluster occupancy calculator at the launch (ncu's launch__cluster_max_active and
  // _max_potential_size); 0 for a launch without clusters. Empty in recordings made before they were kept.
  std::optional<int> max_active_clusters;
  std::optional<int> max_potential_cluster_size;
};

}  // namespace counterguard
