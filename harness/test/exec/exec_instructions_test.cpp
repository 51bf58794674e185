// SPDX-License-Identifier: Apache-2.0
// The instructions `counterguard exec` writes for the injection library read back the same, and a file of an
// earlier counterguard (without own_configuration) still loads.
#include "counterguard/exec/exec_instructions.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace counterguard {
namespace {

namespace fs = std::filesystem;

TEST(exec_instructions, a_case_that_keeps_its_own_counters_says_so_and_older_files_load) {
  const fs::path file =
      fs::temp_directory_path() / ("exec_instructions_" + std::to_string(::getpid()) + ".json");
  exec_instructions written;
  written.output_directory = "/tmp/recording";
  exec_case_request noisy;
  noisy.name = "atomics/block_staged";
  noisy.selector.kernel = name_pattern::glob("*block_staged*");
  noisy.raw_metrics = {"smsp__sass_inst_executed_op_shared_atom.sum"};
  noisy.own_configuration = true;
  exec_case_request exact = noisy;
  exact.name = "atomics/per_thread";
  exact.own_configuration = false;
  written.cases = {noisy, exact};
  save_exec_instructions(file.string(), written);
  const exec_instructions read = load_exec_instructions(file.string());
  ASSERT_EQ(read.cases.size(), 2U);
  EXPECT_TRUE(read.cases[0].own_configuration);
  EXPECT_FALSE(read.cases[1].own_configuration);
  EXPECT_EQ(read.cases[0].raw_metrics, noisy.raw_metrics);

  // Without the key (instructions of an earlier counterguard): the process's one configuration.
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (std::size_t at; (at = text.find("\"own_configuration\"")) != std::string::npos;) {
    const std::size_t end = text.find_first_of(",}", at);
    text.erase(at, end - at + (text[end] == ',' ? 1 : 0));
  }
  std::ofstream(file) << text;
  const exec_instructions older = load_exec_instructions(file.string());
  ASSERT_EQ(older.cases.size(), 2U);
  EXPECT_FALSE(older.cases[0].own_configuration);
  fs::remove(file);
}

}  // namespace
}  // namespace counterguard
