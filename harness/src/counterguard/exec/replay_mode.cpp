// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/replay_mode.hpp"

namespace counterguard {

const char* to_string(replay_mode mode) {
  switch (mode) {
    case replay_mode::automatic:
      return "auto";
    case replay_mode::kernel:
      return "kernel";
    case replay_mode::application:
      return "application";
  }
  return "auto";
}

std::optional<replay_mode> parse_replay_mode(const std::string& text) {
  for (const replay_mode mode : {replay_mode::automatic, replay_mode::kernel, replay_mode::application}) {
    if (text == to_string(mode))
      return mode;
  }
  return std::nullopt;
}

}  // namespace counterguard
