// SPDX-License-Identifier: Apache-2.0
#include "counterguard/results/run_results.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

run_results sample_results() {
  run_results results;
  results.metadata.counterguard_version = "0.1.0";
  results.metadata.device.name = "NVIDIA H200";
  results.metadata.device.chip = "GH100";
  results.metadata.device.sm_count = 132;
  results.metadata.device.compute_capability = 90;
  results.metadata.device.driver_version = "580.65";
  results.metadata.device.cuda_runtime_version = "13.0";
  results.metadata.device.cupti_version = "13.0.48";
  results.metadata.device.sm_clock_mhz = 1980;
  results.metadata.device.memory_clock_mhz = 3201;
  results.metadata.gpu_key = "GH100-132sm-cuda13";
  results.metadata.git_commit = "abc123";
  results.metadata.command_line = "counterguard run cases/";
  results.metadata.started_at = "2025-01-02T03:04:05Z";
  results.metadata.mode = "run";

  case_result c;
  c.instance = "transpose/smem?pad=1,n=2048";
  c.suite = "transpose";
  c.case_name = "smem";
  c.kernel = "transpose_smem";
  c.parameters = {{"pad", "1"}, {"n", "2048"}};
  c.status = case_status::failed;
  c.status_reason = "regression";
  c.verified = true;
  c.verification_message = "max error 0";
  kernel_measurement k;
  k.function = "counterguard::kernels::transpose::smem";
  k.mangled = "_ZN12counterguard7kernels9transpose4smemEv";
  k.launch_index = 0;
  k.metrics = {{"shared_store_bank_conflicts", 0.0}, {"global_load_sectors_per_request", 4.0}};
  c.kernels.push_back(k);
  c.totals["shared_store_bank_conflicts"] = {0.0, metric_class::exact};
  c.totals["duration_ns"] = {12345.5, metric_class::noisy};
  check_outcome check;
  check.metric = "duration_ns";
  check.origin = "baseline";
  check.expected = "10000 in [9000, 11000]";
  check.measured = 12345.5;
  check.baseline = 10000.0;
  check.verdict = check_verdict::regression;
  check.failing = true;
  check.message = "too slow";
  c.checks.push_back(check);
  c.passes = 3;
  c.seconds = 1.25;
  results.cases.push_back(c);

  case_result skipped;
  skipped.instance = "dsmem/cluster";
  skipped.suite = "dsmem";
  skipped.case_name = "cluster";
  skipped.kernel = "dsmem_cluster";
  skipped.status = case_status::skipped;
  skipped.status_reason = "needs sm_90";
  results.cases.push_back(skipped);
  return results;
}

run_results round_trip(const run_results& results) {
  const nlohmann::json json = results;
  return nlohmann::json::parse(json.dump()).get<run_results>();
}

TEST(run_results_json, round_trip_gives_the_same_json) {
  const run_results original = sample_results();
  const nlohmann::json first = original;
  const nlohmann::json second = round_trip(original);
  EXPECT_EQ(first, second);
}

TEST(run_results_json, why_a_launch_lacks_a_metric_reads_back_and_is_absent_when_nothing_lacks) {
  run_results results = sample_results();
  ASSERT_FALSE(results.cases.at(0).kernels.empty());
  EXPECT_FALSE(nlohmann::json(results)["cases"][0]["kernels"][0].contains("unmeasured"));
  results.cases.at(0).kernels.at(0).unmeasured["spill_store_bytes"] = "the driver does not state it";
  const run_results back = round_trip(results);
  EXPECT_EQ(back.cases.at(0).kernels.at(0).unmeasured.at("spill_store_bytes"),
            "the driver does not state it");
}

TEST(run_results_json, round_trip_keeps_every_case_field) {
  const run_results back = round_trip(sample_results());
  ASSERT_EQ(back.cases.size(), 2U);
  const case_result& c = back.cases[0];
  EXPECT_EQ(c.instance, "transpose/smem?pad=1,n=2048");
  EXPECT_EQ(c.case_name, "smem");
  EXPECT_EQ(c.parameters.at("n"), "2048");
  EXPECT_EQ(c.status, case_status::failed);
  EXPECT_EQ(c.verified, std::optional<bool>(true));
  ASSERT_EQ(c.kernels.size(), 1U);
  EXPECT_EQ(c.kernels[0].metrics.at("global_load_sectors_per_request"), 4.0);
  EXPECT_EQ(c.totals.at("duration_ns").cls, metric_class::noisy);
  ASSERT_EQ(c.checks.size(), 1U);
  EXPECT_EQ(c.checks[0].verdict, check_verdict::regression);
  EXPECT_EQ(c.checks[0].baseline, std::optional<double>(10000.0));
  EXPECT_EQ(c.passes, 3);
  EXPECT_FALSE(back.cases[1].verified.has_value());
  EXPECT_EQ(back.metadata.gpu_key, "GH100-132sm-cuda13");
  EXPECT_EQ(back.metadata.device.sm_count, 132);
}

TEST(run_results_json, uses_the_documented_field_names) {
  const nlohmann::json json = sample_results();
  EXPECT_EQ(json.at("schema_version"), results_schema_version);
  const auto& c = json.at("cases").at(0);
  for (const char* key :
       {"instance", "suite", "case", "kernel", "parameters", "status", "status_reason", "verified",
        "verification_message", "kernels", "totals", "checks", "passes", "seconds"}) {
    EXPECT_TRUE(c.contains(key)) << key;
  }
  EXPECT_EQ(c.at("status"), "failed");
  EXPECT_EQ(c.at("totals").at("duration_ns").at("class"), "noisy");
  EXPECT_EQ(c.at("kernels").at(0).at("metrics").at("shared_store_bank_conflicts"), 0.0);
  EXPECT_EQ(c.at("checks").at(0).at("verdict"), "regression");
}

TEST(run_results_json, round_trip_keeps_source_locations_and_hostname) {
  run_results results = sample_results();
  results.metadata.hostname = "gpu-runner-7";
  results.cases[0].source = source_location{"cases/transpose.yaml", 20, 5};
  results.cases[0].checks[0].source = source_location{"cases/transpose.yaml", 27, 9};
  const nlohmann::json json = results;
  EXPECT_EQ(json.at("metadata").at("hostname"), "gpu-runner-7");
  EXPECT_EQ(json.at("cases").at(0).at("source"),
            (nlohmann::json{{"file", "cases/transpose.yaml"}, {"line", 20}, {"column", 5}}));
  EXPECT_EQ(json.at("cases").at(0).at("checks").at(0).at("source").at("line"), 27);
  const run_results back = round_trip(results);
  EXPECT_EQ(back.metadata.hostname, "gpu-runner-7");
  ASSERT_TRUE(back.cases[0].source.has_value());
  EXPECT_EQ(back.cases[0].source->line, 20);
  ASSERT_TRUE(back.cases[0].checks[0].source.has_value());
  EXPECT_EQ(back.cases[0].checks[0].source->file, "cases/transpose.yaml");
  EXPECT_EQ(back.cases[0].checks[0].source->column, 9);
}

TEST(run_results_json, source_locations_and_hostname_are_optional) {
  const nlohmann::json json = sample_results();  // none set
  EXPECT_FALSE(json.at("metadata").contains("hostname"));
  EXPECT_FALSE(json.at("cases").at(0).contains("source"));
  EXPECT_FALSE(json.at("cases").at(0).at("checks").at(0).contains("source"));
  const run_results back = round_trip(sample_results());
  EXPECT_FALSE(back.cases[0].source.has_value());
  EXPECT_FALSE(back.cases[0].checks[0].source.has_value());
  EXPECT_EQ(back.metadata.hostname, "");
}

TEST(run_results_json, rejects_a_malformed_source_naming_the_field) {
  nlohmann::json json = sample_results();
  json["cases"][0]["checks"][0]["source"] = {{"file", "cases/t.yaml"}, {"line", "twelve"}};
  try {
    (void)json.get<run_results>();
    FAIL() << "expected an input_error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("cases[0].checks[0].source.line"), std::string::npos) << e.what();
  }
}

TEST(run_results_json, writes_nan_as_null_and_reads_it_back_as_nan) {
  run_results results = sample_results();
  results.cases[0].kernels[0].metrics["l2_hit_rate"] = std::numeric_limits<double>::quiet_NaN();
  const nlohmann::json json = results;
  EXPECT_TRUE(json.at("cases").at(0).at("kernels").at(0).at("metrics").at("l2_hit_rate").is_null());
  EXPECT_TRUE(std::isnan(round_trip(results).cases[0].kernels[0].metrics.at("l2_hit_rate")));
}

TEST(run_results_json, rejects_an_unknown_status_naming_the_field) {
  nlohmann::json json = sample_results();
  json["cases"][1]["status"] = "flaky";
  try {
    (void)json.get<run_results>();
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_EQ(e.field(), "cases[1].status");
    EXPECT_NE(std::string(e.what()).find("passed, failed, skipped, error"), std::string::npos);
  }
}

TEST(run_results_json, rejects_a_newer_schema_version) {
  nlohmann::json json = sample_results();
  json["schema_version"] = results_schema_version + 1;
  EXPECT_THROW((void)json.get<run_results>(), input_error);
}

TEST(run_results_json, rejects_a_missing_field) {
  nlohmann::json json = sample_results();
  json["cases"][0].erase("totals");
  try {
    (void)json.get<run_results>();
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_EQ(e.field(), "cases[0].totals");
  }
}

TEST(status_names, are_the_json_spellings) {
  EXPECT_STREQ(to_string(case_status::skipped), "skipped");
  EXPECT_STREQ(to_string(check_verdict::new_metric), "new_metric");
}

}  // namespace
}  // namespace counterguard

namespace counterguard {
namespace {

case_blame sample_blame() {
  case_blame blame;
  blame.regressed = {"shared_store_bank_conflicts"};
  blame.metrics = {"shared_excess_wavefronts", "shared_wavefronts"};
  blame.against_baseline = true;
  blame.lines.push_back({"counterguard::kernels::transpose::smem_tile", "transpose.cu:34", "STS [R7], R8",
                         "shared_excess_wavefronts", 0U, 4063232U});
  blame.lines.push_back({"counterguard::kernels::transpose::smem_tile", "transpose.cu:40", "LDS R9, [R8]",
                         "shared_wavefronts", std::nullopt, 262144U});
  return blame;
}

TEST(run_results_json, round_trip_keeps_a_cases_source_line_blame) {
  run_results results = sample_results();
  results.cases[0].blame = sample_blame();
  const nlohmann::json json = results;
  EXPECT_FALSE(json.at("cases").at(1).contains("blame")) << "written only for blamed cases";
  const auto& line = json.at("cases").at(0).at("blame").at("lines").at(0);
  EXPECT_EQ(line.at("place"), "transpose.cu:34");
  EXPECT_EQ(line.at("before"), 0);
  EXPECT_TRUE(json.at("cases").at(0).at("blame").at("lines").at(1).at("before").is_null());
  const run_results back = round_trip(results);
  ASSERT_TRUE(back.cases[0].blame.has_value());
  EXPECT_EQ(nlohmann::json(back), json);
  EXPECT_EQ(describe_blamed_line(back.cases[0].blame->lines[0]),
            "transpose.cu:34  STS [R7], R8  shared excess wavefronts 0 -> 4063232");
  EXPECT_EQ(describe_blamed_line(back.cases[0].blame->lines[1]),
            "transpose.cu:40  LDS R9, [R8]  shared wavefronts 262144");
}

TEST(run_results_json, a_blamed_line_keeps_the_file_of_its_place_and_results_without_it_still_read) {
  run_results results = sample_results();
  case_blame blame = sample_blame();
  blame.lines[0].file = "/src/app/kernels/transpose/transpose.cu";
  results.cases[0].blame = blame;
  const nlohmann::json json = results;
  EXPECT_EQ(json.at("cases").at(0).at("blame").at("lines").at(0).at("file"),
            "/src/app/kernels/transpose/transpose.cu");
  EXPECT_FALSE(json.at("cases").at(0).at("blame").at("lines").at(1).contains("file")) << "written when known";
  EXPECT_EQ(round_trip(results).cases[0].blame->lines[0].file, "/src/app/kernels/transpose/transpose.cu");
  EXPECT_EQ(round_trip(results).cases[0].blame->lines[1].file, "");
}

TEST(run_results_json, a_blamed_line_keeps_its_inline_chain_and_change_of_instruction_kind) {
  run_results results = sample_results();
  case_blame blame = sample_blame();
  blamed_source_line& line = blame.lines[0];
  line.place = "kernels.cu:111";
  line.chain = {"kernels.cu:111", "device_atomic_functions.hpp:226"};
  line.sass = "ATOMG.E.ADD.64.STRONG.GPU PT, R2, desc[UR6][R2.64], R4";
  line.metric = "global_sectors";
  line.before = 32768U;
  line.after = 32768U;
  line.opcodes_before = {"RED.E.ADD.64.STRONG.GPU"};
  line.opcodes_after = {"ATOMG.E.ADD.64.STRONG.GPU"};
  results.cases[0].blame = blame;
  const run_results back = round_trip(results);
  const blamed_source_line& again = back.cases[0].blame->lines[0];
  EXPECT_EQ(again.chain, line.chain);
  EXPECT_EQ(again.opcodes_after, line.opcodes_after);
  EXPECT_EQ(
      describe_blamed_line(again),
      "kernels.cu:111 -> device_atomic_functions.hpp:226  ATOMG.E.ADD.64.STRONG.GPU PT, R2, "
      "desc[UR6][R2.64], "
      "R4  instruction kinds RED.E.ADD.64.STRONG.GPU -> ATOMG.E.ADD.64.STRONG.GPU, global sectors 32768 "
      "(unchanged)");
}

TEST(run_results_json, a_blame_written_before_inline_chains_still_reads) {
  nlohmann::json json = sample_results();
  json["cases"][0]["blame"] = case_blame_to_json(sample_blame());
  for (auto& line : json["cases"][0]["blame"]["lines"]) {
    line.erase("chain");
    line.erase("opcodes_before");
    line.erase("opcodes_after");
  }
  const run_results back = read_run_results(json, "old.json");
  ASSERT_TRUE(back.cases[0].blame.has_value());
  EXPECT_TRUE(back.cases[0].blame->lines[0].chain.empty());
  EXPECT_EQ(describe_blamed_line(back.cases[0].blame->lines[0]),
            "transpose.cu:34  STS [R7], R8  shared excess wavefronts 0 -> 4063232");
}

TEST(run_results_json, a_malformed_blame_names_its_field) {
  nlohmann::json json = sample_results();
  json["cases"][0]["blame"] = case_blame_to_json(sample_blame());
  json["cases"][0]["blame"]["lines"][0]["after"] = "many";
  try {
    static_cast<void>(read_run_results(json, "r.json"));
    FAIL() << "accepted a string count";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("cases[0].blame.lines[0].after"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace counterguard
