// SPDX-License-Identifier: Apache-2.0
// The devices of --devices all and the GPU ctest assigns through resource groups.
#include "counterguard/runner/device_selection.hpp"

#include <gtest/gtest.h>

#include <map>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

TEST(device_selection, without_a_gpu_all_resolves_to_no_device) {
  // This machine (and CI) has no GPU; on a GPU host the list is 0..count-1.
  device_list every;
  every.all = true;
  const auto devices = resolve_devices(every);
  for (std::size_t i = 0; i < devices.size(); ++i)
    EXPECT_EQ(devices[i], static_cast<int>(i));
}

std::optional<int> assigned(const std::map<std::string, std::string>& environment) {
  return ctest_assigned_device([&](const char* name) -> const char* {
    const auto found = environment.find(name);
    return found == environment.end() ? nullptr : found->second.c_str();
  });
}

TEST(device_selection, reads_the_gpu_ctest_assigned_to_the_test) {
  EXPECT_EQ(assigned({{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                      {"CTEST_RESOURCE_GROUP_0", "gpus"},
                      {"CTEST_RESOURCE_GROUP_0_GPUS", "id:1,slots:1"}}),
            1);
  EXPECT_EQ(assigned({{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                      {"CTEST_RESOURCE_GROUP_0_GPUS", "id:3,slots:1;id:2,slots:1"}}),
            3);
}

TEST(device_selection, no_resource_group_means_no_assignment) {
  EXPECT_EQ(assigned({}), std::nullopt);
  EXPECT_EQ(assigned({{"CTEST_RESOURCE_GROUP_0_GPUS", "id:1,slots:1"}}), std::nullopt);
  EXPECT_EQ(assigned({{"CTEST_RESOURCE_GROUP_COUNT", "1"}, {"CTEST_RESOURCE_GROUP_0", "licenses"}}),
            std::nullopt);
}

TEST(device_selection, an_id_that_is_not_an_ordinal_is_an_input_error_naming_the_variable) {
  try {
    static_cast<void>(
        assigned({{"CTEST_RESOURCE_GROUP_COUNT", "1"}, {"CTEST_RESOURCE_GROUP_0_GPUS", "id:gpu_a,slots:1"}}));
    FAIL();
  } catch (const input_error& e) {
    EXPECT_EQ(e.field(), "CTEST_RESOURCE_GROUP_0_GPUS");
  }
}

}  // namespace
}  // namespace counterguard
