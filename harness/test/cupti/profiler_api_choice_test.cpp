// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "counterguard/core/error.hpp"
#include "counterguard/cupti/profiler_session.hpp"

namespace counterguard::detail {
namespace {

TEST(profiler_api_choice, the_session_api_unless_the_range_profiler_is_asked_for) {
  ::unsetenv("COUNTERGUARD_PROFILER_API");
  EXPECT_TRUE(session_api_chosen());
  ::setenv("COUNTERGUARD_PROFILER_API", "session", 1);
  EXPECT_TRUE(session_api_chosen());
  ::setenv("COUNTERGUARD_PROFILER_API", "range", 1);
  EXPECT_FALSE(session_api_chosen());
  ::setenv("COUNTERGUARD_PROFILER_API", "ranges", 1);
  try {
    static_cast<void>(session_api_chosen());
    FAIL() << "an unknown API was accepted";
  } catch (const input_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("COUNTERGUARD_PROFILER_API"), std::string::npos) << message;
    EXPECT_NE(message.find("'ranges'"), std::string::npos) << message;
    EXPECT_NE(message.find("session (the default) or range"), std::string::npos) << message;
  }
  ::unsetenv("COUNTERGUARD_PROFILER_API");
}

}  // namespace
}  // namespace counterguard::detail
