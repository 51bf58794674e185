// SPDX-License-Identifier: Apache-2.0
// run's source-line blame of a regressed case (runner/regression_blame.hpp) on profiles recorded on the H200
// (harness/test/fixtures/h200_blame), joined to this program's copy of the built-in kernels.
#include "counterguard/runner/regression_blame.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>

#include "counterguard/blame/line_baseline_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/json_reader.hpp"

namespace counterguard {
namespace {

const std::string fixtures = std::string(COUNTERGUARD_SOURCE_DIR) + "/harness/test/fixtures/h200_blame/";

sass_profile recorded(const std::string& name) {
  sass_profile profile = read_sass_profile(fixtures + name + ".json");
  profile.binary = "/proc/self/exe";  // the same kernels' cubins as the counterguard that recorded it
  return profile;
}

line_profile lines_of(const std::string& name, const std::vector<std::string>& metrics) {
  const sass_profile profile = recorded(name);
  return make_line_profile(join_profile(profile, profile.binary, /*lines_only=*/true), metrics);
}

check_outcome failing_check(const std::string& metric, check_verdict verdict) {
  check_outcome check;
  check.metric = metric;
  check.verdict = verdict;
  check.failing = true;
  return check;
}

TEST(regression_blame, a_regressed_bank_conflict_count_is_blamed_on_the_store_against_the_line_baseline) {
  const line_profile before = lines_of("padded", {"shared_excess_wavefronts", "shared_wavefronts"});
  const case_blame blame = blame_case({"shared_store_bank_conflicts"}, recorded("unpadded"), &before, 5);
  EXPECT_TRUE(blame.against_baseline);
  EXPECT_EQ(blame.metrics, (std::vector<std::string>{"shared_excess_wavefronts", "shared_wavefronts"}));
  ASSERT_FALSE(blame.lines.empty());
  const blamed_source_line& top = blame.lines.front();
  EXPECT_EQ(top.place, "transpose.cu:34");
  EXPECT_EQ(top.metric, "shared_excess_wavefronts");
  ASSERT_TRUE(top.before.has_value());
  EXPECT_EQ(*top.before, 0U);
  EXPECT_EQ(top.after, 4063232U);
  EXPECT_EQ(top.function, "counterguard::kernels::transpose::smem_tile");
  EXPECT_EQ(describe_blamed_line(top).rfind("transpose.cu:34  ", 0), 0U) << describe_blamed_line(top);
  EXPECT_NE(describe_blamed_line(top).find("shared excess wavefronts 0 -> 4063232"), std::string::npos);
}

TEST(regression_blame, a_blamed_line_carries_the_file_its_kernel_was_compiled_from) {
  const line_profile before = lines_of("padded", {"shared_excess_wavefronts", "shared_wavefronts"});
  const case_blame changed = blame_case({"shared_store_bank_conflicts"}, recorded("unpadded"), &before, 5);
  const case_blame now = blame_case({"shared_store_bank_conflicts"}, recorded("unpadded"), nullptr, 5);
  const std::string source = std::string(COUNTERGUARD_SOURCE_DIR) + "/kernels/transpose/transpose.cu";
  for (const case_blame* blame : {&changed, &now}) {
    ASSERT_FALSE(blame->lines.empty());
    EXPECT_EQ(std::filesystem::weakly_canonical(blame->lines.front().file),
              std::filesystem::weakly_canonical(source));
  }
}

TEST(regression_blame, without_a_line_baseline_the_lines_carrying_the_counter_now_are_shown) {
  const case_blame blame = blame_case({"shared_store_bank_conflicts"}, recorded("unpadded"), nullptr, 3);
  EXPECT_FALSE(blame.against_baseline);
  ASSERT_FALSE(blame.lines.empty());
  EXPECT_LE(blame.lines.size(), 3U);
  EXPECT_EQ(blame.lines.front().place, "transpose.cu:34");
  EXPECT_FALSE(blame.lines.front().before.has_value());
  EXPECT_EQ(blame.lines.front().after, 4063232U);
  for (std::size_t i = 1; i < blame.lines.size(); ++i)
    EXPECT_NE(blame.lines[i].place, blame.lines[0].place) << "a line is shown once";
}

TEST(regression_blame, an_unchanged_profile_against_its_own_baseline_says_no_line_changed) {
  const line_profile before = lines_of("unpadded", {});
  const case_blame blame =
      blame_case({"shared_store_bank_conflicts"}, recorded("unpadded_again"), &before, 5);
  EXPECT_NE(blame.note.find("no source line changed"), std::string::npos) << blame.note;
  ASSERT_FALSE(blame.lines.empty());
  EXPECT_FALSE(blame.lines.front().before.has_value());
}

TEST(regression_blame, a_metric_with_no_per_instruction_counter_gets_a_note_not_lines) {
  const case_blame blame = blame_case({"dram_read_bytes"}, recorded("unpadded"), nullptr, 5);
  EXPECT_TRUE(blame.lines.empty());
  EXPECT_NE(blame.note.find("no per-instruction counter corresponds to dram_read_bytes"), std::string::npos);
}

TEST(regression_blame, predication_regressions_point_at_the_predicated_lines) {
  const case_blame blame =
      blame_case({"predicated_on_threads_per_instruction"}, recorded("predicated"), nullptr, 5);
  ASSERT_FALSE(blame.lines.empty());
  EXPECT_EQ(blame.lines.front().metric, "predicated_off_thread_instructions");
  EXPECT_EQ(blame.lines.front().place, "divergence.cu:71");  // the call under the `if`, its body (59) inlined
  EXPECT_EQ(blame.lines.front().chain, (std::vector<std::string>{"divergence.cu:71", "divergence.cu:59"}));
  EXPECT_EQ(blame.lines.front().after, 524288U);
}

TEST(regression_blame, only_failing_exact_metrics_ask_for_blame_unless_every_failure_is_wanted) {
  case_result result;
  result.totals["shared_store_bank_conflicts"] = {4063232, metric_class::exact};
  result.totals["duration_ns"] = {10, metric_class::noisy};
  result.totals["registers_per_thread"] = {40, metric_class::static_resource};
  result.checks.push_back(failing_check("shared_store_bank_conflicts", check_verdict::regression));
  result.checks.push_back(failing_check("duration_ns", check_verdict::regression));
  result.checks.push_back(failing_check("registers_per_thread", check_verdict::fail));
  check_outcome passing = failing_check("shared_load_bank_conflicts", check_verdict::pass);
  passing.failing = false;
  result.checks.push_back(passing);
  EXPECT_EQ(metrics_to_blame(result, false), (std::vector<std::string>{"shared_store_bank_conflicts"}));
  EXPECT_EQ(metrics_to_blame(result, true),
            (std::vector<std::string>{"shared_store_bank_conflicts", "duration_ns"}));
  result.checks.front().failing = false;
  EXPECT_TRUE(metrics_to_blame(result, false).empty());
}

// The per-line baselines committed under baselines/.
std::vector<std::string> committed_line_baselines() {
  std::vector<std::string> paths;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(COUNTERGUARD_SOURCE_DIR) + "/baselines")) {
    const std::string path = entry.path().string();
    if (path.size() > 11 && path.compare(path.size() - 11, 11, ".lines.json") == 0)
      paths.push_back(path);
  }
  return paths;
}

line_profile profile_in(const std::string& path, const std::string& instance) {
  const auto file = load_line_baseline_file(std::string(COUNTERGUARD_SOURCE_DIR) + path);
  EXPECT_TRUE(file.has_value()) << path;
  return file ? file->cases.at(instance) : line_profile{};
}

line_profile committed_profile(const std::string& suite, const std::string& instance) {
  return profile_in("/baselines/GH100-132sm-cuda13/" + suite + ".lines.json", instance);
}

// The divergence suite's per-line baseline as the H200 wrote it before inlined code was blamed on its calling
// line: schema 1, lines keyed by each instruction's own line.
line_profile schema_1_profile(const std::string& instance) {
  return profile_in("/harness/test/fixtures/line_baselines_schema1/divergence.lines.json", instance);
}

TEST(line_baseline_file, every_committed_line_baseline_still_reads) {
  const std::vector<std::string> paths = committed_line_baselines();
  ASSERT_FALSE(paths.empty());
  for (const auto& path : paths) {
    const std::optional<line_baseline_file> file = load_line_baseline_file(path);
    ASSERT_TRUE(file.has_value()) << path;
    EXPECT_FALSE(file->cases.empty()) << path;
    for (const auto& [instance, profile] : file->cases) {
      if (file->schema_version == 1) {
        EXPECT_TRUE(profile.attribution.innermost) << path << ": " << instance;
      }
    }
  }
}

TEST(regression_blame, an_old_line_baseline_is_compared_by_the_instructions_own_lines_and_says_so) {
  // divergence.cu's path_a_unrolled is inlined under the `if`: schema 1 recorded its instructions on its own
  // line, not on the line that calls it. The same profile against it changes nothing.
  const line_profile before = schema_1_profile("divergence/predicated_odd_even");
  ASSERT_TRUE(before.attribution.innermost);
  const case_blame blame = blame_case({"predicated_on_threads_per_instruction"}, recorded("predicated"),
                                      &before, 5, {}, "baselines/GH100-132sm-cuda13/divergence.lines.json");
  EXPECT_NE(
      blame.note.find("baselines/GH100-132sm-cuda13/divergence.lines.json keys this case's lines by each "
                      "instruction's own line"),
      std::string::npos)
      << blame.note;
  EXPECT_NE(blame.note.find("baseline update --with-lines"), std::string::npos) << blame.note;
  EXPECT_NE(blame.note.find("no source line changed"), std::string::npos) << blame.note;
  ASSERT_FALSE(blame.lines.empty());
  EXPECT_FALSE(blame.lines.front().before.has_value());
  // Keyed by the user's lines instead, the same profile would look changed on both lines.
  line_profile as_if_new = before;
  as_if_new.attribution.innermost = false;
  EXPECT_FALSE(blame_case({"predicated_on_threads_per_instruction"}, recorded("predicated"), &as_if_new, 5)
                   .note.find("no source line changed") != std::string::npos);
}

TEST(regression_blame,
     the_committed_line_baseline_compares_equal_with_the_recorded_profile_of_unchanged_code) {
  const line_profile before = committed_profile("divergence", "divergence/predicated_odd_even");
  EXPECT_FALSE(before.attribution.innermost);
  const case_blame blame =
      blame_case({"predicated_on_threads_per_instruction"}, recorded("predicated"), &before, 5);
  EXPECT_EQ(blame.note, "no source line changed against the per-line baseline; the lines carrying them now:");
}

TEST(regression_blame, a_line_baseline_of_the_users_lines_compares_equal_with_the_same_profile) {
  const line_profile before = lines_of("predicated", {});
  EXPECT_FALSE(before.attribution.innermost);
  const case_blame blame =
      blame_case({"predicated_on_threads_per_instruction"}, recorded("predicated"), &before, 5);
  EXPECT_EQ(blame.note, "no source line changed against the per-line baseline; the lines carrying them now:");
}

TEST(line_baseline_file, a_refreshed_file_marks_the_cases_it_kept_from_schema_1) {
  line_baseline_file file;
  file.gpu_key = "GH100-132sm-cuda13";
  file.suite = "divergence";
  file.chip = "GH100";
  file.cases["divergence/predicated_odd_even"] = schema_1_profile("divergence/predicated_odd_even");
  file.cases["divergence/new"] = lines_of("predicated", {});
  const std::string text = render_line_baseline(file);
  EXPECT_NE(text.find("\"schema_version\": 2"), std::string::npos);
  const line_baseline_file again = parse_line_baseline(text, "d.lines.json");
  EXPECT_TRUE(again.cases.at("divergence/predicated_odd_even").attribution.innermost);
  EXPECT_FALSE(again.cases.at("divergence/new").attribution.innermost);
  EXPECT_EQ(render_line_baseline(again), text);
}

TEST(line_baseline_file, an_unknown_line_key_names_the_field) {
  const std::string text = R"({"format": "counterguard-line-baseline", "schema_version": 2, "gpu_key": "k",
    "suite": "s", "chip": "GH100", "cases": {"s/a": {"keyed_by": "outermost", "functions": []}}})";
  try {
    static_cast<void>(parse_line_baseline(text, "b/k/s.lines.json"));
    FAIL() << "accepted an unknown keyed_by";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("cases.s/a.keyed_by"), std::string::npos) << e.what();
  }
}

TEST(line_baseline_file, round_trips_and_keeps_only_the_metrics_asked_for) {
  line_baseline_file file;
  file.gpu_key = "GH100-132sm-cuda13";
  file.suite = "transpose";
  file.chip = "GH100";
  file.cases["transpose/smem_unpadded?n=2048"] = lines_of("unpadded", {"shared_excess_wavefronts"});
  const auto& functions = file.cases.begin()->second.functions;
  ASSERT_EQ(functions.size(), 1U);
  ASSERT_EQ(functions[0].lines.size(), 1U);  // only line 34 has excess wavefronts
  EXPECT_EQ(functions[0].lines[0].place, "transpose.cu:34");
  const std::string text = render_line_baseline(file);
  const line_baseline_file again = parse_line_baseline(text, "t.lines.json");
  EXPECT_EQ(render_line_baseline(again), text);
  EXPECT_EQ(again.cases.at("transpose/smem_unpadded?n=2048")
                .functions[0]
                .lines[0]
                .values.at("shared_excess_wavefronts"),
            4063232U);
}

TEST(line_baseline_file, a_malformed_file_names_the_file_and_field) {
  const std::string text = R"({"format": "counterguard-line-baseline", "schema_version": 1, "gpu_key": "k",
    "suite": "s", "chip": "GH100", "cases": {"s/a": {"functions": [{"mangled": "_Z1f", "function": "f",
    "lines": [{"place": "f.cu:x", "values": {}}]}]}}})";
  try {
    static_cast<void>(parse_line_baseline(text, "b/k/s.lines.json"));
    FAIL() << "accepted a bad place";
  } catch (const input_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("b/k/s.lines.json"), std::string::npos) << message;
    EXPECT_NE(message.find("cases.s/a.functions[0].lines[0].place"), std::string::npos) << message;
    EXPECT_NE(message.find("FILE:LINE"), std::string::npos) << message;
  }
  EXPECT_THROW(static_cast<void>(parse_line_baseline(R"({"format": "other"})", "x.json")), input_error);
}

}  // namespace
}  // namespace counterguard
