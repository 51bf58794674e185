#pragma once

#include <string>
#include <vector>

namespace counterguard {

// Knows every metric name a chip supports, through the CUPTI host API (no GPU needed).
class metric_name_validator {
 public:
  explicit metric_name_validator(std::string chip);  // "GH100"; throws api_error for an unknown chip

  [[nodiscard]] const std::string& chip() const { return m_chip; }
  // Whether CUPTI accepts the full name (base metric plus rollup/submetric) for this chip.
  [[nodiscard]] bool is_valid(const std::string& metric) const;
  // The closest valid full names, nearest first, for "did you mean" messages.
  [[nodiscard]] std::vector<std::string> suggestions(const std::string& metric, std::size_t count = 3) const;
  // Base metric names (counters, ratios, throughputs) the chip supports.
  [[nodiscard]] const std::vector<std::string>& base_metrics() const { return m_base_metrics; }
  // How many replay passes collecting `metrics` together takes on this chip.
  [[nodiscard]] int pass_count(const std::vector<std::string>& metrics) const;

  // Chips the installed CUPTI knows.
  [[nodiscard]] static std::vector<std::string> supported_chips();

 private:
  std::string m_chip;
  std::vector<std::string> m_base_metrics;
};

}  // namespace counterguard
