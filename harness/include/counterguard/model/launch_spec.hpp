// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstddef>
#include <optional>

#include "counterguard/model/formula.hpp"

namespace counterguard {

// The launch configuration a case asks for. Unset fields leave the choice to the kernel's launcher.
struct launch_spec {
  std::optional<std::array<formula, 3>> block;  // YAML: block: 256 | [32, 8] | [32, 8, 1]
  std::optional<std::array<formula, 3>> grid;
  std::optional<std::array<formula, 3>> cluster;  // thread-block cluster dimensions (sm_90+)
  std::optional<formula> dynamic_shared_bytes;
};

// A launch_spec evaluated for one case instance. A zero x dimension means "unset: the kernel decides".
struct resolved_launch {
  std::array<unsigned, 3> block{0, 1, 1};
  std::array<unsigned, 3> grid{0, 1, 1};
  std::array<unsigned, 3> cluster{0, 1, 1};
  std::size_t dynamic_shared_bytes = 0;

  [[nodiscard]] bool has_block() const { return block[0] != 0; }
  [[nodiscard]] bool has_grid() const { return grid[0] != 0; }
  [[nodiscard]] bool has_cluster() const { return cluster[0] != 0; }
};

}  // namespace counterguard
