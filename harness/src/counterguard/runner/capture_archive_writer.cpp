// SPDX-License-Identifier: Apache-2.0
#include "counterguard/runner/capture_archive_writer.hpp"

#include <array>
#include <cstdio>

#include "counterguard/evaluator/counter_data_archive.hpp"

namespace counterguard {

capture_archive_writer::capture_archive_writer(std::string directory, std::string chip)
    : m_directory(std::move(directory)), m_chip(std::move(chip)) {}

void capture_archive_writer::write(int archive_index, const std::string& instance,
                                   const case_observation& observation, int dropped_ranges) {
  // One small archive per case (DIR/0007/), written as soon as the case is profiled: a crash in a later case
  // loses nothing, and the worker never holds more than one image in memory.
  counter_data_archive archive;
  archive.chip = m_chip;
  archive.metadata = observation_outcome_to_json(observation);
  archived_case entry;
  entry.name = instance;
  entry.raw_metrics = observation.raw_metrics;
  entry.launches = observation.launches;
  entry.passes = observation.passes;
  entry.dropped_ranges = dropped_ranges;
  entry.image = observation.image;
  archive.cases.push_back(std::move(entry));
  std::array<char, 16> name{};
  std::snprintf(name.data(), name.size(), "%04d", archive_index);
  save_counter_data_archive(std::filesystem::path(m_directory) / name.data(), archive);
}

}  // namespace counterguard
