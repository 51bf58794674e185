// SPDX-License-Identifier: Apache-2.0
// Which GPUs a profiling command chooses from --devices, --device and ctest's assignment.
#include "counterguard/pipeline/device_choice.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

TEST(device_choice, parses_all_and_lists_of_ordinals) {
  EXPECT_TRUE(parse_device_list("all").all);
  EXPECT_EQ(parse_device_list("0,1").ordinals, (std::vector<int>{0, 1}));
  EXPECT_EQ(parse_device_list("3, 1").ordinals, (std::vector<int>{3, 1}));
  EXPECT_EQ(parse_device_list("2").ordinals, (std::vector<int>{2}));
}

TEST(device_choice, refuses_malformed_lists_and_repeated_devices) {
  for (const std::string text : {"", "0,", "x", "0;1", "-1", "1,1", "al"}) {
    EXPECT_THROW(static_cast<void>(parse_device_list(text)), input_error) << text;
  }
}

TEST(device_choice, a_devices_list_wins_over_the_device_option) {
  device_options options;
  options.device = 5;
  options.device_given = true;
  options.devices = "2,0";
  EXPECT_EQ(chosen_devices(options), (std::vector<int>{2, 0}));
}

TEST(device_choice, a_device_given_on_the_command_line_is_the_only_device) {
  device_options options;
  options.device = 3;
  options.device_given = true;
  EXPECT_EQ(chosen_devices(options), (std::vector<int>{3}));
}

TEST(device_choice, a_malformed_devices_list_is_an_input_error_when_devices_are_chosen) {
  device_options options;
  options.devices = "1,1";
  EXPECT_THROW(static_cast<void>(chosen_devices(options)), input_error);
}

TEST(device_choice, a_malformed_devices_list_is_an_input_error_as_soon_as_the_lookup_is_made) {
  device_options options;
  options.devices = "0,x";
  EXPECT_THROW(device_lookup{options}, input_error);
}

TEST(device_choice, without_devices_the_lookup_gives_the_device_option_and_no_uuids) {
  device_options options;
  options.device = 4;
  options.device_given = true;
  const device_lookup lookup(options);
  EXPECT_EQ(lookup.get().devices, (std::vector<int>{4}));
  EXPECT_TRUE(lookup.get().uuids.empty());
}

}  // namespace
}  // namespace counterguard
