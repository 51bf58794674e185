// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/gpu_key.hpp"

#include <gtest/gtest.h>

#include "counterguard/results/run_results.hpp"

namespace counterguard {
namespace {

TEST(gpu_key, joins_chip_sm_count_and_cuda_major) {
  EXPECT_EQ(make_gpu_key("GH100", 132, "13.0"), "GH100-132sm-cuda13");
}

TEST(gpu_key, reads_the_runtime_version_integer) {
  EXPECT_EQ(make_gpu_key("AD102", 128, "12080"), "AD102-128sm-cuda12");
}

TEST(gpu_key, is_built_from_run_metadata) {
  run_metadata m;
  m.device.chip = "GH100";
  m.device.sm_count = 132;
  m.device.cuda_runtime_version = "13.0.48";
  EXPECT_EQ(make_gpu_key(m.device), "GH100-132sm-cuda13");
}

TEST(gpu_key, replaces_characters_unsafe_in_paths) {
  EXPECT_EQ(make_gpu_key("GH/100 x", 1, "13"), "GH_100_x-1sm-cuda13");
}

TEST(gpu_key, marks_unknown_parts) {
  EXPECT_EQ(make_gpu_key("", 0, "n/a"), "unknown-0sm-cudaunknown");
}

TEST(cuda_major_version, accepts_the_usual_spellings) {
  EXPECT_EQ(cuda_major_version("13"), 13);
  EXPECT_EQ(cuda_major_version("12.8"), 12);
  EXPECT_EQ(cuda_major_version("13000"), 13);
  EXPECT_EQ(cuda_major_version("v13"), -1);
}

}  // namespace
}  // namespace counterguard
