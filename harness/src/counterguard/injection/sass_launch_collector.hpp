// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/exec/blamed_launches.hpp"
#include "counterguard/exec/exec_instructions.hpp"
#include "counterguard/profiler/sass_metrics_session.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard::injection {

// A blame pass in one process of a program (`exec --blame`, `baseline update --with-lines -- PROGRAM`): the
// selected launch's per-instruction counters through CUPTI's SASS metrics API instead of the range profiler,
// written with the cubin of the module the launched function came from (CUPTI hands each module's image to
// the module-loaded callback; the counters' records name their cubin by CRC). CUPTI takes one SASS
// configuration per process, so one launch per process is collected. Not thread-safe: the caller serialises.
class sass_launch_collector {
 public:
  sass_launch_collector(exec_blame_request request, std::vector<exec_case_request> cases);
  ~sass_launch_collector();
  sass_launch_collector(const sass_launch_collector&) = delete;
  sass_launch_collector& operator=(const sass_launch_collector&) = delete;

  // A module the driver loaded (`image`: valid during the call only; `kernels`: read from it): its cubin is
  // kept when one of the cases may select one of its kernels.
  void module_loaded(const std::uint8_t* image, std::size_t size, int architecture,
                     const std::vector<kernel_resources>& kernels);
  // Whether a launch may still be collected in this process.
  [[nodiscard]] bool available() const { return !m_used; }
  // Before the selected launch, on its thread (its context current). Throws environment_error when the
  // device cannot collect SASS metrics, api_error for a CUPTI failure.
  void begin(CUcontext context);
  // After the launch returned: synchronises its context, collects its counters and writes them and its
  // cubin as blamed launch `index` of `folder`, for case `case_name`.
  void end(const std::filesystem::path& folder, int index, const std::string& case_name);
  // Stops a begun collection without writing (the launch failed); never throws.
  void abandon() noexcept;

 private:
  exec_blame_request m_request;
  std::vector<exec_case_request> m_cases;
  std::map<std::uint32_t, std::shared_ptr<const std::vector<std::uint8_t>>> m_cubins;  // by CUPTI's CRC
  CUcontext m_context = nullptr;
  device_description m_device;
  std::unique_ptr<sass_metrics_session> m_session;
  bool m_used = false;
};

}  // namespace counterguard::injection
