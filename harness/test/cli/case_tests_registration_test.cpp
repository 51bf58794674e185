// counterguard_add_case_tests (cmake/CounterguardCaseTests.cmake) as the built-in suites use it: one CTest
// test per case instance, asking for one GPU, labelled with its suite. Read back through `ctest -N`.
#include <gtest/gtest.h>

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
                                           COUNTERGUARD_BINARY + "' list cases/transpose.yaml --json"));
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

}  // namespace
}  // namespace counterguard::test
