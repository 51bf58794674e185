// SPDX-License-Identifier: Apache-2.0
#pragma once
// A repository laid out like a user's (kernels/transpose.cu, tests/transpose.yaml) and a run whose failing
// case is blamed to a line of it, for the findings and the reports made of them.

#include <filesystem>
#include <fstream>
#include <string>

#include "counterguard/core/temporary_directory.hpp"
#include "report_test_support.hpp"

namespace counterguard::test {

class sample_repository {
 public:
  sample_repository() : m_directory("counterguard-findings") {
    write("kernels/transpose.cu", "// a kernel\n");
    write("tests/transpose.yaml", "suite: transpose\n");
  }
  [[nodiscard]] std::string root() const { return m_directory.path(); }
  [[nodiscard]] std::string path(const std::string& relative) const { return root() + "/" + relative; }

 private:
  void write(const std::string& relative, const std::string& text) const {
    std::filesystem::create_directories(std::filesystem::path(path(relative)).parent_path());
    std::ofstream(path(relative)) << text;
  }
  temporary_directory m_directory;
};

// sample_run_with_blame(), its blamed line in `repository`'s kernels/transpose.cu (as a build of it records
// it) and its expectation at tests/transpose.yaml:12.
inline run_results blamed_run_in(const sample_repository& repository) {
  run_results results = sample_run_with_blame();
  case_result& failing = results.cases[1];
  failing.blame->lines.front().file = repository.path("kernels/transpose.cu");
  failing.checks[0].source = source_location{repository.path("tests/transpose.yaml"), 12, 7};
  failing.source = source_location{repository.path("tests/transpose.yaml"), 9, 5};
  return results;
}

}  // namespace counterguard::test
