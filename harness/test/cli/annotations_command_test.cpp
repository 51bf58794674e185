// SPDX-License-Identifier: Apache-2.0
// `--annotations FORMAT FILE` on a recorded regression: the H200 recording of the built-in suites evaluated
// against a baseline in which transpose/smem_unpadded?n=2048 had no bank conflicts (the padded kernel's), the
// regression blamed offline (`evaluate --blame-from`) from the per-instruction profile recorded on the H200
// (harness/test/fixtures/h200_blame/unpadded.json), joined to this build's kernels.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli_test_support.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;

const std::string source_dir = COUNTERGUARD_SOURCE_DIR;
const std::string instance = "transpose/smem_unpadded?n=2048";
const std::string conflicts_4063232 =
    "shared_store_bank_conflicts: {value: 4063232, class: exact, min: 4063232, max: 4063232";
const std::string conflicts_0 = "shared_store_bank_conflicts: {value: 0, class: exact, min: 0, max: 0";

// The committed baselines with the case's bank conflicts planted at 0 (without its per-line baselines, so
// the blame shows the lines carrying the conflicts now), and the case's recorded profile as a
// `blame --record-dir` directory.
class recorded_regression : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path baselines = m_scratch.path() / "baselines";
    fs::copy(source_dir + "/baselines", baselines, fs::copy_options::recursive);
    const fs::path transpose = baselines / "GH100-132sm-cuda13" / "transpose.yaml";
    std::string text = test::read_text(transpose);
    const auto block = text.find("  " + instance + ":");
    ASSERT_NE(block, std::string::npos);
    for (auto at = text.find(conflicts_4063232, block);
         at != std::string::npos && at < text.find("\n  t", block + 1); at = text.find(conflicts_4063232, at))
      text.replace(at, conflicts_4063232.size(), conflicts_0);
    std::ofstream(transpose) << text;
    fs::remove(baselines / "GH100-132sm-cuda13" / "transpose.lines.json");
    const fs::path profiles = m_scratch.path() / "profiles";
    fs::create_directories(profiles);
    fs::copy_file(source_dir + "/harness/test/fixtures/h200_blame/unpadded.json", profiles / "0000.json");
    std::ofstream(profiles / "index.json") << nlohmann::json{{instance, "0000.json"}}.dump();
  }

  // evaluate of the case with the planted regression, blamed from the profile, the findings placed under the
  // source tree.
  test::command_result evaluate(const std::string& reports) const {
    return test::run_counterguard("evaluate harness/test/fixtures/h200_builtin --filter '" + instance +
                                  "' --baseline-dir '" + (m_scratch.path() / "baselines").string() +
                                  "' --blame-from '" + (m_scratch.path() / "profiles").string() +
                                  "' --source-root '" + source_dir + "' " + reports);
  }

  [[nodiscard]] fs::path out(const std::string& name) const { return m_scratch.path() / name; }

 private:
  test::scratch_directory m_scratch;
};

std::vector<std::string> annotation_file_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

TEST_F(recorded_regression, the_blamed_regression_is_annotated_on_the_store_line_of_the_kernel_source) {
  const auto r = evaluate("--annotations github '" + out("annotations.txt").string() + "'");
  EXPECT_EQ(r.status, 1) << r.output;
  const auto lines = annotation_file_lines(test::read_text(out("annotations.txt")));
  ASSERT_FALSE(lines.empty()) << r.output;
  EXPECT_EQ(lines[0].rfind("::error file=kernels/transpose/transpose.cu,line=34,title=counterguard%3A "
                           "shared_store_bank_conflicts regressed in " +
                               instance + "::",
                           0),
            0U)
      << lines[0];
  EXPECT_NE(lines[0].find("shared_store_bank_conflicts: expected 0 (must stay 0), measured 4063232"),
            std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("shared excess wavefronts 4063232"), std::string::npos) << lines[0];
}

TEST_F(recorded_regression, the_regression_is_also_annotated_on_the_suite_line_of_the_expectation) {
  const auto r = evaluate("--annotations github '" + out("annotations.txt").string() + "'");
  EXPECT_EQ(r.status, 1) << r.output;
  const std::string text = test::read_text(out("annotations.txt"));
  // cases/transpose.yaml:32 states the case's bank conflicts.
  EXPECT_NE(text.find("::error file=cases/transpose.yaml,line=32,title=counterguard%3A shared_store_bank_"
                      "conflicts regressed in " +
                      instance + "::"),
            std::string::npos)
      << text;
}

TEST_F(recorded_regression, every_failing_check_is_a_code_quality_finding_on_its_source_line) {
  const auto r = evaluate("--annotations gitlab-code-quality '" + out("codequality.json").string() +
                          "' --json '" + out("results.json").string() + "'");
  EXPECT_EQ(r.status, 1) << r.output;
  const nlohmann::json report = nlohmann::json::parse(test::read_text(out("codequality.json")));
  const nlohmann::json results = nlohmann::json::parse(test::read_text(out("results.json")));
  std::vector<std::string> failing;
  for (const auto& check : results["cases"][0]["checks"]) {
    if (check["failing"].get<bool>())
      failing.push_back(check["metric"]);
  }
  ASSERT_FALSE(failing.empty());
  for (const auto& metric : failing) {
    bool on_source = false;
    for (const auto& entry : report) {
      on_source = on_source ||
                  (entry["location"]["path"] == "kernels/transpose/transpose.cu" &&
                   entry["description"].get<std::string>().find(metric + " regressed") != std::string::npos);
    }
    EXPECT_TRUE(on_source) << metric << " has no finding on the kernel's source: " << report.dump(2);
  }
  EXPECT_EQ(report[0]["location"]["lines"]["begin"], 34);
  EXPECT_EQ(report[0]["check_name"], "counterguard/regression");
}

TEST_F(recorded_regression, the_sarif_report_places_the_same_findings) {
  const auto r = evaluate("--annotations sarif '" + out("report.sarif").string() +
                          "' --annotations "
                          "gitlab-code-quality '" +
                          out("codequality.json").string() + "'");
  EXPECT_EQ(r.status, 1) << r.output;
  const nlohmann::json sarif = nlohmann::json::parse(test::read_text(out("report.sarif")));
  const nlohmann::json quality = nlohmann::json::parse(test::read_text(out("codequality.json")));
  const nlohmann::json& results = sarif["runs"][0]["results"];
  ASSERT_EQ(results.size(), quality.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& location = results[i]["locations"][0]["physicalLocation"];
    EXPECT_EQ(location["artifactLocation"]["uri"], quality[i]["location"]["path"]);
    EXPECT_EQ(location["region"]["startLine"], quality[i]["location"]["lines"]["begin"]);
  }
}

TEST_F(recorded_regression, the_markdown_summary_links_the_blamed_line_at_the_commit) {
  const auto r = evaluate("--markdown '" + out("summary.md").string() +
                          "' --source-link https://github.com/o/app/blob/abc123");
  EXPECT_EQ(r.status, 1) << r.output;
  const std::string md = test::read_text(out("summary.md"));
  EXPECT_NE(
      md.find("[transpose.cu:34](https://github.com/o/app/blob/abc123/kernels/transpose/transpose.cu#L34)"),
      std::string::npos)
      << md;
}

TEST_F(recorded_regression, merge_annotates_the_merged_shards_and_its_inputs_after_the_option_stay_inputs) {
  const auto r = evaluate("--json '" + out("shard.json").string() + "'");
  ASSERT_EQ(r.status, 1) << r.output;
  const auto merged =
      test::run_counterguard("merge --json '" + out("merged.json").string() + "' --annotations github '" +
                             out("merged.txt").string() + "' '" + out("shard.json").string() +
                             "' --source-root '" + source_dir + "'");
  EXPECT_EQ(merged.status, 1) << merged.output;
  EXPECT_EQ(
      test::read_text(out("merged.txt")).rfind("::error file=kernels/transpose/transpose.cu,line=34,", 0), 0U)
      << merged.output;
}

TEST_F(recorded_regression,
       merge_exports_the_merged_shards_and_its_inputs_after_the_export_option_stay_inputs) {
  const auto r = evaluate("--json '" + out("exported_shard.json").string() + "'");
  ASSERT_EQ(r.status, 1) << r.output;
  const auto merged = test::run_counterguard("merge --json '" + out("exported_merged.json").string() +
                                             "' --export bencher '" + out("bencher.json").string() + "' '" +
                                             out("exported_shard.json").string() + "'");
  EXPECT_EQ(merged.status, 1) << merged.output;
  EXPECT_TRUE(std::filesystem::exists(out("exported_merged.json"))) << merged.output;
  EXPECT_NE(test::read_text(out("bencher.json")).find(instance), std::string::npos) << merged.output;
}

TEST_F(recorded_regression, an_unknown_annotation_format_is_refused_naming_the_valid_ones) {
  const auto r = evaluate("--annotations gitlab '" + out("x").string() + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("unknown annotation format 'gitlab'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("github, gitlab-code-quality, sarif"), std::string::npos) << r.output;
}

TEST_F(recorded_regression, blame_from_a_directory_without_an_index_says_what_it_needs) {
  const auto r = test::run_counterguard("evaluate harness/test/fixtures/h200_builtin --filter '" + instance +
                                        "' --blame-from '" + out("nowhere").string() + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("blame --record-dir"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace counterguard
