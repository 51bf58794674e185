// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda.h>

#include <array>
#include <cstddef>
#include <optional>

namespace counterguard::detail {

// What ncu's launch__cluster_max_active and launch__cluster_max_potential_size read: the driver's cluster
// occupancy calculator for the launch. Both 0 for a launch without clusters, as ncu shows them.
struct cluster_occupancy {
  int max_active_clusters = 0;
  int max_potential_cluster_size = 0;
};

// Asks the driver's cluster occupancy calculator about a launch of `function` (in the current context) in
// clusters of `cluster` blocks. The in-process recorder passes the driver's entry points, the injection
// library the linked functions. Empty where the driver does not answer.
template <typename MaxActiveClusters, typename MaxPotentialClusterSize>
std::optional<cluster_occupancy> ask_cluster_occupancy(
    MaxActiveClusters max_active_clusters, MaxPotentialClusterSize max_potential_cluster_size,
    CUfunction function, const std::array<unsigned, 3>& grid, const std::array<unsigned, 3>& block,
    std::size_t dynamic_shared_bytes, const std::array<unsigned, 3>& cluster) {
  if (cluster[0] == 0)
    return cluster_occupancy{};
  if (function == nullptr || max_active_clusters == nullptr || max_potential_cluster_size == nullptr)
    return std::nullopt;
  CUlaunchAttribute dimension{};
  dimension.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  dimension.value.clusterDim.x = cluster[0];
  dimension.value.clusterDim.y = cluster[1];
  dimension.value.clusterDim.z = cluster[2];
  CUlaunchConfig config{};
  config.gridDimX = grid[0];
  config.gridDimY = grid[1];
  config.gridDimZ = grid[2];
  config.blockDimX = block[0];
  config.blockDimY = block[1];
  config.blockDimZ = block[2];
  config.sharedMemBytes = static_cast<unsigned>(dynamic_shared_bytes);
  config.attrs = &dimension;
  config.numAttrs = 1;
  cluster_occupancy found;
  if (max_active_clusters(&found.max_active_clusters, function, &config) != CUDA_SUCCESS ||
      max_potential_cluster_size(&found.max_potential_cluster_size, function, &config) != CUDA_SUCCESS)
    return std::nullopt;
  return found;
}

}  // namespace counterguard::detail
