// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/core/source_location.hpp"
#include "counterguard/model/launch_context.hpp"
#include "counterguard/model/name_pattern.hpp"
#include "counterguard/model/process_identity.hpp"

namespace counterguard {

// Which NVTX ranges a launch must be inside.
struct nvtx_selector {
  std::string domain;  // empty: the default domain
  // push/pop (the default): range name patterns, outermost first, that must be open as a consecutive run on
  // the launching thread's stack of `domain`, anywhere in it (ranges outside the run and ranges nested
  // deeper may be open too); an element "**" stands for any number of ranges.
  // start/end: one pattern, matched against the start/end ranges of `domain` open in the process.
  std::vector<name_pattern> path;
  bool start_end = false;

  [[nodiscard]] bool matches(const nvtx_context& context) const;
  // "NVTX 'step/forward'", "NVTX 'MyLib@step'", "NVTX start/end range 'epoch*'".
  [[nodiscard]] std::string describe() const;
};

// Which processes a selector applies to.
struct process_selector {
  std::optional<std::int64_t> rank;
  std::optional<name_pattern> executable;  // matched against the executable's path and its file name

  [[nodiscard]] bool matches(const process_identity& process) const;
  [[nodiscard]] bool is_any() const { return !rank && !executable; }
};

// Which kernel launches of an unmodified program a case measures (`select:` in a suite, docs/exec.md):
// those whose name and NVTX context match, counted per process in launch order. The first `launch_skip`
// matches run unprofiled, the ones after them are profiled, at most `launch_count` when it is given and
// never more than `max_launches`.
struct launch_selector {
  static constexpr std::int64_t default_max_launches = 64;

  std::optional<name_pattern> kernel;
  std::optional<nvtx_selector> nvtx;
  process_selector process;
  std::int64_t launch_skip = 0;
  std::optional<std::int64_t> launch_count;
  std::int64_t max_launches = default_max_launches;
  source_location where;  // the `select:` in the suite file

  // Whether a launch with these names and NVTX context matches (ordinals aside).
  [[nodiscard]] bool matches(const kernel_names& names, const nvtx_context& context) const;
  // Whether the kernel pattern matches any of the names (true without one): the part a binary can check.
  [[nodiscard]] bool matches_kernel(const kernel_names& names) const;
  // How many matches, counted from the first one after the skipped ones, are profiled.
  [[nodiscard]] std::int64_t profiled_limit() const;
  // "kernel 'reduce*' inside NVTX 'step', launch 3": how reports name the selection.
  [[nodiscard]] std::string describe() const;
};

// The selector as the instructions file for the injection library carries it, and back. from_json throws
// input_error naming `file` and the field for a malformed document.
[[nodiscard]] nlohmann::json launch_selector_to_json(const launch_selector& selector);
[[nodiscard]] launch_selector launch_selector_from_json(const nlohmann::json& document,
                                                        const std::string& file, const std::string& field);

}  // namespace counterguard
