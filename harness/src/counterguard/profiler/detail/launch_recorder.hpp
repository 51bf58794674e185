// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cupti_callbacks.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "counterguard/profiler/profiled_launch.hpp"
#include "counterguard/statics/kernel_resources.hpp"
#include "counterguard/statics/loaded_modules.hpp"

namespace counterguard::detail {

// Records every kernel launch while armed, through the CUDA runtime (<<<>>>, cudaLaunchKernel) or the driver
// (cuLaunchKernel: Triton, CuPy, Numba): the symbol, the launch geometry and the "launch" metrics
// (registers, local/static shared/constant bytes, theoretical occupancy). A runtime launch that forwards to
// a driver launch is one launch (the outermost call claims it; the driver call under it gives its function).
// It owns the process's single CUPTI subscriber (CUPTI allows one; a second cuptiSubscribe fails), through
// which it also reads the kernels of every module the driver loads from then on: a JIT-compiled kernel's
// (Triton, CuPy, Numba, NVRTC) only source of static metrics.
class launch_recorder {
 public:
  // `max_threads_per_sm` is the device's maxThreadsPerMultiProcessor (for theoretical occupancy),
  // `architecture` its compute capability as 90 for sm_90 (which cubin of a fat binary it runs).
  launch_recorder(int max_threads_per_sm, int architecture);
  ~launch_recorder();
  launch_recorder(const launch_recorder&) = delete;
  launch_recorder& operator=(const launch_recorder&) = delete;

  // Starts recording into an empty list.
  void arm();
  // Stops recording and returns the launches seen since arm(), in launch order.
  [[nodiscard]] std::vector<profiled_launch> disarm();
  // Whether the attributes of every launch disarm() returned could be read (not when a runtime launch used
  // a host stub of another CUDA runtime, such as PyTorch's, and no driver launch under it named the
  // function).
  [[nodiscard]] bool attributes_known() const { return m_attributes_known; }
  // The code of each launch's function (what its code key names: read from its own module when that loaded
  // while this recorder existed, else what the driver states of it), and for launches without a key the
  // kernels of that name the loaded modules hold.
  [[nodiscard]] std::vector<kernel_resources> loaded_resources(const std::vector<profiled_launch>& launches);

 private:
  static void CUPTIAPI on_callback(void* user_data, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                   const void* data);
  void entered(CUpti_CallbackDomain domain, CUpti_CallbackId id, const CUpti_CallbackData& data);
  void exited();
  void module_loaded(std::uint32_t module_id, const std::uint8_t* image, std::size_t size);
  void module_load_returned(CUpti_CallbackId id, const CUpti_CallbackData& data);

  int m_max_threads_per_sm = 0;
  int m_architecture = 0;
  CUpti_SubscriberHandle m_subscriber = nullptr;
  std::mutex m_mutex;
  bool m_armed = false;
  std::uint64_t m_arming = 0;  // counts arm() calls: a launch entered before the last arm() is not recorded
  std::vector<profiled_launch> m_launches;
  bool m_attributes_known = true;
  std::unordered_map<std::string, kernel_resources> m_module_kernels;  // by mangled name
  loaded_modules m_modules;               // which module each launched function came from
  std::vector<kernel_resources> m_codes;  // the code of every function launched while armed
  std::shared_ptr<const std::map<std::string, double>> m_device_attributes;  // read at the first launch
};

}  // namespace counterguard::detail
