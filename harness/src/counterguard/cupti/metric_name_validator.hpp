// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace counterguard {

// Knows every metric name a chip supports, through the CUPTI host API (no GPU needed).
class metric_name_validator {
 public:
  explicit metric_name_validator(std::string chip);  // "GH100"; throws input_error for an unknown chip

  [[nodiscard]] const std::string& chip() const { return m_chip; }
  // Whether CUPTI accepts the full name (base metric plus rollup/submetric) for this chip.
  [[nodiscard]] bool is_valid(const std::string& metric) const;
  // The closest valid full names, nearest first, for "did you mean" messages.
  [[nodiscard]] std::vector<std::string> suggestions(const std::string& metric, std::size_t count = 3) const;
  // Base metric names (counters, ratios, throughputs) the chip supports.
  [[nodiscard]] const std::vector<std::string>& base_metrics() const { return m_base_metrics; }
  // The rollups/submetrics (".sum", ".avg.pct_of_peak_sustained_active", ".ratio", ...) valid after `base`;
  // empty for an unknown base.
  [[nodiscard]] std::vector<std::string> suffixes(const std::string& base) const;
  // How many replay passes collecting `metrics` together takes on this chip; input_error naming the invalid
  // names (with suggestions) when CUPTI refuses the set.
  [[nodiscard]] int pass_count(const std::vector<std::string>& metrics) const;

  // Chips the installed CUPTI knows.
  [[nodiscard]] static std::vector<std::string> supported_chips();

 private:
  std::string m_chip;
  std::vector<std::string> m_base_metrics;
  // Every base's valid suffixes, as an index into m_suffix_sets (bases of one metric type share one set).
  std::map<std::string, std::size_t> m_suffix_set_of_base;
  std::vector<std::set<std::string>> m_suffix_sets;
};

}  // namespace counterguard
