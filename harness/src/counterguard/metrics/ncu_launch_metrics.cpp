// SPDX-License-Identifier: Apache-2.0
#include "counterguard/metrics/ncu_launch_metrics.hpp"

#include <algorithm>

namespace counterguard {
namespace {

constexpr int derived_max_warps_per_multiprocessor = -1;
constexpr int derived_total_memory = -2;
constexpr int derived_device_index = -3;
constexpr int derived_limits_max_cta_per_sm = -4;
constexpr int max_blocks_per_multiprocessor = 106;  // CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR
constexpr int max_threads_per_multiprocessor = 39;  // CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR
constexpr int warp_size = 10;                       // CU_DEVICE_ATTRIBUTE_WARP_SIZE

struct launch_entry {
  const char* name;
  metric_direction direction;
  const char* unit;
  const char* description;
};

// The launch statistics and occupancy limits ncu derives from the launch, the function and the device
// (its LaunchStats and Occupancy sections), as it defines them on the H200 (validation/h200.md).
const std::vector<launch_entry>& launch_entries() {
  constexpr auto lower = metric_direction::lower_is_better;
  constexpr auto higher = metric_direction::higher_is_better;
  constexpr auto same = metric_direction::exact;  // ids and settings: any change is a difference
  static const std::vector<launch_entry> entries = {
      {"launch__block_dim_x", lower, "threads", "block dimension x"},
      {"launch__block_dim_y", lower, "threads", "block dimension y"},
      {"launch__block_dim_z", lower, "threads", "block dimension z"},
      {"launch__block_size", lower, "threads", "threads per block"},
      {"launch__grid_dim_x", lower, "blocks", "grid dimension x"},
      {"launch__grid_dim_y", lower, "blocks", "grid dimension y"},
      {"launch__grid_dim_z", lower, "blocks", "grid dimension z"},
      {"launch__grid_size", lower, "blocks", "blocks in the grid"},
      {"launch__thread_count", lower, "threads", "threads in the grid"},
      {"launch__cluster_dim_x", lower, "blocks", "cluster dimension x (0: no clusters)"},
      {"launch__cluster_dim_y", lower, "blocks", "cluster dimension y (0: no clusters)"},
      {"launch__cluster_dim_z", lower, "blocks", "cluster dimension z (0: no clusters)"},
      {"launch__cluster_size", lower, "blocks", "blocks per cluster (0: no clusters)"},
      {"launch__registers_per_thread", lower, "registers",
       "registers per thread the launch holds: the function's count, at least 16"},
      {"launch__registers_per_thread_allocated", lower, "registers",
       "registers per thread in the allocation unit (multiples of 8, at least 16)"},
      {"launch__shared_mem_per_block_static", lower, "bytes", "static shared memory per block"},
      {"launch__shared_mem_per_block_dynamic", lower, "bytes", "dynamic shared memory per block"},
      {"launch__shared_mem_per_block_driver", lower, "bytes", "shared memory the driver reserves per block"},
      {"launch__shared_mem_per_block", lower, "bytes", "static, dynamic and driver shared memory per block"},
      {"launch__sm_count", higher, "SMs", "SMs of the device"},
      {"launch__waves_per_multiprocessor", lower, "waves", "blocks / (blocks per SM x SMs)"},
      {"launch__occupancy_limit_blocks", higher, "blocks", "blocks per SM the hardware allows"},
      {"launch__occupancy_limit_warps", higher, "blocks", "blocks per SM the warp slots allow"},
      {"launch__occupancy_limit_registers", higher, "blocks", "blocks per SM the registers allow"},
      {"launch__occupancy_limit_shared_mem", higher, "blocks",
       "blocks per SM the shared-memory carve-out holds (carve-out / allocated shared memory per block)"},
      {"launch__occupancy_limit_barriers", higher, "blocks",
       "blocks per SM the barriers allow (64 / the function's barriers, at most the SM's block limit)"},
      {"launch__shared_mem_per_block_allocated", lower, "bytes",
       "shared memory per block in the allocation unit (static, dynamic and driver bytes, 128-byte units)"},
      {"launch__shared_mem_config_size", lower, "bytes",
       "the shared-memory carve-out the driver configures for the launch"},
      {"launch__barrier_count", lower, "barriers", "barriers the function uses (its compiled count)"},
      {"launch__cluster_max_active", higher, "clusters",
       "clusters that fit on the device at once, by the driver's cluster occupancy calculator (0: no "
       "clusters)"},
      {"launch__cluster_max_potential_size", higher, "blocks",
       "the largest cluster size the driver allows for the function and launch (0: no clusters)"},
      {"launch__occupancy_cluster_pct", higher, "%",
       "blocks the clusters that fit hold, against the blocks the SMs hold without clusters (0: no "
       "clusters)"},
      {"launch__occupancy_cluster_gpu_pct", higher, "%",
       "warps of the clusters that fit, against the device's warp slots (0: no clusters)"},
      {"launch__stream_id", same, "", "CUPTI's id of the launch's stream (unique in its context)"},
      {"launch__context_id", same, "", "CUPTI's id of the launch's context (unique in the process)"},
      {"launch__device_id", same, "", "the ordinal of the launch's device"},
      {"launch__stack_size", same, "bytes", "the context's stack size limit per thread at the launch"},
      {"launch__persisting_l2_cache_size", same, "bytes",
       "the context's L2 set-aside for persisting accesses at the launch"},
      {"sm__maximum_warps_per_active_cycle_pct", higher, "%",
       "theoretical occupancy: warp slots the occupancy calculator allows (as theoretical_occupancy)"},
  };
  return entries;
}

struct refused_entry {
  const char* name;
  const char* reason;
};

constexpr const char* text_value = "its value is text (counterguard's metrics are numbers)";
constexpr const char* instanced_occupancy =
    "it is the data of ncu's occupancy graphs (active warps for each block size, register count, shared "
    "memory size, barrier count or cluster size), not one number of the launch";
constexpr const char* launch_mode =
    "counterguard does not detect the launch mode it states (green contexts, MPS, vGPU, dynamic parallelism, "
    "NVLink-centric scheduling); it would read 0 where it may not be";

// ncu's launch__ names on the H200 (ncu 2025.3) that counterguard does not report, and why.
const std::vector<refused_entry>& refused_entries() {
  static const std::vector<refused_entry> entries = {
      {"launch__function_pcs",
       "its instances are the device addresses of the function's entry points, which change from process to "
       "process and which no CUDA driver or CUPTI call returns (the single value ncu prints, 1 for a kernel, "
       "is the number of instances)"},
      {"launch__kernel_name", text_value},
      {"launch__func_cache_config", text_value},
      {"launch__cluster_scheduling_policy", text_value},
      {"launch__tpc_enabled", text_value},
      {"launch__tpc_count",
       "the number of TPCs is not a CUDA device attribute (ncu reads it from the chip: 66 on the H200)"},
      {"launch__occupancy_per_barrier_count", instanced_occupancy},
      {"launch__occupancy_per_block_size", instanced_occupancy},
      {"launch__occupancy_per_cluster_size", instanced_occupancy},
      {"launch__occupancy_per_register_count", instanced_occupancy},
      {"launch__occupancy_per_shared_mem_size", instanced_occupancy},
      {"launch__uses_cdp", launch_mode},
      {"launch__uses_green_context", launch_mode},
      {"launch__uses_mps", launch_mode},
      {"launch__uses_nvlink_centric_scheduling", launch_mode},
      {"launch__uses_vgpu", launch_mode},
  };
  return entries;
}

}  // namespace

std::optional<std::string> ncu_launch_refusal(const std::string& name) {
  for (const auto& entry : refused_entries()) {
    if (name == entry.name)
      return std::string(entry.reason);
  }
  return std::nullopt;
}

const std::vector<std::string>& ncu_launch_metric_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& entry : launch_entries())
      out.emplace_back(entry.name);
    return out;
  }();
  return names;
}

const std::vector<ncu_device_attribute>& ncu_device_attributes() {
  // ncu's device__attribute_ names that are CU_DEVICE_ATTRIBUTE_* (lower case, the same words), with the
  // enumerator's value (cuda.h of CUDA 13.0; the metrics area builds without the driver's header).
  static const std::vector<ncu_device_attribute> attributes = {
      {"async_engine_count", 40},
      {"can_flush_remote_writes", 98},
      {"can_map_host_memory", 19},
      {"can_tex2d_gather", 44},
      {"can_use_64_bit_stream_mem_ops", 122},
      {"can_use_64_bit_stream_mem_ops_v1", 93},
      {"can_use_host_pointer_for_registered_mem", 91},
      {"can_use_stream_mem_ops_v1", 92},
      {"can_use_stream_wait_value_nor", 123},
      {"can_use_stream_wait_value_nor_v1", 94},
      {"clock_rate", 13},
      {"cluster_launch", 120},
      {"compute_capability_major", 75},
      {"compute_capability_minor", 76},
      {"compute_mode", 20},
      {"compute_preemption_supported", 90},
      {"concurrent_kernels", 31},
      {"concurrent_managed_access", 89},
      {"cooperative_launch", 95},
      {"cooperative_multi_device_launch", 96},
      {"deferred_mapping_cuda_array_supported", 121},
      {"direct_managed_mem_access_from_host", 101},
      {"dma_buf_supported", 124},
      {"ecc_enabled", 32},
      {"generic_compression_supported", 107},
      {"global_l1_cache_supported", 79},
      {"global_memory_bus_width", 37},
      {"gpu_direct_rdma_flush_writes_options", 117},
      {"gpu_direct_rdma_supported", 116},
      {"gpu_direct_rdma_with_cuda_vmm_supported", 110},
      {"gpu_direct_rdma_writes_ordering", 118},
      {"gpu_overlap", 15},
      {"gpu_pci_device_id", 139},
      {"handle_type_fabric_supported", 128},
      {"handle_type_posix_file_descriptor_supported", 103},
      {"handle_type_win32_handle_supported", 104},
      {"handle_type_win32_kmt_handle_supported", 105},
      {"host_native_atomic_supported", 86},
      {"host_numa_id", 134},
      {"host_register_supported", 99},
      {"integrated", 18},
      {"ipc_event_supported", 125},
      {"kernel_exec_timeout", 17},
      {"l2_cache_size", 38},
      {"local_l1_cache_supported", 80},
      {"managed_memory", 83},
      {"max_access_policy_window_size", 109},
      {"max_block_dim_x", 2},
      {"max_block_dim_y", 3},
      {"max_block_dim_z", 4},
      {"max_blocks_per_multiprocessor", 106},
      {"max_grid_dim_x", 5},
      {"max_grid_dim_y", 6},
      {"max_grid_dim_z", 7},
      {"max_persisting_l2_cache_size", 108},
      {"max_pitch", 11},
      {"max_registers_per_block", 12},
      {"max_registers_per_multiprocessor", 82},
      {"max_shared_memory_per_block", 8},
      {"max_shared_memory_per_block_optin", 97},
      {"max_shared_memory_per_multiprocessor", 81},
      {"max_threads_per_block", 1},
      {"max_threads_per_multiprocessor", 39},
      {"maximum_surface1d_layered_layers", 62},
      {"maximum_surface1d_layered_width", 61},
      {"maximum_surface1d_width", 55},
      {"maximum_surface2d_height", 57},
      {"maximum_surface2d_layered_height", 64},
      {"maximum_surface2d_layered_layers", 65},
      {"maximum_surface2d_layered_width", 63},
      {"maximum_surface2d_width", 56},
      {"maximum_surface3d_depth", 60},
      {"maximum_surface3d_height", 59},
      {"maximum_surface3d_width", 58},
      {"maximum_surfacecubemap_layered_layers", 68},
      {"maximum_surfacecubemap_layered_width", 67},
      {"maximum_surfacecubemap_width", 66},
      {"maximum_texture1d_layered_layers", 43},
      {"maximum_texture1d_layered_width", 42},
      {"maximum_texture1d_linear_width", 69},
      {"maximum_texture1d_mipmapped_width", 77},
      {"maximum_texture1d_width", 21},
      {"maximum_texture2d_gather_height", 46},
      {"maximum_texture2d_gather_width", 45},
      {"maximum_texture2d_height", 23},
      {"maximum_texture2d_layered_height", 28},
      {"maximum_texture2d_layered_layers", 29},
      {"maximum_texture2d_layered_width", 27},
      {"maximum_texture2d_linear_height", 71},
      {"maximum_texture2d_linear_pitch", 72},
      {"maximum_texture2d_linear_width", 70},
      {"maximum_texture2d_mipmapped_height", 74},
      {"maximum_texture2d_mipmapped_width", 73},
      {"maximum_texture2d_width", 22},
      {"maximum_texture3d_depth", 26},
      {"maximum_texture3d_depth_alternate", 49},
      {"maximum_texture3d_height", 25},
      {"maximum_texture3d_height_alternate", 48},
      {"maximum_texture3d_width", 24},
      {"maximum_texture3d_width_alternate", 47},
      {"maximum_texturecubemap_layered_layers", 54},
      {"maximum_texturecubemap_layered_width", 53},
      {"maximum_texturecubemap_width", 52},
      {"mem_sync_domain_count", 126},
      {"memory_clock_rate", 36},
      {"memory_pools_supported", 115},
      {"mempool_supported_handle_types", 119},
      {"mps_enabled", 133},
      {"multi_gpu_board", 84},
      {"multi_gpu_board_group_id", 85},
      {"multicast_supported", 132},
      {"multiprocessor_count", 16},
      {"numa_config", 130},
      {"pageable_memory_access", 88},
      {"pageable_memory_access_uses_host_page_tables", 100},
      {"pci_bus_id", 33},
      {"pci_device_id", 34},
      {"pci_domain_id", 50},
      {"reserved_shared_memory_per_block", 111},
      {"single_to_double_precision_perf_ratio", 87},
      {"sparse_cuda_array_supported", 112},
      {"stream_priorities_supported", 78},
      {"surface_alignment", 30},
      {"tcc_driver", 35},
      {"tensor_map_access_supported", 127},
      {"texture_alignment", 14},
      {"texture_pitch_alignment", 51},
      {"total_constant_memory", 9},
      {"unified_addressing", 41},
      {"unified_function_pointers", 129},
      {"virtual_address_management_supported", 102},
      {"warp_size", 10},
      {"max_warps_per_multiprocessor", derived_max_warps_per_multiprocessor},
      {"total_memory", derived_total_memory},
      {"device_index", derived_device_index},
      {"limits_max_cta_per_sm", derived_limits_max_cta_per_sm},
  };
  return attributes;
}

bool is_ncu_launch_family(const std::string& name) {
  return name.rfind(ncu_launch_prefix, 0) == 0 || name.rfind(ncu_device_attribute_prefix, 0) == 0 ||
         name == "sm__maximum_warps_per_active_cycle_pct";
}

std::optional<metric_definition> ncu_launch_metric(const std::string& name) {
  metric_definition definition;
  definition.name = name;
  definition.cls = metric_class::exact;
  definition.source = metric_source::launch;
  definition.formula = name;
  for (const auto& entry : launch_entries()) {
    if (name == entry.name) {
      definition.direction = entry.direction;
      definition.unit = entry.unit;
      definition.description = std::string("ncu's ") + entry.name + ": " + entry.description;
      return definition;
    }
  }
  if (name.rfind(ncu_device_attribute_prefix, 0) == 0) {
    const std::string attribute = name.substr(std::string(ncu_device_attribute_prefix).size());
    for (const auto& entry : ncu_device_attributes()) {
      if (attribute == entry.name) {
        definition.direction = metric_direction::higher_is_better;
        definition.description = "the device's " + attribute + " (CUDA device attribute, as ncu reports it)";
        return definition;
      }
    }
  }
  return std::nullopt;
}

std::vector<std::string> ncu_launch_family_names() {
  std::vector<std::string> names = ncu_launch_metric_names();
  for (const auto& entry : ncu_device_attributes())
    names.push_back(std::string(ncu_device_attribute_prefix) + entry.name);
  return names;
}

std::map<std::string, double> read_ncu_device_attributes(
    const std::function<std::optional<std::int64_t>(int)>& attribute,
    std::optional<std::uint64_t> total_memory, int ordinal) {
  std::map<std::string, double> values;
  for (const auto& entry : ncu_device_attributes()) {
    std::optional<std::int64_t> value;
    switch (entry.cu_attribute) {
      case derived_max_warps_per_multiprocessor: {
        const auto threads = attribute(max_threads_per_multiprocessor);
        const auto warp = attribute(warp_size);
        if (threads && warp && *warp > 0)
          value = *threads / *warp;
        break;
      }
      case derived_total_memory:
        if (total_memory)
          value = static_cast<std::int64_t>(*total_memory);
        break;
      case derived_device_index:
        value = ordinal;
        break;
      case derived_limits_max_cta_per_sm:
        value = attribute(max_blocks_per_multiprocessor);
        break;
      default:
        value = attribute(entry.cu_attribute);
        break;
    }
    if (value)
      values[entry.name] = static_cast<double>(*value);
  }
  return values;
}

}  // namespace counterguard
