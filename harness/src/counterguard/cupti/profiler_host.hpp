// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

struct CUpti_Profiler_Host_Object;

namespace counterguard::detail {

// RAII owner of a CUPTI profiler host object (cupti_profiler_host.h) for one chip. Works with no GPU.
class profiler_host {
 public:
  // Throws input_error naming the supported chips when CUPTI does not know `chip`.
  // `counter_availability` (from the device) is optional; without it CUPTI assumes every counter is
  // available.
  explicit profiler_host(std::string chip, const std::vector<std::uint8_t>& counter_availability = {});
  ~profiler_host();
  profiler_host(const profiler_host&) = delete;
  profiler_host& operator=(const profiler_host&) = delete;

  [[nodiscard]] CUpti_Profiler_Host_Object* get() const { return m_object; }
  [[nodiscard]] const std::string& chip() const { return m_chip; }

  // Adds metrics to this object's configuration. After a failure CUPTI refuses every later call on the
  // object (observed: CUPTI_ERROR_UNKNOWN), so a failed object must be discarded.
  void add_metrics(const std::vector<std::string>& metrics);
  // The configuration image of the metrics added so far.
  [[nodiscard]] std::vector<std::uint8_t> config_image() const;

 private:
  std::string m_chip;
  CUpti_Profiler_Host_Object* m_object = nullptr;
};

// Replay passes a configuration image needs.
[[nodiscard]] int config_pass_count(std::vector<std::uint8_t>& config_image);

// Chips the installed CUPTI knows ("GA100", "GH100", ...).
[[nodiscard]] std::vector<std::string> cupti_supported_chips();

// Runs `use` with a process-wide host object for `chip`, created once per chip and used under a lock:
// the first host object costs about 300 ms (loading the chip's metric tables), later ones about 2 ms.
void with_shared_profiler_host(const std::string& chip, const std::function<void(profiler_host&)>& use);

// The C strings of `names` (valid while `names` lives), for CUPTI's arrays of metric names.
[[nodiscard]] std::vector<const char*> c_names(const std::vector<std::string>& names);

}  // namespace counterguard::detail
