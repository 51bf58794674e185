// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/cupti/counter_data_image.hpp"
#include "counterguard/profiler/profiled_launch.hpp"

namespace counterguard {

// One profiled case instance as stored for offline evaluation.
struct archived_case {
  std::string name;                       // the case instance ("transpose/smem?pad=1,n=2048")
  std::vector<std::string> raw_metrics;   // the raw CUPTI metrics collected
  std::vector<profiled_launch> launches;  // one per range, in range order
  int passes = 0;
  int dropped_ranges = 0;
  counter_data_image image;
};

// A directory of counter-data images, evaluable later on any machine (`counterguard evaluate DIR`):
//   DIR/manifest.json        schema version, chip, metadata, and per case: image file, raw metrics, launches
//   DIR/<nnn>.counterdata.gz one gzip-compressed image per case (000, 001, ...; raw images load too)
struct counter_data_archive {
  static constexpr int schema_version = 1;
  std::string chip;                                    // every image's chip ("GH100")
  nlohmann::json metadata = nlohmann::json::object();  // opaque to the archive (GPU key, versions, ...)
  std::vector<archived_case> cases;
};

// Writes the archive into `directory` (created if needed). Every file is written to a temporary name and
// renamed, the manifest last, so a reader never sees a half-written archive. Throws environment_error
// (file_system) when a file cannot be written.
// `scratch`: without fsyncs, for archives that live only as long as the run (counterguard exec's launches).
void save_counter_data_archive(const std::filesystem::path& directory, const counter_data_archive& archive,
                               file_durability durability = file_durability::synced);

// Reads an archive. A missing, unreadable, corrupt or inconsistent file (bad JSON, wrong schema version,
// truncated or altered image: size and CRC-32 are checked) is an input_error naming the file.
[[nodiscard]] counter_data_archive load_counter_data_archive(const std::filesystem::path& directory);

}  // namespace counterguard
