#include "counterguard/baselines/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdexcept>

#include "baseline_test_support.hpp"
#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

bool exists(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;
}

TEST(write_file_atomically, replaces_the_content) {
  const std::string path = test::make_temporary_directory() + "/f.yaml";
  test::write_text(path, "old\n");
  write_file_atomically(path, "new\n");
  EXPECT_EQ(test::read_text(path), "new\n");
  EXPECT_FALSE(exists(path + ".tmp"));
}

TEST(write_file_atomically, a_failure_before_the_rename_leaves_the_old_file_and_no_temporary) {
  const std::string path = test::make_temporary_directory() + "/f.yaml";
  test::write_text(path, "old\n");
  EXPECT_THROW(write_file_atomically(path, "new\n",
                                     [](const std::string& temporary) {
                                       EXPECT_EQ(test::read_text(temporary), "new\n");
                                       throw std::runtime_error("disk pulled");
                                     }),
               std::runtime_error);
  EXPECT_EQ(test::read_text(path), "old\n");
  EXPECT_FALSE(exists(path + ".tmp"));
}

TEST(write_file_atomically, an_unwritable_temporary_path_leaves_the_old_file) {
  const std::string path = test::make_temporary_directory() + "/f.yaml";
  test::write_text(path, "old\n");
  ASSERT_EQ(::mkdir((path + ".tmp").c_str(), 0755), 0);  // a directory where the temporary file would go
  try {
    write_file_atomically(path, "new\n");
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_EQ(e.where().file, path + ".tmp");
  }
  EXPECT_EQ(test::read_text(path), "old\n");
}

TEST(write_file_atomically, a_missing_directory_is_an_input_error) {
  EXPECT_THROW(write_file_atomically("/nonexistent/counterguard/f.yaml", "x"), input_error);
}

}  // namespace
}  // namespace counterguard
