#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "counterguard/profiler/range_profiler.hpp"

namespace counterguard {

// Saves each profiled case's counter-data image and launches for offline evaluation (`counterguard
// evaluate`). One writer per worker process; every case is written as it completes, so a later crash loses
// nothing.
class capture_archive_writer {
 public:
  capture_archive_writer(std::string directory, std::string chip);
  // `outcome` carries what evaluation cannot recompute from counters: the metrics the kernel reported
  // itself (kernel_run::runtime_metrics) and its verification, as {"kernel_metrics", "verified",
  // "verification_message"}.
  void write(int archive_index, const std::string& instance, const std::vector<std::string>& raw_metrics,
             const profile_capture& capture, const nlohmann::json& outcome);

 private:
  std::string m_directory;
  std::string m_chip;
};

}  // namespace counterguard
