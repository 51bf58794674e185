// SPDX-License-Identifier: Apache-2.0
// Which launches a selector matches: kernel names (glob, regex, exact; base, qualified, demangled and mangled
// names), NVTX push/pop paths and start/end ranges with domains, processes; and its JSON for the injection.
#include "counterguard/model/launch_selector.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

// void ns::reduce<256>(float const*, float*, int)
const std::string reduce_symbol = "_ZN2ns6reduceILi256EEEvPKfPfi";

nvtx_context stack(std::vector<std::string> ranges, const std::string& domain = "") {
  nvtx_context context;
  context.stacks.push_back({domain, std::move(ranges)});
  return context;
}

launch_selector by_kernel(name_pattern pattern) {
  launch_selector selector;
  selector.kernel = std::move(pattern);
  return selector;
}

launch_selector by_nvtx(std::vector<std::string> path, const std::string& domain = "",
                        bool start_end = false) {
  launch_selector selector;
  nvtx_selector nvtx;
  nvtx.domain = domain;
  nvtx.start_end = start_end;
  for (auto& element : path)
    nvtx.path.push_back(name_pattern::glob(element));
  selector.nvtx = std::move(nvtx);
  return selector;
}

TEST(kernel_names, a_mangled_symbol_answers_to_base_qualified_demangled_and_mangled_names) {
  const kernel_names names = names_of_kernel(reduce_symbol);
  EXPECT_EQ(names.base, "reduce");
  EXPECT_EQ(names.unqualified, "reduce<256>");
  EXPECT_EQ(names.function, "ns::reduce<256>");
  EXPECT_EQ(names.demangled, "void ns::reduce<256>(float const*, float*, int)");
  EXPECT_EQ(names.mangled, reduce_symbol);
  const kernel_names c_name = names_of_kernel("vecAdd");
  EXPECT_EQ(c_name.base, "vecAdd");
  EXPECT_EQ(c_name.function, "vecAdd");
}

TEST(kernel_names, an_anonymous_namespace_is_a_namespace_like_any_other) {
  // (anonymous namespace)::transpose_tiled<32>(float const*, float*, int)
  const kernel_names names = names_of_kernel("_ZN12_GLOBAL__N_115transpose_tiledILi32EEEvPKfPfi");
  EXPECT_EQ(names.function, "(anonymous namespace)::transpose_tiled<32>");
  EXPECT_EQ(names.unqualified, "transpose_tiled<32>");
  EXPECT_EQ(names.base, "transpose_tiled");
}

TEST(launch_selector, a_glob_matches_any_of_the_names) {
  const kernel_names names = names_of_kernel(reduce_symbol);
  for (const char* pattern :
       {"reduce", "reduce<256>", "red*", "ns::reduce<*>", "ns::*", "void ns::reduce<256>(*)", "_ZN2ns*"}) {
    EXPECT_TRUE(by_kernel(name_pattern::glob(pattern)).matches(names, {})) << pattern;
  }
  for (const char* pattern : {"reduc", "ns::reduce", "sum*", "*max*"})
    EXPECT_FALSE(by_kernel(name_pattern::glob(pattern)).matches(names, {})) << pattern;
}

TEST(launch_selector, a_regex_may_match_anywhere_unless_anchored) {
  const kernel_names names = names_of_kernel(reduce_symbol);
  EXPECT_TRUE(by_kernel(name_pattern::regex("duc")).matches(names, {}));
  EXPECT_TRUE(by_kernel(name_pattern::regex("^reduce$")).matches(names, {}));
  EXPECT_FALSE(by_kernel(name_pattern::regex("^duce")).matches(names, {}));
  EXPECT_THROW((void)name_pattern::regex("("), std::regex_error);
}

TEST(launch_selector, an_exact_pattern_treats_wildcards_literally) {
  EXPECT_TRUE(name_pattern::exact("t/smem?pad=1,n=[2]").matches("t/smem?pad=1,n=[2]"));
  EXPECT_FALSE(name_pattern::exact("t/smem?pad=1").matches("t/smemXpad=1"));
  EXPECT_TRUE(name_pattern::glob("t/smem?pad=1").matches("t/smemXpad=1"));
}

TEST(launch_selector, an_nvtx_path_is_a_consecutive_run_anywhere_in_the_stack) {
  const nvtx_context context = stack({"main", "step", "forward", "attention"});
  EXPECT_TRUE(by_nvtx({"step"}).matches({}, context));
  EXPECT_TRUE(by_nvtx({"step", "forward"}).matches({}, context));
  EXPECT_TRUE(by_nvtx({"forward", "attention"}).matches({}, context));
  EXPECT_TRUE(by_nvtx({"st*", "f*"}).matches({}, context));
  EXPECT_FALSE(by_nvtx({"step", "attention"}).matches({}, context));
  EXPECT_FALSE(by_nvtx({"backward"}).matches({}, context));
  EXPECT_FALSE(by_nvtx({"step"}).matches({}, nvtx_context{}));
}

TEST(launch_selector, a_double_star_stands_for_any_number_of_ranges) {
  const nvtx_context context = stack({"main", "step", "forward", "attention"});
  EXPECT_TRUE(by_nvtx({"step", "**", "attention"}).matches({}, context));
  EXPECT_TRUE(by_nvtx({"main", "**", "step"}).matches({}, context));  // zero ranges in between
  EXPECT_FALSE(by_nvtx({"attention", "**", "step"}).matches({}, context));
}

TEST(launch_selector, nvtx_domains_keep_their_own_stacks) {
  nvtx_context context = stack({"outer"});
  context.stacks.push_back({"MyLib", {"inner"}});
  EXPECT_TRUE(by_nvtx({"inner"}, "MyLib").matches({}, context));
  EXPECT_FALSE(by_nvtx({"inner"}).matches({}, context));
  EXPECT_FALSE(by_nvtx({"outer"}, "MyLib").matches({}, context));
  EXPECT_EQ(context.describe(), "outer; MyLib@inner");
}

TEST(launch_selector, start_end_ranges_are_matched_process_wide) {
  nvtx_context context;
  context.start_end.push_back({"", "epoch 3"});
  context.start_end.push_back({"Trainer", "warmup"});
  EXPECT_TRUE(by_nvtx({"epoch*"}, "", true).matches({}, context));
  EXPECT_TRUE(by_nvtx({"warmup"}, "Trainer", true).matches({}, context));
  EXPECT_FALSE(by_nvtx({"warmup"}, "", true).matches({}, context));
  EXPECT_FALSE(by_nvtx({"epoch*"}).matches({}, context));  // not a push/pop range
  EXPECT_EQ(context.describe(), "[epoch 3]; [Trainer@warmup]");
}

TEST(launch_selector, kernel_and_nvtx_must_both_match) {
  launch_selector selector = by_nvtx({"step"});
  selector.kernel = name_pattern::glob("reduce");
  EXPECT_TRUE(selector.matches(names_of_kernel(reduce_symbol), stack({"step"})));
  EXPECT_FALSE(selector.matches(names_of_kernel(reduce_symbol), stack({"init"})));
  EXPECT_FALSE(selector.matches(names_of_kernel("other"), stack({"step"})));
  EXPECT_TRUE(selector.matches_kernel(names_of_kernel(reduce_symbol)));
}

TEST(launch_selector, processes_are_selected_by_rank_and_executable) {
  process_identity rank1;
  rank1.rank = 1;
  rank1.executable = "/opt/app/bin/trainer";
  process_identity plain;
  plain.executable = "/usr/bin/python3";
  process_selector by_rank;
  by_rank.rank = 1;
  EXPECT_TRUE(by_rank.matches(rank1));
  EXPECT_FALSE(by_rank.matches(plain));
  process_selector by_name;
  by_name.executable = name_pattern::glob("train*");
  EXPECT_TRUE(by_name.matches(rank1));  // the file name
  by_name.executable = name_pattern::glob("/opt/*");
  EXPECT_TRUE(by_name.matches(rank1));  // the path
  EXPECT_FALSE(by_name.matches(plain));
  EXPECT_TRUE(process_selector{}.matches(plain));
}

TEST(launch_selector, describe_names_every_part) {
  launch_selector selector = by_nvtx({"step", "fwd"}, "Lib");
  selector.kernel = name_pattern::regex("^reduce");
  selector.launch_skip = 3;
  selector.launch_count = 1;
  selector.process.rank = 0;
  EXPECT_EQ(selector.describe(), "kernel regex '^reduce', inside NVTX 'Lib@step/fwd', launch 3, rank 0");
}

TEST(launch_selector, json_round_trips_every_field) {
  launch_selector selector = by_nvtx({"step", "**"}, "Lib", false);
  selector.kernel = name_pattern::regex("^reduce");
  selector.nvtx->path.push_back(name_pattern::exact("a?b"));
  selector.launch_skip = 2;
  selector.launch_count = 5;
  selector.max_launches = 7;
  selector.process.rank = 3;
  selector.process.executable = name_pattern::glob("*app");
  selector.where = {"s.yaml", 4, 13};
  const launch_selector back =
      launch_selector_from_json(launch_selector_to_json(selector), "instructions.json", "cases[0].selector");
  EXPECT_EQ(back.describe(), selector.describe());
  EXPECT_TRUE(back.kernel->is_regex());
  ASSERT_EQ(back.nvtx->path.size(), 3U);
  EXPECT_TRUE(back.nvtx->path[2].is_exact());
  EXPECT_EQ(back.max_launches, 7);
  EXPECT_EQ(back.where.to_string(), "s.yaml:4:13");
  EXPECT_TRUE(back.matches(names_of_kernel(reduce_symbol), stack({"step", "x", "a?b"}, "Lib")));
}

TEST(launch_selector, malformed_json_is_an_input_error_naming_the_field) {
  nlohmann::json document = launch_selector_to_json(by_kernel(name_pattern::glob("k")));
  document["max_launches"] = 0;
  try {
    (void)launch_selector_from_json(document, "instructions.json", "cases[0].selector");
    ADD_FAILURE();
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("cases[0].selector.max_launches"), std::string::npos) << e.what();
  }
}

TEST(process_identity, the_rank_comes_from_the_first_launcher_variable_set) {
  process_identity identity;
  read_rank_from_environment(identity, [](const char* name) -> const char* {
    const std::string variable(name);
    if (variable == "PMI_RANK")
      return "not a number";
    return variable == "SLURM_PROCID" ? "7" : nullptr;
  });
  EXPECT_EQ(identity.rank, 7);
  EXPECT_EQ(identity.rank_variable, "SLURM_PROCID");
  process_identity none;
  read_rank_from_environment(none, [](const char*) -> const char* { return nullptr; });
  EXPECT_FALSE(none.rank.has_value());
}

TEST(process_identity, json_round_trips) {
  process_identity identity;
  identity.pid = 42;
  identity.parent_pid = 1;
  identity.executable = "/bin/app";
  identity.argv = {"./app", "-n", "3"};
  identity.rank = 2;
  identity.rank_variable = "OMPI_COMM_WORLD_RANK";
  identity.started_ns = 123;
  const process_identity back =
      process_identity_from_json(process_identity_to_json(identity), "p.json", "process");
  EXPECT_EQ(back.argv, identity.argv);
  EXPECT_EQ(back.rank, 2);
  EXPECT_EQ(describe_process(back), "rank 2 (pid 42, ./app)");
}

}  // namespace
}  // namespace counterguard
