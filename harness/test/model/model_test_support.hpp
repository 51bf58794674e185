#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "counterguard/core/error.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/suite_loader.hpp"
#include "counterguard/registry/kernel_registry.hpp"

namespace counterguard::test {

inline ::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << part << "' is not in:\n  " << text;
}

inline std::string fixture_path(const std::string& name) {
  return std::string(COUNTERGUARD_SOURCE_DIR) + "/harness/test/model/fixtures/" + name;
}

// A registry of a few kernels that the suites in these tests name, with parameters of every type.
inline void add_test_kernels(kernel_registry& kernels) {
  kernels.add("transpose/naive")
      .parameter("n", std::int64_t{1024})
      .parameter("alpha", 1.0)
      .parameter("layout", "row_major");
  kernels.add("transpose/smem").parameter("n", std::int64_t{2048}).parameter("pad", 0).parameter("tile", 32);
  kernels.add("coalescing/vec_add").parameter("n", std::int64_t{1} << 22).parameter("stride", 1);
}

// Writes suites into a directory of its own per test and loads them with the test registry.
class model_test : public ::testing::Test {
 protected:
  model_test() {
    add_test_kernels(m_kernels);
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    m_directory = std::filesystem::temp_directory_path() /
                  ("counterguard_model_" + std::to_string(::getpid()) + "_" + info->name());
    std::filesystem::remove_all(m_directory);
    std::filesystem::create_directories(m_directory);
  }
  ~model_test() override { std::filesystem::remove_all(m_directory); }

  std::string write(const std::string& file_name, const std::string& text) {
    const std::filesystem::path path = m_directory / file_name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }

  suite load(const std::string& text) { return load_suite(write("t.yaml", text), m_kernels, metrics()); }

  std::vector<case_instance> expand(const std::string& text) {
    return expand_instances(load(text), m_kernels, metrics());
  }

  // The error loading `text` as t.yaml raises; fails the test when it loads.
  input_error load_error(const std::string& text) {
    return error_of([&] { (void)load(text); });
  }
  input_error expand_error(const std::string& text) {
    return error_of([&] { (void)expand(text); });
  }

  template <typename Action>
  static input_error error_of(Action action) {
    try {
      action();
    } catch (const input_error& failure) {
      return failure;
    }
    ADD_FAILURE() << "expected an input_error";
    return input_error({}, "", "");
  }

  static const metric_catalog& metrics() { return metric_catalog::builtin(); }
  [[nodiscard]] const kernel_registry& kernels() const { return m_kernels; }
  [[nodiscard]] std::string directory() const { return m_directory.string(); }
  [[nodiscard]] std::string suite_file() const { return (m_directory / "t.yaml").string(); }

 private:
  kernel_registry m_kernels;
  std::filesystem::path m_directory;
};

}  // namespace counterguard::test
