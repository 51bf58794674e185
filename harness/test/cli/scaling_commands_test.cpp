// SPDX-License-Identifier: Apache-2.0
// Past one GPU, end to end on a CPU: `evaluate --shard` over the H200 recording, `counterguard merge`,
// `run --shard` and `run --devices all` without a GPU, and `counterguard list`.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

const std::string recording = "harness/test/fixtures/h200_builtin";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

nlohmann::json read_json(const std::filesystem::path& path) {
  return nlohmann::json::parse(read_text(path));
}

// The cases of a results file as they compare between runs: without the wall time.
nlohmann::json cases_without_timing(nlohmann::json document) {
  for (auto& c : document["cases"])
    c.erase("seconds");
  return document["cases"];
}

std::string evaluate_shard(const scratch_directory& dir, int index, int count) {
  const auto out = dir.path() / ("shard" + std::to_string(index) + ".json");
  const command_result r =
      run_counterguard("evaluate " + recording + " --cases cases --quiet --shard " + std::to_string(index) +
                       "/" + std::to_string(count) + " --json " + out.string());
  EXPECT_EQ(r.status, 0) << r.output;
  return out.string();
}

TEST(scaling_commands, three_evaluated_shards_merge_into_the_unsharded_evaluation) {
  const scratch_directory dir;
  const auto whole = dir.path() / "whole.json";
  ASSERT_EQ(
      run_counterguard("evaluate " + recording + " --cases cases --quiet --json " + whole.string()).status,
      0);
  const std::string shards =
      evaluate_shard(dir, 3, 3) + " " + evaluate_shard(dir, 1, 3) + " " + evaluate_shard(dir, 2, 3);
  const auto merged = dir.path() / "merged.json";
  const command_result r = run_counterguard("merge --quiet --json " + merged.string() + " --junit " +
                                            (dir.path() / "merged.xml").string() + " --markdown " +
                                            (dir.path() / "merged.md").string() + " --html " +
                                            (dir.path() / "merged.html").string() + " " + shards);
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json expected = read_json(whole);
  const nlohmann::json actual = read_json(merged);
  ASSERT_EQ(actual["cases"].size(), 93U);
  EXPECT_EQ(actual["cases"], expected["cases"]) << "same cases, checks and recorded times, in suite order";
  EXPECT_EQ(actual["summary"], expected["summary"]);
  EXPECT_FALSE(actual["metadata"].contains("shard"));
  EXPECT_EQ(actual["metadata"]["gpu_key"], "GH100-132sm-cuda13");
  EXPECT_TRUE(contains(read_text(dir.path() / "merged.xml"), "transpose/smem_unpadded?n=2048"));
  EXPECT_TRUE(contains(read_text(dir.path() / "merged.md"), "93"));
  EXPECT_TRUE(std::filesystem::file_size(dir.path() / "merged.html") > 10000);
}

TEST(scaling_commands, shards_are_disjoint_cover_every_instance_and_are_the_same_every_time) {
  const scratch_directory dir;
  std::set<std::string> seen;
  std::size_t total = 0;
  std::set<std::string> plans;
  for (int index = 1; index <= 4; ++index) {
    const nlohmann::json shard = read_json(evaluate_shard(dir, index, 4));
    EXPECT_EQ(shard["metadata"]["shard"]["index"], index);
    EXPECT_EQ(shard["metadata"]["shard"]["count"], 4);
    EXPECT_EQ(shard["metadata"]["shard"]["instances"], 93);
    plans.insert(shard["metadata"]["shard"]["plan"].get<std::string>());
    for (const auto& c : shard["cases"]) {
      EXPECT_TRUE(seen.insert(c["instance"].get<std::string>()).second) << c["instance"] << " in two shards";
      ++total;
    }
    EXPECT_GE(shard["cases"].size(), 15U) << "balanced by recorded time, not by luck";
  }
  EXPECT_EQ(total, 93U);
  EXPECT_EQ(plans.size(), 1U);
  // Again: every instance in the same shard.
  const nlohmann::json first = read_json(evaluate_shard(dir, 2, 4));
  const nlohmann::json again = read_json(evaluate_shard(dir, 2, 4));
  EXPECT_EQ(cases_without_timing(first), cases_without_timing(again));
}

TEST(scaling_commands, merge_refuses_results_of_different_gpu_keys_naming_the_files) {
  const scratch_directory dir;
  const std::string one = evaluate_shard(dir, 1, 2);
  const std::string two = evaluate_shard(dir, 2, 2);
  nlohmann::json other = read_json(two);
  other["metadata"]["gpu_key"] = "AD102-142sm-cuda13";
  const auto foreign = dir.write("foreign.json", other.dump());
  const command_result r = run_counterguard("merge --json " + (dir.path() / "m.json").string() + " " + one +
                                            " " + foreign.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "foreign.json")) << r.output;
  EXPECT_TRUE(contains(r.output, one)) << r.output;
  EXPECT_TRUE(contains(r.output, "AD102-142sm-cuda13")) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "m.json"));
}

TEST(scaling_commands, merge_refuses_overlapping_instances_and_missing_shards) {
  const scratch_directory dir;
  const std::string one = evaluate_shard(dir, 1, 2);
  const auto whole = dir.path() / "whole.json";
  ASSERT_EQ(
      run_counterguard("evaluate " + recording + " --cases cases --quiet --json " + whole.string()).status,
      0);
  nlohmann::json part = read_json(whole);
  part["cases"] = nlohmann::json::array({part["cases"][0]});
  const auto first = dir.write("first.json", part.dump());
  const auto again = dir.write("again.json", part.dump());
  command_result r = run_counterguard("merge --json " + (dir.path() / "m.json").string() + " " +
                                      first.string() + " " + again.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "first.json") && contains(r.output, "again.json")) << r.output;
  r = run_counterguard("merge --json " + (dir.path() / "m.json").string() + " " + one);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "missing shards: 2/2")) << r.output;
}

TEST(scaling_commands, merge_expecting_shards_names_the_missing_ones_and_writes_nothing) {
  const scratch_directory dir;
  const std::string three = evaluate_shard(dir, 3, 4);
  const std::string one = evaluate_shard(dir, 1, 4);
  const auto merged = dir.path() / "m.json";
  command_result r =
      run_counterguard("merge --expect-shards 4 --json " + merged.string() + " " + one + " " + three);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "missing shards: 2/4, 4/4")) << r.output;
  r = run_counterguard("merge --expect-shards 4 --json " + merged.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "missing shards: 1/4, 2/4, 3/4, 4/4")) << r.output;
  r = run_counterguard("merge --expect-shards 3 --json " + merged.string() + " " + one);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "1/4 is not one of --expect-shards 3")) << r.output;
  EXPECT_FALSE(std::filesystem::exists(merged));
}

TEST(scaling_commands, merge_exits_as_run_would_for_the_whole) {
  const scratch_directory dir;
  const std::string one = evaluate_shard(dir, 1, 2);
  nlohmann::json two = read_json(evaluate_shard(dir, 2, 2));
  auto& check = two["cases"][0]["checks"][0];
  check["verdict"] = "fail";
  check["failing"] = true;
  const auto failing = dir.write("failing.json", two.dump());
  const command_result r = run_counterguard("merge --json " + (dir.path() / "m.json").string() + " " + one +
                                            " " + failing.string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_EQ(read_json(dir.path() / "m.json")["summary"]["exit_code"], 1);
}

TEST(scaling_commands, recordings_made_in_shards_evaluate_into_shards_that_merge) {
  // What `run --shard I/2 --save-counter-data D` writes: run.json holds the shard's cases and record (the
  // archives of the other cases in the copied folder go unused: evaluate goes by run.json).
  const scratch_directory dir;
  const auto source = std::filesystem::path(COUNTERGUARD_SOURCE_DIR) / recording;
  const nlohmann::json run = read_json(source / "run.json");
  std::string shards;
  for (int index = 1; index <= 2; ++index) {
    const nlohmann::json shard = read_json(evaluate_shard(dir, index, 2));
    const auto copy = dir.path() / ("recording" + std::to_string(index));
    std::filesystem::copy(source, copy, std::filesystem::copy_options::recursive);
    nlohmann::json part = run;
    part["results"]["metadata"]["shard"] = shard["metadata"]["shard"];
    part["results"]["cases"] = nlohmann::json::array();
    for (const auto& position : shard["metadata"]["shard"]["positions"])
      part["results"]["cases"].push_back(run["results"]["cases"][position.get<std::size_t>()]);
    std::ofstream(copy / "run.json") << part.dump();
    const auto out = dir.path() / ("evaluated" + std::to_string(index) + ".json");
    const command_result r =
        run_counterguard("evaluate " + copy.string() + " --cases cases --quiet --json " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(read_json(out)["metadata"]["shard"], shard["metadata"]["shard"]);
    shards += " " + out.string();
  }
  const auto merged = dir.path() / "merged.json";
  ASSERT_EQ(run_counterguard("merge --quiet --json " + merged.string() + shards).status, 0);
  const auto whole = dir.path() / "whole.json";
  ASSERT_EQ(
      run_counterguard("evaluate " + recording + " --cases cases --quiet --json " + whole.string()).status,
      0);
  EXPECT_EQ(read_json(merged)["cases"], read_json(whole)["cases"]);
}

TEST(scaling_commands, a_shard_that_is_not_i_of_n_is_invalid_input) {
  const command_result r = run_counterguard("evaluate " + recording + " --cases cases --shard 4/3");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "--shard")) << r.output;
}

TEST(scaling_commands, run_shards_without_a_gpu_run_their_static_checks_and_record_the_shard) {
  const scratch_directory dir;
  std::size_t total = 0;
  for (int index = 1; index <= 2; ++index) {
    const auto out = dir.path() / ("run" + std::to_string(index) + ".json");
    const command_result r = run_counterguard("run cases/transpose.yaml --quiet --shard " +
                                              std::to_string(index) + "/2 --json " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json shard = read_json(out);
    EXPECT_EQ(shard["metadata"]["shard"]["instances"], 9);
    total += shard["cases"].size();
  }
  EXPECT_EQ(total, 9U);
  const auto merged = dir.path() / "merged.json";
  const command_result r =
      run_counterguard("merge --quiet --json " + merged.string() + " " + (dir.path() / "run2.json").string() +
                       " " + (dir.path() / "run1.json").string());
  ASSERT_EQ(r.status, 0) << r.output;
  const command_result listed = run_counterguard("list cases/transpose.yaml");
  std::string names;
  const nlohmann::json merged_results = read_json(merged);
  for (const auto& c : merged_results["cases"])
    names += c["instance"].get<std::string>() + "\n";
  EXPECT_EQ(names, listed.output) << "merged in suite order";
}

TEST(scaling_commands, devices_all_without_a_gpu_behaves_like_run_without_a_gpu) {
  command_result r = run_counterguard("run cases/transpose.yaml --quiet --devices all");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "no GPU profiling")) << r.output;
  r = run_counterguard("run cases/transpose.yaml --quiet --devices all --require-gpu");
  EXPECT_EQ(r.status, 3) << r.output;
  r = run_counterguard("run cases/transpose.yaml --devices 0,0");
  EXPECT_EQ(r.status, 2) << r.output;
  r = run_counterguard("run cases/transpose.yaml --devices 0 --device 1");
  EXPECT_EQ(r.status, 2) << r.output;
}

TEST(scaling_commands, a_ctest_gpu_id_that_is_not_an_ordinal_is_invalid_input) {
  // ctest sets these for a test with RESOURCE_GROUPS; the spec file's ids must be CUDA ordinals.
  const std::string command = std::string("cd '") + COUNTERGUARD_SOURCE_DIR +
                              "' && env CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0=gpus "
                              "CTEST_RESOURCE_GROUP_0_GPUS=id:gpu_a,slots:1 '" +
                              COUNTERGUARD_BINARY + "' run cases/transpose.yaml --quiet > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
}

TEST(scaling_commands, list_prints_every_instance_name_or_json_without_a_gpu) {
  command_result r = run_counterguard("list cases/transpose.yaml --filter 'transpose/smem_padded*'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, "transpose/smem_padded?n=1024\ntranspose/smem_padded?n=2048\n");
  r = run_counterguard("list cases --json -");
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json listed = nlohmann::json::parse(r.output);
  ASSERT_EQ(listed.size(), 94U);
  EXPECT_EQ(listed[0]["suite"], "atomics");
  EXPECT_TRUE(contains(listed[0]["file"].get<std::string>(), "atomics.yaml"));
}

TEST(scaling_commands, plan_prints_the_profiler_configurations_of_a_run_without_a_gpu) {
  command_result r = run_counterguard("plan cases --json -");
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json plan = nlohmann::json::parse(r.output);
  EXPECT_EQ(plan["chip"], "GH100");
  EXPECT_EQ(plan["sharing"], "hardware_stages");
  std::set<std::string> planned;
  std::string spills_stages;
  std::string constant_stages;
  for (const auto& configuration : plan["configurations"]) {
    EXPECT_GE(configuration["passes"].get<int>(), 1);
    for (const auto& name : configuration["cases"]) {
      EXPECT_TRUE(planned.insert(name.get<std::string>()).second) << name << " is in two configurations";
      if (name == "spills/maxrreg32")
        spills_stages = configuration["hardware_stages"].dump();
      if (name == "constant/lane_dependent")
        constant_stages = configuration["hardware_stages"].dump();
    }
  }
  for (const auto& name : plan["without_counters"])
    EXPECT_TRUE(planned.insert(name.get<std::string>()).second) << name;
  EXPECT_EQ(planned.size(), 94U) << "every instance once";
  // The spills' local bytes are instrumented counters (no hardware stage to replay); the constant cases keep
  // their hardware stages.
  EXPECT_EQ(spills_stages, "[]");
  EXPECT_EQ(constant_stages, R"(["idc__requests","smsp__inst"])");

  r = run_counterguard("plan cases/spills.yaml --filter 'spills/maxrreg*'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "1 profiler configuration for 2 case instances on chip GH100")) << r.output;
  EXPECT_TRUE(contains(r.output, "1 pass, 2 cases, hardware counter stages: none (instrumented only)"))
      << r.output;
  EXPECT_TRUE(contains(r.output, "  counter smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_ld.sum\n"))
      << r.output;
  EXPECT_TRUE(contains(r.output, "  case    spills/maxrreg32\n")) << r.output;

  ::setenv("COUNTERGUARD_PROFILER_CONFIGURATIONS", "per_case", 1);
  r = run_counterguard("plan cases --json -");
  ::unsetenv("COUNTERGUARD_PROFILER_CONFIGURATIONS");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_GT(nlohmann::json::parse(r.output)["configurations"].size(), plan["configurations"].size());
}

}  // namespace
}  // namespace counterguard::test
