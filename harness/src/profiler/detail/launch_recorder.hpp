#pragma once

#include <cupti_callbacks.h>

#include <mutex>
#include <string>
#include <vector>

#include "counterguard/profiler/profiled_launch.hpp"

namespace counterguard::detail {

// Records every kernel launch through the CUDA runtime while armed: the symbol, the launch geometry and
// the "launch" metrics (registers, local/static shared/constant bytes, theoretical occupancy). It owns
// the process's single CUPTI subscriber (CUPTI allows one; a second cuptiSubscribe fails).
class launch_recorder {
 public:
  // `max_threads_per_sm` is the device's maxThreadsPerMultiProcessor (for theoretical occupancy).
  explicit launch_recorder(int max_threads_per_sm);
  ~launch_recorder();
  launch_recorder(const launch_recorder&) = delete;
  launch_recorder& operator=(const launch_recorder&) = delete;

  // Starts recording into an empty list.
  void arm();
  // Stops recording and returns the launches seen since arm(), in launch order. Throws api_error when a
  // launch could not be inspected (the callback itself must not throw through CUPTI).
  [[nodiscard]] std::vector<profiled_launch> disarm();

 private:
  static void CUPTIAPI on_callback(void* user_data, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                   const void* data);
  void record(CUpti_CallbackId id, const CUpti_CallbackData& data);

  int m_max_threads_per_sm = 0;
  CUpti_SubscriberHandle m_subscriber = nullptr;
  std::mutex m_mutex;
  bool m_armed = false;
  std::vector<profiled_launch> m_launches;
  std::string m_first_problem;
};

}  // namespace counterguard::detail
