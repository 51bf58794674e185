// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/atomic_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;

fs::path fresh_directory() {
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() / ("counterguard-atomic-" + std::to_string(::getpid()) +
                                                    "-" + std::to_string(counter++));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t entries_in(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(write_file_atomically, replaces_the_content_and_leaves_no_temporary) {
  const fs::path dir = fresh_directory();
  std::ofstream(dir / "f.yaml") << "old\n";
  write_file_atomically((dir / "f.yaml").string(), "new\n");
  EXPECT_EQ(read_text(dir / "f.yaml"), "new\n");
  EXPECT_EQ(entries_in(dir), 1U);
}

TEST(write_file_atomically, a_failure_before_the_rename_leaves_the_old_file_and_no_temporary) {
  const fs::path dir = fresh_directory();
  std::ofstream(dir / "f.yaml") << "old\n";
  EXPECT_THROW(write_file_atomically((dir / "f.yaml").string(), "new\n",
                                     [](const std::string& temporary) {
                                       EXPECT_EQ(read_text(temporary), "new\n");
                                       throw std::runtime_error("disk pulled");
                                     }),
               std::runtime_error);
  EXPECT_EQ(read_text(dir / "f.yaml"), "old\n");
  EXPECT_EQ(entries_in(dir), 1U);
}

TEST(write_file_atomically, writes_bytes_unchanged) {
  const fs::path dir = fresh_directory();
  const std::string bytes("a\0b\xff\n", 5);
  write_file_atomically((dir / "f.bin").string(), bytes);
  EXPECT_EQ(read_text(dir / "f.bin"), bytes);
}

TEST(write_file_atomically, creates_a_missing_directory) {
  const fs::path dir = fresh_directory();
  write_file_atomically((dir / "out" / "nested" / "summary.md").string(), "x");
  EXPECT_EQ(read_text(dir / "out" / "nested" / "summary.md"), "x");
}

TEST(write_file_atomically, a_path_that_cannot_exist_is_a_file_system_error_naming_it) {
  const fs::path dir = fresh_directory();
  std::ofstream(dir / "plain") << "a file, not a directory";
  const std::string path = (dir / "plain" / "f.yaml").string();
  try {
    write_file_atomically(path, "x");
    FAIL() << "no error";
  } catch (const environment_error& e) {
    EXPECT_EQ(e.problem(), environment_problem::file_system);
    EXPECT_EQ(e.code(), exit_code::environment);
    EXPECT_NE(std::string(e.what()).find((dir / "plain").string()), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace counterguard
