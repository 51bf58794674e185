// SPDX-License-Identifier: Apache-2.0
// Seeded mutation fuzzing of every reader of user files: suites, baselines, results JSON and the run.json
// of a --save-counter-data directory. Real files are mutated (spans deleted, lines swapped and duplicated,
// tokens inserted, numbers made extreme, files truncated); every outcome must be a clean load or an
// input_error that names the file, never another exception, a crash or a hang. Deterministic: each failure
// names its seed. COUNTERGUARD_FUZZ_ITERATIONS raises the count for longer local runs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "counterguard/baselines/baseline_file.hpp"
#include "counterguard/blame/line_baseline_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/json_reader.hpp"
#include "counterguard/measurement/recorded_run.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/suite_loader.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/results/run_results.hpp"
#include "fuzz_mutators.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;
using test::fuzz_iterations;
using test::read_file_text;
using test::text_mutator;

class input_fuzz : public ::testing::Test {
 protected:
  input_fuzz() {
    m_dir = fs::temp_directory_path() / ("counterguard-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(m_dir);
  }
  ~input_fuzz() override { fs::remove_all(m_dir); }

  // Mutates `seed_text` `count` times, writes each to `name` in the scratch directory and loads it with
  // `load`.
  void fuzz(const std::string& seed_text, const std::string& name, int count,
            const std::function<void(const fs::path&)>& load) {
    int rejected = 0;
    const auto started = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i) {
      const auto seed = static_cast<std::uint32_t>(i) * 2654435761U + static_cast<std::uint32_t>(name.size());
      const fs::path path = m_dir / name;
      std::ofstream(path, std::ios::binary | std::ios::trunc) << text_mutator(seed).mutate(seed_text);
      try {
        load(path);
      } catch (const input_error& e) {
        ++rejected;
        EXPECT_FALSE(e.where().file.empty())
            << "seed " << seed << ": a rejection without a location: " << e.what();
        EXPECT_EQ(e.code(), exit_code::invalid_input) << "seed " << seed << ": " << e.what();
      } catch (const std::exception& e) {
        ADD_FAILURE() << "seed " << seed << " of " << name << ": " << typeid(e).name() << ": " << e.what();
      }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("%s: %d mutations, %d rejected as input errors, %.2f s\n", name.c_str(), count, rejected,
                seconds);
    EXPECT_GT(rejected, 0) << "the mutations never produced bad input";
  }

  static fs::path source(const std::string& relative) { return fs::path(COUNTERGUARD_SOURCE_DIR) / relative; }

  fs::path m_dir;
};

TEST_F(input_fuzz, mutated_suites_load_or_are_rejected_with_a_location) {
  const std::string seed_text = read_file_text(source("cases/transpose.yaml"));
  fuzz(seed_text, "suite.yaml", fuzz_iterations(600), [](const fs::path& path) {
    const suite loaded = load_suite(path.string(), kernel_registry::global(), metric_catalog::builtin());
    static_cast<void>(expand_instances(loaded, kernel_registry::global(), metric_catalog::builtin()));
  });
}

TEST_F(input_fuzz, mutated_baselines_load_or_are_rejected_with_a_location) {
  const std::string seed_text = read_file_text(source("baselines/GH100-132sm-cuda13/transpose.yaml"));
  fuzz(seed_text, "baseline.yaml", fuzz_iterations(600),
       [](const fs::path& path) { static_cast<void>(load_baseline_file(path.string())); });
}

TEST_F(input_fuzz, mutated_line_baselines_load_or_are_rejected_with_a_location) {
  // <suite>.lines.json is read only on a GPU (run's blame, baseline update --with-lines): fuzzed here, in
  // process, rather than through a command.
  const std::string seed_text = read_file_text(source("baselines/GH100-132sm-cuda13/transpose.lines.json"));
  fuzz(seed_text, "transpose.lines.json", fuzz_iterations(600), [](const fs::path& path) {
    const std::optional<line_baseline_file> loaded = load_line_baseline_file(path.string());
    static_cast<void>(loaded);
  });
}

TEST_F(input_fuzz, mutated_results_load_or_are_rejected_with_a_location) {
  const std::string seed_text = read_file_text(source("harness/test/fuzz/fixtures/results.json"));
  fuzz(seed_text, "results.json", fuzz_iterations(600),
       [](const fs::path& path) { static_cast<void>(load_run_results(path.string())); });
}

TEST_F(input_fuzz, mutated_run_files_load_or_are_rejected_with_a_location) {
  const std::string seed_text = read_file_text(source("harness/test/fuzz/fixtures/run.json"));
  fuzz(seed_text, "run.json", fuzz_iterations(600),
       [this](const fs::path&) { static_cast<void>(load_recorded_run(m_dir)); });
}

TEST_F(input_fuzz, documents_of_the_wrong_shape_are_input_errors) {
  // The shapes that once escaped as internal errors: a number, an object without results, paths not an array.
  for (const std::string text : {"42", "{}", R"({"suite_paths": "cases", "results": {}})", "[]", "null",
                                 R"({"suite_paths": [], "results": 7})"}) {
    std::ofstream(m_dir / "run.json", std::ios::trunc) << text;
    try {
      static_cast<void>(load_recorded_run(m_dir));
      ADD_FAILURE() << "accepted " << text;
    } catch (const input_error& e) {
      EXPECT_EQ(e.where().file, (m_dir / "run.json").string()) << text;
    }
  }
}

}  // namespace
}  // namespace counterguard
