// SPDX-License-Identifier: Apache-2.0
// Telling the CUDA toolkit's headers (and named third-party directories) from the user's sources, by the
// paths a cubin's line tables name.
#include "counterguard/statics/toolkit_sources.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace counterguard {
namespace {

using paths = std::vector<std::string>;

TEST(toolkit_sources, the_include_directory_of_a_toolkit_header_is_the_toolkits) {
  EXPECT_EQ(
      toolkit_include_dirs({"/usr/local/cuda/bin/../targets/x86_64-linux/include/device_atomic_functions.hpp",
                            "/src/app/k.cu"}),
      paths{"/usr/local/cuda/targets/x86_64-linux/include"});
}

TEST(toolkit_sources, a_crt_header_names_the_directory_above_crt) {
  // A distribution's toolkit installed into /usr/include: no "cuda" in the path.
  EXPECT_EQ(toolkit_include_dirs({"/usr/include/crt/sm_80_rt.hpp"}), paths{"/usr/include"});
  EXPECT_EQ(toolkit_include_dirs({"/usr/include/sm_30_intrinsics.hpp"}), paths{"/usr/include"});
}

TEST(toolkit_sources, the_layout_of_a_toolkit_installation_names_it_without_a_known_header) {
  EXPECT_EQ(toolkit_include_dirs({"/opt/cuda-12.4/include/cub/block/block_reduce.cuh"}),
            paths{"/opt/cuda-12.4/include"});
  EXPECT_EQ(toolkit_include_dirs({"/env/targets/sbsa-linux/include/cccl/cuda/std/atomic"}),
            paths{"/env/targets/sbsa-linux/include"});
  EXPECT_EQ(toolkit_include_dirs({"/home/me/deps/include/cooperative_groups/details/reduce.h"}),
            paths{"/home/me/deps/include"});
}

TEST(toolkit_sources, a_projects_own_headers_are_not_the_toolkits_whatever_their_names) {
  EXPECT_TRUE(toolkit_include_dirs({"/src/app/cuda/kernels.cu", "/src/app/include/cuda_utils.h",
                                    "/src/app/include/device_helpers.cuh", "/src/app/crt/startup.h"})
                  .empty());
}

TEST(toolkit_sources, an_absolute_directory_holds_the_files_below_it) {
  EXPECT_TRUE(source_in_directory("/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/sm_80_rt.hpp",
                                  "/usr/local/cuda/targets/x86_64-linux/include"));
  EXPECT_FALSE(source_in_directory("/usr/local/cuda-extra/x.h", "/usr/local/cuda"));
  EXPECT_FALSE(source_in_directory("/usr/local/cuda", "/usr/local/cuda"));
}

TEST(toolkit_sources, a_relative_directory_matches_a_checkout_anywhere) {
  EXPECT_TRUE(
      source_in_directory("/ci/build-7/app/third_party/cutlass/include/gemm.h", "third_party/cutlass"));
  EXPECT_TRUE(source_in_directory("/home/me/app/third_party/cutlass/gemm.h", "third_party/cutlass/"));
  EXPECT_FALSE(source_in_directory("/home/me/app/third_party/cutlass_tests/gemm.h", "third_party/cutlass"));
  EXPECT_FALSE(source_in_directory("/home/me/app/third_party.h", "third_party"));  // a file, not a directory
  EXPECT_FALSE(source_in_directory("/home/me/app/k.cu", ""));
}

}  // namespace
}  // namespace counterguard
