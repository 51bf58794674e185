// SPDX-License-Identifier: Apache-2.0
// `counterguard static --binary`: the resources of every kernel in a compiled program, read from the file
// (no GPU, no cuobjdump), run the way users and CI run it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

TEST(static_binary, prints_every_kernel_of_the_runner_with_its_architecture_and_spills) {
  const command_result r = run_counterguard(std::string("static --binary ") + COUNTERGUARD_BINARY);
  EXPECT_EQ(r.status, 0) << r.output;
  // 40 variant kernels, and the input fills and output checks of the coalescing, transpose and spills
  // variants.
  EXPECT_NE(r.output.find("59 kernels in"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("function"), std::string::npos) << r.output;
  // The register-limited variant: 32 registers, 1400 bytes of spill stores, 1472 of spill loads.
  const std::size_t row = r.output.find("counterguard::kernels::spills::maxrreg32::register_heavy ");
  ASSERT_NE(row, std::string::npos) << r.output;
  const std::string line = r.output.substr(row, r.output.find('\n', row) - row);
  EXPECT_NE(line.find(" sm_90 "), std::string::npos) << line;
  EXPECT_NE(line.find(" 32 "), std::string::npos) << line;
  EXPECT_NE(line.find(" 1400 "), std::string::npos) << line;
  EXPECT_NE(line.find(" 1472 "), std::string::npos) << line;
  EXPECT_NE(line.find("-maxrregcount=32"), std::string::npos) << line;
}

TEST(static_binary, writes_every_kernel_to_json) {
  scratch_directory dir;
  const auto json = dir.path() / "resources.json";
  const command_result r = run_counterguard(std::string("static --quiet --binary ") + COUNTERGUARD_BINARY +
                                            " --json " + json.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json document = nlohmann::json::parse(read_text(json));
  ASSERT_EQ(document.at("binaries").size(), 1U);
  const nlohmann::json& binary = document.at("binaries").at(0);
  EXPECT_EQ(binary.at("path"), COUNTERGUARD_BINARY);
  EXPECT_EQ(binary.at("device_code_section"), ".nv_fatbin");
  ASSERT_EQ(binary.at("kernels").size(), 59U);
  bool found = false;
  for (const auto& kernel : binary.at("kernels")) {
    EXPECT_EQ(kernel.at("architecture"), "sm_90");
    EXPECT_TRUE(kernel.at("spill_store_bytes").is_number()) << kernel.dump();
    if (kernel.at("function") == "counterguard::kernels::spills::maxrreg32::register_heavy") {
      found = true;
      EXPECT_EQ(kernel.at("registers"), 32);
      EXPECT_EQ(kernel.at("spill_store_bytes"), 1400);
      EXPECT_EQ(kernel.at("spill_load_bytes"), 1472);
      EXPECT_EQ(kernel.at("stack_frame_bytes"), 800);
    }
    if (kernel.at("function") == "counterguard::kernels::matmul::tiled_32") {
      EXPECT_EQ(kernel.at("static_shared_bytes"), 8192);
    }
  }
  EXPECT_TRUE(found);
}

TEST(static_binary, a_file_that_is_not_a_binary_is_invalid_input_naming_it) {
  const command_result r = run_counterguard("static --binary cases/transpose.yaml");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("cases/transpose.yaml: not an ELF file or a fat binary"), std::string::npos)
      << r.output;
}

TEST(static_binary, suites_given_positionally_are_checked_against_the_binary_as_with_cases) {
  // One style across commands: the suites are positional; --cases, the earlier spelling, still works.
  const command_result positional = run_counterguard(std::string("static cases/transpose.yaml --binary ") +
                                                     COUNTERGUARD_BINARY + " --quiet");
  const command_result with_cases = run_counterguard(std::string("static --binary ") + COUNTERGUARD_BINARY +
                                                     " --cases cases/transpose.yaml --quiet");
  EXPECT_EQ(positional.status, with_cases.status) << positional.output;
  EXPECT_EQ(positional.output, with_cases.output);
  EXPECT_NE(positional.output.find("9 cases: 9 passed"), std::string::npos) << positional.output;
  EXPECT_EQ(run_counterguard("static --cases cases/transpose.yaml").status, 2) << "--cases without --binary";
}

}  // namespace
}  // namespace counterguard::test
