// SPDX-License-Identifier: Apache-2.0
// Which launches of a process each case profiles, launch by launch: ordinals among matches, skip and count,
// the bound, several cases on one launch, processes a case does not apply to.
#include "counterguard/exec/launch_selection.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

exec_case_request request(const std::string& name, const std::string& kernel, std::vector<std::string> raw) {
  exec_case_request r;
  r.name = name;
  r.selector.kernel = name_pattern::glob(kernel);
  r.raw_metrics = std::move(raw);
  return r;
}

// A synthetic launch sequence: returns, per launch, the indices of the cases that profile it.
std::vector<std::vector<std::size_t>> run(launch_selection& selection,
                                          const std::vector<std::string>& kernels,
                                          const nvtx_context& context = {}) {
  std::vector<std::vector<std::size_t>> decisions;
  for (const auto& kernel : kernels)
    decisions.push_back(selection.decide(names_of_kernel(kernel), context).cases);
  return decisions;
}

TEST(launch_selection, ordinals_count_matches_only) {
  exec_case_request third = request("s/third", "reduce", {"a.sum"});
  third.selector.launch_skip = 2;
  third.selector.launch_count = 1;
  launch_selection selection({third}, process_identity{});
  const auto decisions = run(selection, {"init", "reduce", "scan", "reduce", "reduce", "reduce"});
  const std::vector<std::vector<std::size_t>> expected{{}, {}, {}, {}, {0}, {}};
  EXPECT_EQ(decisions, expected);
  EXPECT_EQ(selection.matches(0), 4);
  EXPECT_EQ(selection.profiled(0), 1);
}

TEST(launch_selection, max_launches_bounds_what_is_profiled_and_the_rest_runs_unprofiled) {
  exec_case_request bounded = request("s/b", "k", {});
  bounded.selector.max_launches = 2;
  launch_selection selection({bounded}, process_identity{});
  const auto decisions = run(selection, {"k", "k", "k", "k"});
  EXPECT_EQ(decisions[0].size(), 1U);
  EXPECT_EQ(decisions[1].size(), 1U);
  EXPECT_TRUE(decisions[2].empty());
  EXPECT_TRUE(decisions[3].empty());
  EXPECT_EQ(selection.matches(0), 4);
  EXPECT_EQ(selection.profiled(0), 2);
}

TEST(launch_selection, a_launch_wanted_by_several_cases_collects_the_union_of_their_counters) {
  launch_selection selection(
      {request("s/a", "k*", {"x.sum", "y.sum"}), request("s/b", "kernel", {"y.sum", "z.max"}),
       request("s/c", "other", {"w.sum"})},
      process_identity{});
  const launch_selection::decision decision = selection.decide(names_of_kernel("kernel"), {});
  EXPECT_EQ(decision.cases, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(decision.ordinals, (std::vector<std::int64_t>{0, 0}));
  EXPECT_EQ(decision.raw_metrics, (std::vector<std::string>{"x.sum", "y.sum", "z.max"}));
  EXPECT_TRUE(decision.profiled());
  EXPECT_FALSE(selection.decide(names_of_kernel("unrelated"), {}).profiled());
}

TEST(launch_selection, the_process_configuration_is_the_union_of_the_counters_of_the_cases_that_apply_here) {
  exec_case_request rank1 = request("s/r", "k", {"r.sum"});
  rank1.selector.process.rank = 1;
  process_identity rank0;
  rank0.rank = 0;
  const launch_selection selection(
      {request("s/a", "k*", {"y.sum", "x.sum"}), request("s/b", "other", {"y.sum", "z.max"}), rank1}, rank0);
  EXPECT_EQ(selection.process_raw_metrics(), (std::vector<std::string>{"x.sum", "y.sum", "z.max"}));
}

TEST(launch_selection, a_case_that_keeps_its_own_counters_is_profiled_with_them_alone) {
  // A noisy metric's value depends on the configuration it is collected in, so its case's launches get
  // exactly its counters, as `run` gives them; every other launch gets the process's one configuration.
  exec_case_request noisy = request("s/noisy", "staged", {"a.sum"});
  noisy.own_configuration = true;
  launch_selection selection({noisy, request("s/other", "plain", {"b.sum", "c.sum"})}, process_identity{});
  ASSERT_EQ(selection.process_raw_metrics(), (std::vector<std::string>{"a.sum", "b.sum", "c.sum"}));
  const launch_selection::decision staged = selection.decide(names_of_kernel("staged"), {});
  EXPECT_TRUE(staged.own_configuration);
  EXPECT_EQ(staged.configuration(selection.process_raw_metrics()), (std::vector<std::string>{"a.sum"}));
  const launch_selection::decision plain = selection.decide(names_of_kernel("plain"), {});
  EXPECT_FALSE(plain.own_configuration);
  EXPECT_EQ(plain.configuration(selection.process_raw_metrics()), selection.process_raw_metrics());
}

TEST(launch_selection, nvtx_context_decides_with_the_name) {
  exec_case_request in_step = request("s/a", "k", {});
  nvtx_selector nvtx;
  nvtx.path.push_back(name_pattern::glob("step"));
  in_step.selector.nvtx = nvtx;
  launch_selection selection({in_step}, process_identity{});
  nvtx_context step;
  step.stacks.push_back({"", {"main", "step"}});
  EXPECT_FALSE(selection.decide(names_of_kernel("k"), {}).profiled());
  EXPECT_TRUE(selection.decide(names_of_kernel("k"), step).profiled());
  EXPECT_EQ(selection.matches(0), 1);  // the launch outside the range was no match
}

TEST(launch_selection, a_case_for_another_rank_profiles_nothing_here) {
  exec_case_request rank1 = request("s/a", "k", {});
  rank1.selector.process.rank = 1;
  process_identity rank0;
  rank0.rank = 0;
  launch_selection here({rank1}, rank0);
  EXPECT_FALSE(here.any_case_applies());
  EXPECT_FALSE(here.decide(names_of_kernel("k"), {}).profiled());
  EXPECT_EQ(here.matches(0), 0);
  process_identity one;
  one.rank = 1;
  launch_selection there({rank1}, one);
  EXPECT_TRUE(there.any_case_applies());
  EXPECT_TRUE(there.decide(names_of_kernel("k"), {}).profiled());
}

}  // namespace
}  // namespace counterguard
