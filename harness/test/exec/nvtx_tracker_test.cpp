// SPDX-License-Identifier: Apache-2.0
// What the injection knows of a process's NVTX ranges: per-thread push/pop stacks per domain, domain names,
// registered strings and process-wide start/end ranges.
#include "counterguard/exec/nvtx_tracker.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace counterguard {
namespace {

TEST(nvtx_tracker, push_and_pop_keep_one_stack_per_domain) {
  nvtx_registry registry;
  nvtx_thread_stacks stacks;
  stacks.push("", "main");
  stacks.push("Lib", "solve");
  stacks.push("", "step");
  stacks.pop("Lib");
  stacks.push("Lib", "factor");
  const nvtx_context context = stacks.snapshot(registry);
  EXPECT_EQ(context.ranges_of(""), (std::vector<std::string>{"main", "step"}));
  EXPECT_EQ(context.ranges_of("Lib"), (std::vector<std::string>{"factor"}));
  EXPECT_EQ(context.describe(), "main/step; Lib@factor");
}

TEST(nvtx_tracker, a_pop_with_nothing_open_is_ignored) {
  nvtx_registry registry;
  nvtx_thread_stacks stacks;
  stacks.pop("");
  stacks.push("", "a");
  stacks.pop("");
  stacks.pop("");
  EXPECT_TRUE(stacks.snapshot(registry).stacks.empty());
  EXPECT_EQ(stacks.snapshot(registry).describe(), "(none)");
}

TEST(nvtx_tracker, domains_and_registered_strings_are_named_by_handle) {
  nvtx_registry registry;
  registry.name_domain(0x10, "Trainer");
  registry.register_string(0x20, "forward");
  EXPECT_EQ(registry.domain_name(0x10), "Trainer");
  EXPECT_EQ(registry.domain_name(0), "");
  EXPECT_EQ(registry.domain_name(0x99), "");
  EXPECT_EQ(registry.registered_string(0x20), "forward");
  EXPECT_EQ(registry.registered_string(0x21), "<unregistered string>");
}

TEST(nvtx_tracker, start_end_ranges_are_seen_by_every_thread_until_they_end) {
  nvtx_registry registry;
  registry.name_domain(0x10, "Trainer");
  registry.start_range(7, 0x10, "epoch 1");
  registry.start_range(8, 0, "warmup");
  nvtx_context seen_elsewhere;
  std::thread([&] { seen_elsewhere = nvtx_thread_stacks{}.snapshot(registry); }).join();
  ASSERT_EQ(seen_elsewhere.start_end.size(), 2U);
  EXPECT_EQ(seen_elsewhere.start_end[0].domain, "Trainer");
  EXPECT_EQ(seen_elsewhere.start_end[0].name, "epoch 1");
  registry.end_range(7);
  registry.end_range(99);  // unknown ids are ignored
  const nvtx_context after = nvtx_thread_stacks{}.snapshot(registry);
  ASSERT_EQ(after.start_end.size(), 1U);
  EXPECT_EQ(after.start_end[0].name, "warmup");
}

}  // namespace
}  // namespace counterguard
