#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace counterguard {

class json_reader;

// One source line a blamed case points at: a per-instruction counter of that line, before (from the per-line
// baseline, when it has the case) and now.
struct blamed_source_line {
  std::string function;  // demangled, without parameters
  std::string place;     // "transpose.cu:34"
  std::string sass;      // the line's instruction that carries (or changed) most: "STS [R7], R8", "PC 01f0"
  std::string metric;    // a blame metric: "shared_excess_wavefronts"
  std::optional<std::uint64_t> before;
  std::uint64_t after = 0;
};

// Source-line blame of a case (`run --blame`, and automatically for a regressed exact metric): which lines
// and instructions the regressed counters come from (docs/blame.md).
struct case_blame {
  std::vector<std::string>
      regressed;                     // the failing metrics that asked for it ("shared_store_bank_conflicts")
  std::vector<std::string> metrics;  // the blame metrics shown for them
  bool against_baseline = false;     // lines carry `before` from the per-line baseline
  std::vector<blamed_source_line> lines;
  std::string note;  // why there is nothing to show (no GPU metrics, no per-instruction counterpart, ...)
};

[[nodiscard]] nlohmann::json case_blame_to_json(const case_blame& blame);
// `path` is the field path of the blame object in `in`'s file ("cases[3].blame").
[[nodiscard]] case_blame case_blame_from_json(const json_reader& in, const nlohmann::json& value,
                                              const std::string& path);

// "transpose.cu:34  STS [R7], R8  shared excess wavefronts 0 -> 4063232" (no "0 ->" without a before).
[[nodiscard]] std::string describe_blamed_line(const blamed_source_line& line);

}  // namespace counterguard
