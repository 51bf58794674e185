// SPDX-License-Identifier: Apache-2.0
#include "injection_options.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace counterguard::injection {
namespace {

using environment = std::map<std::string, std::string>;

injection_options read(const environment& variables) {
  return read_injection_options(
      [](const char* name, const void* context) -> const char* {
        const auto& map = *static_cast<const environment*>(context);
        const auto found = map.find(name);
        return found == map.end() ? nullptr : found->second.c_str();
      },
      &variables);
}

TEST(injection_options, defaults_reuse_the_image) {
  const injection_options options = read({});
  EXPECT_EQ(options.reuse, setup_reuse::image);
  EXPECT_EQ(options.problem, "");
}

TEST(injection_options, reads_each_setup) {
  EXPECT_EQ(read({{"COUNTERGUARD_INJECTION_SETUP", "full"}}).reuse, setup_reuse::none);
  EXPECT_EQ(read({{"COUNTERGUARD_INJECTION_SETUP", "image"}}).reuse, setup_reuse::image);
  EXPECT_EQ(read({{"COUNTERGUARD_INJECTION_SETUP", "config"}}).reuse, setup_reuse::config);
  EXPECT_EQ(read({{"COUNTERGUARD_INJECTION_SETUP", ""}}).reuse, setup_reuse::image);
  EXPECT_STREQ(setup_reuse_name(setup_reuse::none), "full");
  EXPECT_STREQ(setup_reuse_name(setup_reuse::config), "config");
}

TEST(injection_options, names_a_wrong_value_and_keeps_the_default) {
  const injection_options options = read({{"COUNTERGUARD_INJECTION_SETUP", "fast"}});
  EXPECT_EQ(options.reuse, setup_reuse::image);
  EXPECT_EQ(options.problem,
            "COUNTERGUARD_INJECTION_SETUP='fast' is not one of full, image, config; using image");
}

}  // namespace
}  // namespace counterguard::injection
