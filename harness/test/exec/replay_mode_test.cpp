// SPDX-License-Identifier: Apache-2.0
// The replay modes' names.
#include "counterguard/exec/replay_mode.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

TEST(replay_mode, names_parse_back) {
  for (const replay_mode mode : {replay_mode::automatic, replay_mode::kernel, replay_mode::application})
    EXPECT_EQ(parse_replay_mode(to_string(mode)), mode);
  EXPECT_FALSE(parse_replay_mode("user"));
}

}  // namespace
}  // namespace counterguard
