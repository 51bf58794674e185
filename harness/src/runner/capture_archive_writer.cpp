#include "counterguard/runner/capture_archive_writer.hpp"

#include <array>
#include <cstdio>

#include "counterguard/evaluator/counter_data_archive.hpp"

namespace counterguard {

capture_archive_writer::capture_archive_writer(std::string directory, std::string chip)
    : m_directory(std::move(directory)), m_chip(std::move(chip)) {}

void capture_archive_writer::write(int archive_index, const std::string& instance,
                                   const std::vector<std::string>& raw_metrics,
                                   const profile_capture& capture, const nlohmann::json& outcome) {
  // One small archive per case (DIR/0007/), written as soon as the case is profiled: a crash in a later case
  // loses nothing, and the worker never holds more than one image in memory.
  counter_data_archive archive;
  archive.chip = m_chip;
  archive.metadata = outcome;
  archived_case entry;
  entry.name = instance;
  entry.raw_metrics = raw_metrics;
  entry.launches = capture.launches;
  entry.passes = capture.passes;
  entry.dropped_ranges = capture.dropped_ranges;
  entry.image = capture.image;
  archive.cases.push_back(std::move(entry));
  std::array<char, 16> name{};
  std::snprintf(name.data(), name.size(), "%04d", archive_index);
  save_counter_data_archive(std::filesystem::path(m_directory) / name.data(), archive);
}

}  // namespace counterguard
