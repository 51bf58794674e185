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
#include "counterguard/core/error.hpp"
#include "counterguard/core/json_reader.hpp"
#include "counterguard/measurement/recorded_run.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/suite_loader.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int iterations(int fallback) {
  const char* text = std::getenv("COUNTERGUARD_FUZZ_ITERATIONS");
  return text == nullptr ? fallback : std::max(1, std::atoi(text));
}

// Structure-aware enough to reach past the parser: most mutations keep the document's shape.
class mutator {
 public:
  explicit mutator(std::uint32_t seed) : m_random(seed) {}

  std::string mutate(std::string text) {
    const int rounds = pick(1, 4);
    for (int i = 0; i < rounds && !text.empty(); ++i) {
      switch (pick(0, 7)) {
        case 0:  // delete a span
          text.erase(position(text), static_cast<std::size_t>(pick(1, 40)));
          break;
        case 1:  // insert a token
          text.insert(position(text), token());
          break;
        case 2:  // swap two lines
          swap_lines(text);
          break;
        case 3:  // duplicate a line (duplicate keys, repeated cases)
          duplicate_line(text);
          break;
        case 4:  // an extreme or odd number in place of a digit run
          replace_number(text);
          break;
        case 5:  // truncate
          text.resize(position(text));
          break;
        case 6:  // change indentation of a line
          indent_line(text);
          break;
        default:  // flip a byte
          text[position(text)] = static_cast<char>(pick(1, 255));
          break;
      }
    }
    return text;
  }

 private:
  int pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(m_random); }
  std::size_t position(const std::string& text) {
    return static_cast<std::size_t>(pick(0, static_cast<int>(text.size()) - 1));
  }
  std::string token() {
    static const std::array<const char*, 24> tokens{":",
                                                    "- ",
                                                    "[",
                                                    "]",
                                                    "{",
                                                    "}",
                                                    "\"",
                                                    "'",
                                                    "null",
                                                    "~",
                                                    "1e309",
                                                    "-1",
                                                    "0x7fffffffffffffff",
                                                    "\t",
                                                    "\n",
                                                    "&a ",
                                                    "*a",
                                                    "!!binary ",
                                                    "? ",
                                                    ",",
                                                    "true",
                                                    "nan",
                                                    "{}",
                                                    "[]"};
    return tokens[static_cast<std::size_t>(pick(0, static_cast<int>(tokens.size()) - 1))];
  }
  static std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      lines.push_back(line);
    return lines;
  }
  static std::string join(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& line : lines)
      text += line + "\n";
    return text;
  }
  void swap_lines(std::string& text) {
    auto lines = lines_of(text);
    if (lines.size() < 2)
      return;
    std::swap(lines[static_cast<std::size_t>(pick(0, static_cast<int>(lines.size()) - 1))],
              lines[static_cast<std::size_t>(pick(0, static_cast<int>(lines.size()) - 1))]);
    text = join(lines);
  }
  void duplicate_line(std::string& text) {
    auto lines = lines_of(text);
    if (lines.empty())
      return;
    const auto i = static_cast<std::size_t>(pick(0, static_cast<int>(lines.size()) - 1));
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), lines[i]);
    text = join(lines);
  }
  void indent_line(std::string& text) {
    auto lines = lines_of(text);
    if (lines.empty())
      return;
    auto& line = lines[static_cast<std::size_t>(pick(0, static_cast<int>(lines.size()) - 1))];
    if (pick(0, 1) == 0)
      line.insert(0, std::string(static_cast<std::size_t>(pick(1, 4)), ' '));
    else if (!line.empty() && line[0] == ' ')
      line.erase(0, 1);
    text = join(lines);
  }
  void replace_number(std::string& text) {
    static const std::array<const char*, 8> numbers{
        "0", "-0", "99999999999999999999", "-9223372036854775808", "1.5", "-7", ".inf", "1e-320"};
    const std::size_t start = text.find_first_of("0123456789", position(text));
    if (start == std::string::npos)
      return;
    const std::size_t end = text.find_first_not_of("0123456789.", start);
    text.replace(start, (end == std::string::npos ? text.size() : end) - start,
                 numbers[static_cast<std::size_t>(pick(0, static_cast<int>(numbers.size()) - 1))]);
  }
  std::mt19937 m_random;
};

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
      std::ofstream(path, std::ios::binary | std::ios::trunc) << mutator(seed).mutate(seed_text);
      try {
        load(path);
      } catch (const input_error& e) {
        ++rejected;
        EXPECT_FALSE(e.where().file.empty())
            << "seed " << seed << ": a rejection without a location: " << e.what();
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
  const std::string seed_text = read_text(source("cases/transpose.yaml"));
  fuzz(seed_text, "suite.yaml", iterations(600), [](const fs::path& path) {
    const suite loaded = load_suite(path.string(), kernel_registry::global(), metric_catalog::builtin());
    static_cast<void>(expand_instances(loaded, kernel_registry::global(), metric_catalog::builtin()));
  });
}

TEST_F(input_fuzz, mutated_baselines_load_or_are_rejected_with_a_location) {
  const std::string seed_text = read_text(source("baselines/GH100-132sm-cuda13/transpose.yaml"));
  fuzz(seed_text, "baseline.yaml", iterations(600),
       [](const fs::path& path) { static_cast<void>(load_baseline_file(path.string())); });
}

TEST_F(input_fuzz, mutated_results_load_or_are_rejected_with_a_location) {
  const std::string seed_text = read_text(source("harness/test/fuzz/fixtures/results.json"));
  fuzz(seed_text, "results.json", iterations(600),
       [](const fs::path& path) { static_cast<void>(load_run_results(path.string())); });
}

TEST_F(input_fuzz, mutated_run_files_load_or_are_rejected_with_a_location) {
  const std::string seed_text = read_text(source("harness/test/fuzz/fixtures/run.json"));
  fuzz(seed_text, "run.json", iterations(600),
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
