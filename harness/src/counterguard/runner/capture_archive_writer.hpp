// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "counterguard/measurement/case_observation.hpp"

namespace counterguard {

// Saves each profiled case's observation (counter-data image, launches, the metrics measured, the kernel's
// own metrics and verification) for offline evaluation (`counterguard evaluate`). One writer per worker
// process; every case is written as it completes, so a later crash loses nothing.
class capture_archive_writer {
 public:
  capture_archive_writer(std::string directory, std::string chip);
  void write(int archive_index, const std::string& instance, const case_observation& observation,
             int dropped_ranges);

 private:
  std::string m_directory;
  std::string m_chip;
};

}  // namespace counterguard
