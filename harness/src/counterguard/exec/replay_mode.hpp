// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>

namespace counterguard {

// How `exec` collects counters that need more than one pass (docs/exec.md "Speed"):
//   automatic    one run in which each process chooses launch by launch (exec/automatic_replay.hpp): CUPTI
//                kernel-replays a multi-pass launch while that stays cheap, otherwise its first one-pass
//                group is collected and the rest by further runs of the program, one per group
//   kernel       one run; CUPTI replays each profiled launch once per pass, saving and restoring the device
//                memory the program holds between passes (the cost grows with that memory)
//   application  one run of the program per pass group, each collecting one group: every profiled launch is
//                one pass with no restore; the runs' launches are matched and merged
enum class replay_mode { automatic, kernel, application };

[[nodiscard]] const char* to_string(replay_mode mode);  // "auto", "kernel", "application"
// "auto", "kernel" or "application"; nullopt for anything else.
[[nodiscard]] std::optional<replay_mode> parse_replay_mode(const std::string& text);

}  // namespace counterguard
