// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "counterguard/core/error.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/kernel_signature.hpp"
#include "counterguard/model/suite_loader.hpp"

namespace counterguard::test {

inline ::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << part << "' is not in:\n  " << text;
}

inline std::string fixture_path(const std::string& name) {
  return std::string(COUNTERGUARD_SOURCE_DIR) + "/harness/test/model/fixtures/" + name;
}

// The kernels the suites in these tests name, with parameters of every type, declared ranges and a
// requirement: the case model needs only their signatures, no registry.
class test_kernel_catalog final : public kernel_catalog {
 public:
  test_kernel_catalog() {
    add(signature(
        "transpose/naive",
        {{"n", std::int64_t{1024}, "", {}}, {"alpha", 1.0, "", {}}, {"layout", "row_major", "", {}}}));
    add(signature("transpose/smem",
                  {{"n", std::int64_t{2048}, "", {}}, {"pad", 0, "", {}}, {"tile", 32, "", {}}}));
    add(signature("coalescing/vec_add", {{"n", std::int64_t{1} << 22, "", {}}, {"stride", 1, "", {}}}));
    // A kernel that declares what it accepts: parameter ranges, a block size and a requirement.
    kernel_signature checked =
        signature("checked/tile", {{"n", std::int64_t{2048}, "", range(32, 8192).multiple_of(32)},
                                   {"pad", 0, "", range(0, 32)},
                                   {"tile", 32, "", {}},
                                   {"layout", "row_major", "", one_of({"row_major", "column_major"})}});
    checked.block_size = range(32, 1024).multiple_of(32);
    checked.requirements.push_back(
        {"n is a multiple of tile", [](const parameter_list& p, const resolved_launch&) {
           return find_parameter(p, "n")->as_integer() % find_parameter(p, "tile")->as_integer() == 0;
         }});
    add(std::move(checked));
  }

  [[nodiscard]] const kernel_signature* find_signature(const std::string& name) const override {
    for (const auto& signature : m_signatures) {
      if (signature.name == name)
        return &signature;
    }
    return nullptr;
  }
  [[nodiscard]] std::vector<std::string> kernel_names() const override {
    std::vector<std::string> names;
    for (const auto& signature : m_signatures)
      names.push_back(signature.name);
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  static kernel_signature signature(std::string name, std::vector<parameter_spec> parameters) {
    kernel_signature result;
    result.name = std::move(name);
    result.parameters = std::move(parameters);
    return result;
  }
  void add(kernel_signature signature) { m_signatures.push_back(std::move(signature)); }
  std::vector<kernel_signature> m_signatures;
};

// Writes suites into a directory of its own per test and loads them with the test registry.
class model_test : public ::testing::Test {
 protected:
  model_test() {
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
  [[nodiscard]] const kernel_catalog& kernels() const { return m_kernels; }
  [[nodiscard]] std::string directory() const { return m_directory.string(); }
  [[nodiscard]] std::string suite_file() const { return (m_directory / "t.yaml").string(); }

 private:
  test_kernel_catalog m_kernels;
  std::filesystem::path m_directory;
};

}  // namespace counterguard::test
