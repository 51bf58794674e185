// SPDX-License-Identifier: Apache-2.0
// counterguard_add_case_tests (cmake/CounterguardCaseTests.cmake) as the built-in suites use it: one CTest
// test per case instance, asking for one GPU, labelled with its suite. Read back through `ctest -N`.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

std::string command_output(const std::string& command) {
  std::string output;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr)
    return output;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr)
    output += buffer.data();
  ::pclose(pipe);
  return output;
}

TEST(case_tests_registration, ctest_lists_each_transpose_instance_as_a_test_asking_for_one_gpu) {
  const nlohmann::json listed =
      nlohmann::json::parse(command_output(std::string("cd '") + COUNTERGUARD_SOURCE_DIR + "' && '" +
                                           COUNTERGUARD_BINARY + "' list cases/transpose.yaml --json -"));
  std::set<std::string> instances;
  for (const auto& entry : listed)
    instances.insert(entry["instance"].get<std::string>());
  ASSERT_EQ(instances.size(), 9U);

  const nlohmann::json shown = nlohmann::json::parse(
      command_output(std::string("'") + COUNTERGUARD_CTEST + "' --test-dir '" + COUNTERGUARD_BINARY_DIR +
                     "' -N -L '^transpose$' --show-only=json-v1 2>/dev/null"));
  std::set<std::string> tests;
  for (const auto& test : shown["tests"]) {
    const std::string name = test["name"];
    tests.insert(name);
    std::map<std::string, nlohmann::json> properties;
    for (const auto& property : test["properties"])
      properties[property["name"].get<std::string>()] = property["value"];
    ASSERT_EQ(properties.count("RESOURCE_GROUPS"), 1U) << name;
    const auto& requirement = properties["RESOURCE_GROUPS"][0]["requirements"][0];
    EXPECT_EQ(requirement[".type"], "gpus") << name;
    EXPECT_EQ(requirement["slots"], 1) << name;
    const auto& labels = properties["LABELS"];
    EXPECT_NE(std::find(labels.begin(), labels.end(), "gpu"), labels.end()) << name;
    EXPECT_NE(std::find(labels.begin(), labels.end(), "transpose"), labels.end()) << name;
    const auto& command = test["command"];
    ASSERT_GE(command.size(), 5U) << name;
    EXPECT_EQ(command[1], "run");
    const auto filter = std::find(command.begin(), command.end(), "--filter");
    ASSERT_NE(filter, command.end()) << name;
    EXPECT_EQ(*(filter + 1), name) << "the test runs exactly its instance";
    EXPECT_NE(std::find(command.begin(), command.end(), "--require-gpu"), command.end()) << name;
  }
  EXPECT_EQ(tests, instances);
}

nlohmann::json shown_tests(const std::filesystem::path& build, const std::string& arguments) {
  return nlohmann::json::parse(command_output(std::string("'") + COUNTERGUARD_CTEST + "' --test-dir '" +
                                              build.string() + "' -N " + arguments +
                                              " --show-only=json-v1 2>/dev/null"))["tests"];
}

std::map<std::string, nlohmann::json> properties_of(const nlohmann::json& test) {
  std::map<std::string, nlohmann::json> properties;
  for (const auto& property : test["properties"])
    properties[property["name"].get<std::string>()] = property["value"];
  return properties;
}

TEST(case_tests_registration, a_project_of_its_own_registers_its_cases_with_its_options) {
  // A user's project: the runner imported, the function included from cmake/, two calls with options.
  const scratch_directory dir;
  const std::string source = COUNTERGUARD_SOURCE_DIR;
  dir.write("project/CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.25)\n"
            "project(user LANGUAGES NONE)\n"
            "add_executable(runner IMPORTED)\n"
            "set_target_properties(runner PROPERTIES IMPORTED_LOCATION \"" COUNTERGUARD_BINARY
            "\")\n"
            "include(\"" +
                source +
                "/cmake/CounterguardCaseTests.cmake\")\n"
                "enable_testing()\n"
                "counterguard_add_case_tests(runner CASES \"" +
                source +
                "/cases/transpose.yaml\" FILTER \"*padded*\"\n"
                "  TEST_PREFIX \"mine:\" LABELS nightly ARGS --no-baselines TIMEOUT 77 WORKING_DIRECTORY \"" +
                source +
                "\")\n"
                "counterguard_add_case_tests(runner CASES \"" +
                source + "/cases/spills.yaml\" RESOURCE_GROUPS \"\")\n");
  const auto build = dir.path() / "build";
  const std::string configure = std::string("'") + COUNTERGUARD_CMAKE + "' -S '" +
                                (dir.path() / "project").string() + "' -B '" + build.string() +
                                "' > /dev/null 2>&1";
  ASSERT_EQ(std::system(configure.c_str()), 0);

  const nlohmann::json padded = shown_tests(build, "-L nightly");
  std::set<std::string> names;
  for (const auto& test : padded) {
    names.insert(test["name"].get<std::string>());
    auto properties = properties_of(test);
    EXPECT_EQ(properties["TIMEOUT"], 77) << test["name"];
    EXPECT_EQ(properties["RESOURCE_GROUPS"][0]["requirements"][0][".type"], "gpus");
    const auto& command = test["command"];
    EXPECT_NE(std::find(command.begin(), command.end(), "--no-baselines"), command.end());
  }
  EXPECT_EQ(names, (std::set<std::string>{
                       "mine:transpose/smem_unpadded?n=1024", "mine:transpose/smem_unpadded?n=2048",
                       "mine:transpose/smem_padded?n=1024", "mine:transpose/smem_padded?n=2048"}));

  const nlohmann::json spills = shown_tests(build, "-L '^spills$'");
  ASSERT_FALSE(spills.empty());
  for (const auto& test : spills)
    EXPECT_EQ(properties_of(test).count("RESOURCE_GROUPS"), 0U) << "RESOURCE_GROUPS \"\" asks for none";
}

}  // namespace
}  // namespace counterguard::test
