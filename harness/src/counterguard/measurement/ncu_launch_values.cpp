// SPDX-License-Identifier: Apache-2.0
#include "counterguard/measurement/ncu_launch_values.hpp"

#include <algorithm>
#include <cmath>

#include "counterguard/core/error.hpp"
#include "counterguard/measurement/ncu_shared_memory.hpp"
#include "counterguard/metrics/ncu_launch_metrics.hpp"

namespace counterguard {
namespace {

// What ncu showed on the H200 for kernels of 10 to 55 registers (validation/launch_code_checks.sh probe):
// launch__registers_per_thread 16 below 16 and the count from there; _allocated the next multiple of 8;
// launch__occupancy_limit_registers as if each of the SM's 4 sub-partitions held a quarter of its registers
// and gave each warp whole 256-register units.
constexpr int minimum_registers = 16;
constexpr int register_unit_per_warp = 256;
constexpr int sub_partitions = 4;
// Barriers an SM holds for its blocks: ncu's launch__occupancy_limit_barriers is that over the function's
// barrier count, at most the SM's block limit (32 with no barrier on the H200).
constexpr int barriers_per_multiprocessor = 64;

std::optional<double> device_value(const profiled_launch& l, const char* name) {
  if (!l.device_attributes)
    return std::nullopt;
  const auto found = l.device_attributes->find(name);
  return found == l.device_attributes->end() ? std::nullopt : std::optional(found->second);
}

double block_size(const profiled_launch& l) {
  return static_cast<double>(l.block[0]) * l.block[1] * l.block[2];
}

double grid_size(const profiled_launch& l) {
  return static_cast<double>(l.grid[0]) * l.grid[1] * l.grid[2];
}

std::optional<double> warps_per_block(const profiled_launch& l) {
  const auto warp = device_value(l, "warp_size");
  if (!warp || *warp <= 0)
    return std::nullopt;
  return std::ceil(block_size(l) / *warp);
}

int allocated_registers(int registers) {
  const int held = ncu_registers_per_thread(registers);
  return (held + 7) / 8 * 8;
}

std::optional<double> register_limit(const profiled_launch& l) {
  const auto per_sm = device_value(l, "max_registers_per_multiprocessor");
  const auto warp = device_value(l, "warp_size");
  const auto warps = warps_per_block(l);
  if (!per_sm || !warp || !warps || *warps <= 0)
    return std::nullopt;
  const double per_warp =
      std::ceil(allocated_registers(l.registers_per_thread) * *warp / register_unit_per_warp) *
      register_unit_per_warp;
  const double warps_per_partition = std::floor(*per_sm / sub_partitions / per_warp);
  return std::floor(warps_per_partition * sub_partitions / *warps);
}

std::optional<double> barrier_limit(const profiled_launch& l, const kernel_resources& code) {
  const auto blocks = device_value(l, "max_blocks_per_multiprocessor");
  if (!blocks)
    return std::nullopt;
  if (code.barriers <= 0)
    return *blocks;
  return std::min(*blocks, std::floor(static_cast<double>(barriers_per_multiprocessor) / code.barriers));
}

template <typename T>
std::optional<double> as_value(const std::optional<T>& value) {
  return value ? std::optional<double>(static_cast<double>(*value)) : std::nullopt;
}

// ncu's cluster occupancy percentages from the driver's count of clusters that fit on the device at once:
// the blocks those clusters hold against the blocks the SMs would hold without clusters
// (launch__occupancy_cluster_pct), and their warps against the device's warp slots
// (launch__occupancy_cluster_gpu_pct). 0 for a launch without clusters, as ncu shows them.
std::optional<double> cluster_occupancy_pct(const profiled_launch& l, bool of_gpu) {
  if (!l.max_active_clusters)
    return std::nullopt;
  const double cluster_size = static_cast<double>(l.cluster[0]) * l.cluster[1] * l.cluster[2];
  if (cluster_size == 0)
    return 0.0;
  const auto sms = device_value(l, "multiprocessor_count");
  const double blocks = *l.max_active_clusters * cluster_size;
  if (!of_gpu) {
    if (!sms || l.blocks_per_sm <= 0)
      return std::nullopt;
    return blocks / (l.blocks_per_sm * *sms) * 100.0;
  }
  const auto slots = device_value(l, "max_warps_per_multiprocessor");
  const auto warps = warps_per_block(l);
  if (!sms || !slots || !warps || *slots <= 0)
    return std::nullopt;
  return blocks * *warps / (*slots * *sms) * 100.0;
}

// The ones that read the launch's code (its barriers) or what the launch took from its context.
std::optional<std::optional<double>> code_or_context_value(const profiled_launch& l, const std::string& name,
                                                           const kernel_resources* code) {
  const bool barriers_known = code != nullptr && code->barriers_known;
  if (name == "launch__barrier_count")
    return barriers_known ? std::optional<double>(code->barriers) : std::nullopt;
  if (name == "launch__occupancy_limit_barriers")
    return barriers_known ? barrier_limit(l, *code) : std::nullopt;
  if (name == "launch__stream_id")
    return as_value(l.stream_id);
  if (name == "launch__context_id")
    return as_value(l.context_id);
  if (name == "launch__stack_size")
    return as_value(l.stack_size_bytes);
  if (name == "launch__persisting_l2_cache_size")
    return as_value(l.persisting_l2_bytes);
  if (name == "launch__device_id")
    return device_value(l, "device_index");
  if (name == "launch__cluster_max_active")
    return as_value(l.max_active_clusters);
  if (name == "launch__cluster_max_potential_size")
    return as_value(l.max_potential_cluster_size);
  if (name == "launch__occupancy_cluster_pct")
    return cluster_occupancy_pct(l, false);
  if (name == "launch__occupancy_cluster_gpu_pct")
    return cluster_occupancy_pct(l, true);
  const bool shared = name == "launch__shared_mem_per_block_allocated" ||
                      name == "launch__shared_mem_config_size" ||
                      name == "launch__occupancy_limit_shared_mem";
  if (!shared)
    return std::nullopt;
  const std::optional<ncu_shared_memory> memory = ncu_shared_memory_of(l);
  if (!memory)
    return std::optional<double>();
  if (name == "launch__shared_mem_per_block_allocated")
    return static_cast<double>(memory->allocated_per_block);
  if (name == "launch__shared_mem_config_size")
    return static_cast<double>(memory->config_size);
  return static_cast<double>(memory->blocks_per_sm);
}

std::optional<double> ncu_value(const profiled_launch& l, const std::string& name,
                                const kernel_resources* code) {
  if (const auto value = code_or_context_value(l, name, code))
    return *value;
  if (name == "launch__block_dim_x")
    return l.block[0];
  if (name == "launch__block_dim_y")
    return l.block[1];
  if (name == "launch__block_dim_z")
    return l.block[2];
  if (name == "launch__block_size")
    return block_size(l);
  if (name == "launch__grid_dim_x")
    return l.grid[0];
  if (name == "launch__grid_dim_y")
    return l.grid[1];
  if (name == "launch__grid_dim_z")
    return l.grid[2];
  if (name == "launch__grid_size")
    return grid_size(l);
  if (name == "launch__thread_count")
    return block_size(l) * grid_size(l);
  if (name == "launch__cluster_dim_x")
    return l.cluster[0];
  if (name == "launch__cluster_dim_y")
    return l.cluster[1];
  if (name == "launch__cluster_dim_z")
    return l.cluster[2];
  if (name == "launch__cluster_size")
    return static_cast<double>(l.cluster[0]) * l.cluster[1] * l.cluster[2];
  if (name == "launch__registers_per_thread")
    return ncu_registers_per_thread(l.registers_per_thread);
  if (name == "launch__registers_per_thread_allocated")
    return allocated_registers(l.registers_per_thread);
  if (name == "launch__shared_mem_per_block_static")
    return static_cast<double>(l.static_shared_bytes);
  if (name == "launch__shared_mem_per_block_dynamic")
    return static_cast<double>(l.dynamic_shared_bytes);
  if (name == "launch__shared_mem_per_block_driver")
    return device_value(l, "reserved_shared_memory_per_block");
  if (name == "launch__shared_mem_per_block") {
    const auto driver = device_value(l, "reserved_shared_memory_per_block");
    if (!driver)
      return std::nullopt;
    return static_cast<double>(l.static_shared_bytes + l.dynamic_shared_bytes) + *driver;
  }
  if (name == "launch__sm_count")
    return device_value(l, "multiprocessor_count");
  if (name == "launch__waves_per_multiprocessor") {
    const auto sms = device_value(l, "multiprocessor_count");
    if (!sms || l.blocks_per_sm <= 0)
      return std::nullopt;
    return grid_size(l) / (l.blocks_per_sm * *sms);
  }
  if (name == "launch__occupancy_limit_blocks")
    return device_value(l, "max_blocks_per_multiprocessor");
  if (name == "launch__occupancy_limit_warps") {
    const auto slots = device_value(l, "max_warps_per_multiprocessor");
    const auto warps = warps_per_block(l);
    if (!slots || !warps || *warps <= 0)
      return std::nullopt;
    return std::floor(*slots / *warps);
  }
  if (name == "launch__occupancy_limit_registers")
    return register_limit(l);
  if (name == "sm__maximum_warps_per_active_cycle_pct")
    return l.theoretical_occupancy_pct;
  if (name.rfind(ncu_device_attribute_prefix, 0) == 0)
    return device_value(l, name.c_str() + std::string(ncu_device_attribute_prefix).size());
  throw internal_error("unknown launch metric '" + name + "'");
}

}  // namespace

int ncu_registers_per_thread(int registers) {
  return std::max(registers, minimum_registers);
}

std::optional<double> launch_metric_value(const profiled_launch& l, const std::string& field,
                                          const kernel_resources* code) {
  if (field == "registers")  // launch_registers_per_thread: ncu's launch__registers_per_thread
    return ncu_registers_per_thread(l.registers_per_thread);
  if (field == "local_bytes_per_thread")
    return static_cast<double>(l.local_bytes_per_thread);
  if (field == "theoretical_occupancy_pct")
    return l.theoretical_occupancy_pct;
  return ncu_value(l, field, code);
}

std::string why_no_launch_value(const profiled_launch& l, const std::string& field,
                                const kernel_resources* code) {
  if (field == "launch__barrier_count" || field == "launch__occupancy_limit_barriers") {
    if (code == nullptr)
      return "no binary or loaded module describes the launched function, so its barriers are not known";
    if (!code->barriers_known)
      return code->unknown_because.empty() ? "what describes the function does not state its barriers"
                                           : code->unknown_because;
  }
  const std::string older = "the launch was recorded by a counterguard that did not keep ";
  if (field == "launch__stream_id" || field == "launch__context_id")
    return older + "its stream and context ids";
  if (field == "launch__stack_size" || field == "launch__persisting_l2_cache_size")
    return older + "its context's limits";
  const bool clusters =
      field == "launch__cluster_max_active" || field == "launch__cluster_max_potential_size" ||
      field == "launch__occupancy_cluster_pct" || field == "launch__occupancy_cluster_gpu_pct";
  if (clusters && !l.max_active_clusters)
    return "the launch's record holds no answer of the driver's cluster occupancy calculator (recorded by a "
           "counterguard that did not keep it, or the driver did not answer)";
  const bool shared = field == "launch__shared_mem_config_size" ||
                      field == "launch__occupancy_limit_shared_mem" ||
                      field == "launch__shared_mem_per_block_allocated";
  if (shared && !l.preferred_carveout_pct)
    return older + "its preferred shared-memory carve-out";
  if (shared && l.device_attributes)
    return "counterguard does not know the shared-memory carve-out sizes of this GPU's architecture";
  return "the launch was recorded without the device attributes it needs";
}

}  // namespace counterguard
