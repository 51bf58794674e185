// SPDX-License-Identifier: Apache-2.0
// What a blame pass tells the injection and what the injection leaves per blamed launch, read back by the
// driver (exec/blamed_launches.hpp).
#include "counterguard/exec/blamed_launches.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path path = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  fs::remove_all(path);
  fs::create_directories(path);
  return path;
}

sass_profile profile_of(const std::string& case_name, const std::string& cubin) {
  sass_profile profile;
  profile.gpu = "NVIDIA H200";
  profile.chip = "GH100";
  profile.compute_capability = 90;
  profile.case_name = case_name;
  profile.binary = cubin;
  profile.metrics = {{"shared_wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared"}};
  sass_function_profile function;
  function.mangled = "_Z15transpose_tiledPfPKfi";
  function.function = "transpose_tiled";
  function.values_by_pc[0x1f0] = {{"shared_wavefronts", 4325376}};
  profile.functions.push_back(function);
  return profile;
}

TEST(blamed_launches, a_blame_request_reads_back_its_metrics) {
  const fs::path folder = scratch("blame_request");
  exec_blame_request written;
  written.metrics = {"shared_wavefronts", "global_sectors"};
  save_exec_blame_request((folder / "request.json").string(), written);
  EXPECT_EQ(load_exec_blame_request((folder / "request.json").string()).metrics, written.metrics);
  fs::remove_all(folder);
}

TEST(blamed_launches, a_request_of_another_version_is_refused_naming_the_field) {
  const fs::path folder = scratch("blame_request_version");
  std::ofstream((folder / "request.json").string()) << R"({"schema_version": 7, "metrics": []})";
  try {
    static_cast<void>(load_exec_blame_request((folder / "request.json").string()));
    FAIL() << "a request of version 7 was read";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("schema_version"), std::string::npos) << e.what();
  }
  fs::remove_all(folder);
}

TEST(blamed_launches, a_recorded_profile_is_found_by_its_case_and_names_its_cubin_by_absolute_path) {
  const fs::path folder = scratch("blamed_launch");
  write_sass_profile(blamed_launch_profile_path(folder, 0).string(),
                     profile_of("mathlib/transpose_tiled.0", blamed_launch_cubin_path(folder, 0).filename()));
  recorded_process process;
  process.folder = folder;
  const auto profiles = load_blamed_launches({process});
  ASSERT_EQ(profiles.count("mathlib/transpose_tiled.0"), 1U);
  const sass_profile& read = profiles.at("mathlib/transpose_tiled.0");
  EXPECT_EQ(fs::path(read.binary), blamed_launch_cubin_path(folder, 0));
  EXPECT_EQ(read.functions.at(0).values_by_pc.at(0x1f0).at("shared_wavefronts"), 4325376U);
  fs::remove_all(folder);
}

TEST(blamed_launches, the_first_process_that_blamed_a_case_is_kept) {
  const fs::path first = scratch("blamed_first");
  const fs::path second = scratch("blamed_second");
  write_sass_profile(blamed_launch_profile_path(first, 0).string(), profile_of("suite/a", "first.cubin"));
  write_sass_profile(blamed_launch_profile_path(second, 0).string(), profile_of("suite/a", "second.cubin"));
  recorded_process a;
  a.folder = first;
  recorded_process b;
  b.folder = second;
  EXPECT_EQ(fs::path(load_blamed_launches({a, b}).at("suite/a").binary).filename(), "first.cubin");
  fs::remove_all(first);
  fs::remove_all(second);
}

}  // namespace
}  // namespace counterguard
