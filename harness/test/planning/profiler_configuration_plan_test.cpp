// SPDX-License-Identifier: Apache-2.0
#include "counterguard/planning/profiler_configuration_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/evaluator/counter_data_archive.hpp"

namespace counterguard {
namespace {

using metric_sets = std::vector<std::vector<std::string>>;

// A chip where metric "pK_name" is collected in pass K: a set needs as many passes as distinct K it names.
int fake_passes(const std::vector<std::string>& metrics) {
  std::set<std::string> passes;
  for (const auto& metric : metrics)
    passes.insert(metric.substr(0, metric.find('_')));
  return static_cast<int>(std::max<std::size_t>(1, passes.size()));
}

bool contains_all(const std::vector<std::string>& configuration, const std::vector<std::string>& metrics) {
  return std::all_of(metrics.begin(), metrics.end(), [&](const std::string& metric) {
    return std::find(configuration.begin(), configuration.end(), metric) != configuration.end();
  });
}

// What every plan must satisfy: each set is collected by a configuration holding all its metrics, with the
// pass count the counter gives for that configuration, within the set's bound.
void expect_valid(const metric_sets& sets, const profiler_configuration_plan& plan,
                  const pass_counter& passes) {
  ASSERT_EQ(plan.configuration_of.size(), sets.size());
  for (std::size_t i = 0; i < sets.size(); ++i) {
    if (sets[i].empty()) {
      EXPECT_EQ(plan.configuration_of[i], -1);
      continue;
    }
    ASSERT_GE(plan.configuration_of[i], 0);
    ASSERT_LT(plan.configuration_of[i], static_cast<int>(plan.configurations.size()));
    const profiler_configuration& configuration =
        plan.configurations[static_cast<std::size_t>(plan.configuration_of[i])];
    EXPECT_TRUE(contains_all(configuration.raw_metrics, sets[i])) << "set " << i;
    EXPECT_LE(configuration.passes, allowed_passes(passes(sets[i]))) << "set " << i;
  }
  for (const auto& configuration : plan.configurations) {
    EXPECT_TRUE(std::is_sorted(configuration.raw_metrics.begin(), configuration.raw_metrics.end()));
    EXPECT_EQ(configuration.passes, passes(configuration.raw_metrics));
  }
}

TEST(profiler_configuration_plan, allowed_passes_is_twice_or_two_more) {
  EXPECT_EQ(allowed_passes(1), 3);
  EXPECT_EQ(allowed_passes(2), 4);
  EXPECT_EQ(allowed_passes(3), 6);
  EXPECT_EQ(allowed_passes(5), 10);
}

TEST(profiler_configuration_plan, sets_without_counters_get_no_configuration) {
  const metric_sets sets{{}, {}};
  const auto plan = plan_profiler_configurations(sets, fake_passes);
  EXPECT_TRUE(plan.configurations.empty());
  EXPECT_EQ(plan.configuration_of, (std::vector<int>{-1, -1}));
}

TEST(profiler_configuration_plan, sets_whose_union_stays_within_every_bound_share_one_configuration) {
  const metric_sets sets{{"p1_b", "p1_a"}, {}, {"p2_c"}, {"p1_a"}, {"p2_c", "p1_b"}};
  const auto plan = plan_profiler_configurations(sets, fake_passes);
  ASSERT_EQ(plan.configurations.size(), 1U);
  EXPECT_EQ(plan.configurations[0].raw_metrics, (std::vector<std::string>{"p1_a", "p1_b", "p2_c"}));
  EXPECT_EQ(plan.configurations[0].passes, 2);
  EXPECT_EQ(plan.configuration_of, (std::vector<int>{0, -1, 0, 0, 0}));
  expect_valid(sets, plan, fake_passes);
}

TEST(profiler_configuration_plan, a_union_past_a_sets_bound_is_split) {
  // One pass each; together four, past the three a one-pass set may take.
  const metric_sets sets{{"p4_d"}, {"p3_c"}, {"p2_b"}, {"p1_a"}};
  const auto plan = plan_profiler_configurations(sets, fake_passes);
  ASSERT_EQ(plan.configurations.size(), 2U);
  EXPECT_EQ(plan.configurations[0].raw_metrics, (std::vector<std::string>{"p1_a", "p2_b", "p3_c"}));
  EXPECT_EQ(plan.configurations[0].passes, 3);
  EXPECT_EQ(plan.configurations[1].raw_metrics, (std::vector<std::string>{"p4_d"}));
  EXPECT_EQ(plan.configuration_of, (std::vector<int>{1, 0, 0, 0}));
  expect_valid(sets, plan, fake_passes);
}

TEST(profiler_configuration_plan, a_cheap_set_does_not_join_an_expensive_one_it_is_part_of) {
  // {p1_a} alone takes one pass; inside the five-pass set it would take five (bound: three).
  const metric_sets sets{{"p1_a", "p2_b", "p3_c", "p4_d", "p5_e"}, {"p1_a"}, {"p3_x", "p4_y", "p5_z"}};
  const auto plan = plan_profiler_configurations(sets, fake_passes);
  ASSERT_EQ(plan.configurations.size(), 2U);
  EXPECT_EQ(plan.configuration_of[0], plan.configuration_of[2]);  // three passes may become five (of six)
  EXPECT_NE(plan.configuration_of[0], plan.configuration_of[1]);
  EXPECT_EQ(plan.configurations[static_cast<std::size_t>(plan.configuration_of[1])].passes, 1);
  expect_valid(sets, plan, fake_passes);
}

TEST(profiler_configuration_plan, the_same_sets_in_any_order_give_the_same_configurations) {
  metric_sets sets{{"p1_a"}, {"p2_b", "p1_c"}, {"p3_c"}, {"p4_d", "p5_e"}, {"p6_f"}, {"p1_a", "p7_g"}, {}};
  const auto reference = plan_profiler_configurations(sets, fake_passes);
  std::mt19937 random(7);
  for (int round = 0; round < 20; ++round) {
    std::shuffle(sets.begin(), sets.end(), random);
    metric_sets repeated = sets;
    repeated.push_back(sets.front());
    const auto plan = plan_profiler_configurations(repeated, fake_passes);
    ASSERT_EQ(plan.configurations.size(), reference.configurations.size());
    for (std::size_t c = 0; c < plan.configurations.size(); ++c) {
      EXPECT_EQ(plan.configurations[c].raw_metrics, reference.configurations[c].raw_metrics);
      EXPECT_EQ(plan.configurations[c].passes, reference.configurations[c].passes);
    }
    EXPECT_EQ(plan.configuration_of.back(), plan.configuration_of.front());
    expect_valid(repeated, plan, fake_passes);
  }
}

TEST(profiler_configuration_plan, asks_the_pass_counter_once_per_distinct_set) {
  std::map<std::vector<std::string>, int> asked;
  const pass_counter counting = [&](const std::vector<std::string>& metrics) {
    ++asked[metrics];
    return fake_passes(metrics);
  };
  const metric_sets sets{{"p1_a"}, {"p1_a"}, {"p2_b"}, {"p3_c"}, {"p4_d"}, {"p2_b"}};
  static_cast<void>(plan_profiler_configurations(sets, counting));
  for (const auto& [metrics, times] : asked)
    EXPECT_EQ(times, 1) << metrics.front() << " and " << metrics.size() - 1 << " more";
}

TEST(profiler_configuration_plan, random_sets_always_get_a_valid_plan) {
  std::mt19937 random(12);
  for (int round = 0; round < 200; ++round) {
    metric_sets sets(std::uniform_int_distribution<int>(1, 12)(random));
    for (auto& set : sets) {
      const int size = std::uniform_int_distribution<int>(0, 4)(random);
      for (int m = 0; m < size; ++m) {
        set.push_back(
            "p" + std::to_string(std::uniform_int_distribution<int>(1, 6)(random)) + "_" +
            std::string(1, static_cast<char>('a' + std::uniform_int_distribution<int>(0, 5)(random))));
      }
    }
    expect_valid(sets, plan_profiler_configurations(sets, fake_passes), fake_passes);
  }
}

// The built-in suite's metric sets as the H200 recording holds them, planned with the CUPTI host's pass
// counts for GH100 (no GPU needed).
TEST(profiler_configuration_plan, the_builtin_suite_on_gh100) {
  const std::filesystem::path recording =
      std::filesystem::path(COUNTERGUARD_SOURCE_DIR) / "harness/test/fixtures/h200_builtin";
  metric_sets sets;
  std::vector<std::string> names;
  std::vector<int> recorded_passes;
  std::vector<std::filesystem::path> archives;  // 0000, 0001, ...: the run's order
  for (const auto& entry : std::filesystem::directory_iterator(recording)) {
    if (entry.is_directory())
      archives.push_back(entry.path());
  }
  std::sort(archives.begin(), archives.end());
  for (const auto& archive : archives) {
    for (auto& recorded : load_counter_data_archive(archive).cases) {
      names.push_back(recorded.name);
      sets.push_back(recorded.raw_metrics);
      recorded_passes.push_back(recorded.passes);
    }
  }
  ASSERT_GE(sets.size(), 90U);
  const metric_name_validator validator("GH100");
  const pass_counter gh100 = [&](const std::vector<std::string>& metrics) {
    return validator.pass_count(metrics);
  };
  const auto planning = std::chrono::steady_clock::now();
  const auto plan = plan_profiler_configurations(sets, gh100);
  const double planning_ms =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - planning).count() * 1e3;
  expect_valid(sets, plan, gh100);

  std::set<std::vector<std::string>> distinct(sets.begin(), sets.end());
  std::printf("%zu case instances, %zu distinct metric sets, %zu configurations (planned in %.0f ms)\n",
              sets.size(), distinct.size(), plan.configurations.size(), planning_ms);
  for (std::size_t c = 0; c < plan.configurations.size(); ++c) {
    std::size_t members = 0;
    int most_own = 0;
    for (std::size_t i = 0; i < sets.size(); ++i) {
      if (plan.configuration_of[i] == static_cast<int>(c)) {
        ++members;
        most_own = std::max(most_own, gh100(sets[i]));
      }
    }
    std::printf("configuration %zu: %zu raw metrics, %d passes, %zu instances (the most passes alone: %d)\n",
                c, plan.configurations[c].raw_metrics.size(), plan.configurations[c].passes, members,
                most_own);
    for (const auto& metric : plan.configurations[c].raw_metrics)
      std::printf("  %s\n", metric.c_str());
  }
  // In the recording's order (the order `run cases/` hands them to one worker): how often it switches.
  int switches = 0;
  int previous = -1;
  std::string order;
  for (const int c : plan.configuration_of) {
    if (c >= 0 && previous >= 0 && c != previous)
      ++switches;
    if (c >= 0)
      previous = c;
    order += c < 0 ? "-" : std::to_string(c);
  }
  std::printf("configurations in run order: %s (%d switches)\n", order.c_str(), switches);
  // The host's pass counts are the ones the H200 reported for each set.
  for (std::size_t i = 0; i < sets.size(); ++i) {
    if (!sets[i].empty()) {
      EXPECT_EQ(gh100(sets[i]), recorded_passes[i]) << names[i];
    }
  }
  // The stricter bound: no set needs more passes than alone.
  const auto no_extra = plan_profiler_configurations(sets, gh100, [](int own) { return own; });
  expect_valid(sets, no_extra, gh100);
  std::printf("with no extra passes: %zu configurations\n", no_extra.configurations.size());
  // Far fewer configurations than metric sets: few profiler switches per run.
  EXPECT_LT(plan.configurations.size(), distinct.size() / 2);
}

}  // namespace
}  // namespace counterguard
