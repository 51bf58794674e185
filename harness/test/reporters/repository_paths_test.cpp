// SPDX-License-Identifier: Apache-2.0
// Paths a run recorded turned into paths of the repository (reporters/repository_paths.hpp).
#include "counterguard/reporters/repository_paths.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <optional>

#include "findings_test_support.hpp"

namespace counterguard {
namespace {

TEST(repository_paths, a_file_below_the_root_is_relative_to_it) {
  const test::sample_repository repository;
  const repository_paths paths(repository.root());
  EXPECT_EQ(paths.relative(repository.path("kernels/transpose.cu")), "kernels/transpose.cu");
  EXPECT_EQ(paths.relative(repository.root() + "/kernels/../tests/transpose.yaml"), "tests/transpose.yaml");
}

TEST(repository_paths, a_file_of_another_checkout_is_placed_by_the_longest_tail_found_here) {
  const test::sample_repository repository;
  const repository_paths paths(repository.root());
  EXPECT_EQ(paths.relative("/builds/group/project/kernels/transpose.cu"), "kernels/transpose.cu");
}

TEST(repository_paths, a_file_the_repository_does_not_have_has_no_path) {
  const test::sample_repository repository;
  const repository_paths paths(repository.root());
  EXPECT_FALSE(paths.relative("/usr/local/cuda/include/cuda_runtime.h").has_value());
  EXPECT_FALSE(paths.relative("").has_value());
}

// Sets an environment variable for the test's scope, restoring what the process had.
class scoped_variable {
 public:
  scoped_variable(const char* name, const char* value) : m_name(name) {
    if (const char* old = std::getenv(name))
      m_old = old;
    if (value != nullptr)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~scoped_variable() {
    if (m_old)
      ::setenv(m_name, m_old->c_str(), 1);
    else
      ::unsetenv(m_name);
  }
  scoped_variable(const scoped_variable&) = delete;
  scoped_variable& operator=(const scoped_variable&) = delete;

 private:
  const char* m_name;
  std::optional<std::string> m_old;
};

TEST(source_root, the_given_root_wins_then_the_ci_checkout) {
  EXPECT_EQ(find_source_root("/given"), "/given");
  const scoped_variable no_gitlab("CI_PROJECT_DIR", nullptr);
  {
    const scoped_variable github("GITHUB_WORKSPACE", "/home/runner/work/app/app");
    EXPECT_EQ(find_source_root(""), "/home/runner/work/app/app");
  }
  const scoped_variable no_github("GITHUB_WORKSPACE", nullptr);
  const scoped_variable gitlab("CI_PROJECT_DIR", "/builds/group/app");
  EXPECT_EQ(find_source_root(""), "/builds/group/app");
}

TEST(source_root, outside_ci_it_is_the_git_top_level_above_the_working_directory) {
  const scoped_variable no_github("GITHUB_WORKSPACE", nullptr);
  const scoped_variable no_gitlab("CI_PROJECT_DIR", nullptr);
  const test::sample_repository repository;
  std::filesystem::create_directories(repository.path(".git"));
  const auto before = std::filesystem::current_path();
  std::filesystem::current_path(repository.path("kernels"));
  const std::string found = find_source_root("");
  std::filesystem::current_path(before);
  EXPECT_EQ(std::filesystem::path(found), std::filesystem::path(repository.root()));
}

TEST(line_url, appends_the_path_and_the_line_anchor) {
  EXPECT_EQ(line_url("https://github.com/o/r/blob/abc/", "kernels/a b.cu", 34),
            "https://github.com/o/r/blob/abc/kernels/a%20b.cu#L34");
}

}  // namespace
}  // namespace counterguard
