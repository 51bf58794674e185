// SPDX-License-Identifier: Apache-2.0
// What the launch recorder reads of a launched function (registers, memory sizes, occupancy) and of the
// current device, through the runtime or the driver.
#pragma once

#include <cuda.h>

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace counterguard::detail {

// The attributes every launch reports.
struct launch_attributes {
  CUfunction function = nullptr;  // the function the driver ran, where it can be known
  int registers = 0;
  std::size_t local_bytes = 0;
  std::size_t static_shared_bytes = 0;
  std::size_t constant_bytes = 0;
  std::array<unsigned, 3> required_cluster{0, 0, 0};
  int blocks_per_sm = 0;
  std::optional<int> preferred_carveout_pct;  // the function's preferred shared-memory carve-out; -1: none
};

// Through the runtime that made this library: its own host stubs and cudaKernel_t handles.
bool runtime_attributes(const void* func, unsigned threads, std::size_t dynamic_shared_bytes,
                        launch_attributes& out);

// Through the driver: any function or CUkernel, whichever runtime or library loaded it.
bool driver_attributes(CUfunction function, CUkernel kernel, unsigned threads,
                       std::size_t dynamic_shared_bytes, launch_attributes& out);

// The current context's device's attributes by ncu's names; null without a driver that answers.
std::shared_ptr<const std::map<std::string, double>> current_device_attributes();

}  // namespace counterguard::detail
