// SPDX-License-Identifier: Apache-2.0
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
  std::string place;     // "kernels.cu:111": the user's line (docs/blame.md)
  std::string sass;      // the line's instruction that carries (or changed) most: "STS [R7], R8", "PC 01f0"
  std::string metric;    // a blame metric: "shared_excess_wavefronts"
  std::optional<std::uint64_t> before;
  std::uint64_t after = 0;
  // The fields below are initialised, so that a line brace-initialised with the ones above stays complete.
  // Its inline chain, the user's line first: {"kernels.cu:111", "device_atomic_functions.hpp:226"} for an
  // instruction of an inlined atomicAdd; one place when nothing is inlined; empty in results written before.
  std::vector<std::string> chain = {};
  // Memory instruction opcodes the line lost and gained against the per-line baseline ("RED.E.ADD.64..." ->
  // "ATOMG.E.ADD.64..."): a change of instruction kind, also when the counters are the same. Empty: none.
  std::vector<std::string> opcodes_before = {};
  std::vector<std::string> opcodes_after = {};
  // The file of `place` as the compiler recorded it ("/src/app/kernels.cu"), which places the line in a
  // repository (reporters/findings.hpp); empty in results written before, or for a line only a per-line
  // baseline has.
  std::string file = {};
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

// "transpose.cu:34  STS [R7], R8  shared excess wavefronts 0 -> 4063232" (no "0 ->" without a before); an
// inlined line shows its chain ("kernels.cu:111 -> device_atomic_functions.hpp:226  ...") and a change of
// instruction kind what changed ("... instruction kinds RED.E.ADD.64.STRONG.GPU -> ATOMG.E.ADD.64.STRONG.GPU,
// global sectors 32768 (unchanged)").
[[nodiscard]] std::string describe_blamed_line(const blamed_source_line& line);
// The line's place with its chain: "kernels.cu:111 -> device_atomic_functions.hpp:226", or "transpose.cu:34".
[[nodiscard]] std::string describe_blamed_place(const blamed_source_line& line);
// "instruction kinds RED.E.ADD.64.STRONG.GPU -> ATOMG.E.ADD.64.STRONG.GPU", "new instruction kinds STL", or
// "" when the kinds did not change.
[[nodiscard]] std::string describe_kind_change(const blamed_source_line& line);

}  // namespace counterguard
