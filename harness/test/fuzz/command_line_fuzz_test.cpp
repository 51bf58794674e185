// SPDX-License-Identifier: Apache-2.0
// Seeded mutation fuzzing of every input format through the counterguard binary, as users meet it: suites
// (list, static), baselines (baseline diff), results (merge, compare, history import), history databases
// (history list, compare --history) and recordings (evaluate). Each mutated file must end in exit status 0
// or 1 (it still reads) or 2 with a message naming the file; never another status, a signal or a hang.
// Bounded: each format runs a fixed number of mutations or a few seconds, whichever ends first
// (COUNTERGUARD_FUZZ_ITERATIONS raises the count, COUNTERGUARD_FUZZ_SECONDS the time, for longer local runs).
// Line baselines (<suite>.lines.json) have no CPU command: input_fuzz_test.cpp fuzzes their reader in
// process.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "fuzz_mutators.hpp"

namespace counterguard::test {
namespace {

namespace fs = std::filesystem;
using steady = std::chrono::steady_clock;

struct command_outcome {
  int status = -1;       // the exit status; -1 when killed by a signal or for hanging
  int signal = 0;        // the signal that ended it
  bool hung = false;     // still running after the time limit: killed
  std::string messages;  // its standard error
};

// Runs the counterguard binary with `arguments`, standard output discarded, standard error kept.
command_outcome run_counterguard_binary(const std::vector<std::string>& arguments, const fs::path& scratch) {
  const fs::path messages = scratch / "stderr.txt";
  const pid_t child = ::fork();
  if (child == 0) {
    // From the project's root, as users run it: recordings name their suites relative to it.
    if (::chdir(COUNTERGUARD_SOURCE_DIR) != 0)
      ::_exit(125);
    std::FILE* out = std::freopen("/dev/null", "w", stdout);
    std::FILE* err = std::freopen(messages.c_str(), "w", stderr);
    if (out == nullptr || err == nullptr)
      ::_exit(126);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(COUNTERGUARD_BINARY));
    for (const auto& argument : arguments)
      argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    ::execv(COUNTERGUARD_BINARY, argv.data());
    ::_exit(127);
  }
  command_outcome outcome;
  const auto deadline = steady::now() + std::chrono::seconds(60);
  int status = 0;
  while (::waitpid(child, &status, WNOHANG) == 0) {
    if (steady::now() > deadline) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      outcome.hung = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (!outcome.hung && WIFEXITED(status))
    outcome.status = WEXITSTATUS(status);
  if (!outcome.hung && WIFSIGNALED(status))
    outcome.signal = WTERMSIG(status);
  outcome.messages = read_file_text(messages);
  return outcome;
}

double fuzz_seconds(double fallback) {
  const char* text = std::getenv("COUNTERGUARD_FUZZ_SECONDS");
  return text == nullptr ? fallback : std::max(0.1, std::atof(text));
}

// What one format's fuzzing needs: the seed file's text, where its mutations go, how to read one with the
// binary (the i-th command), and what a rejection must name.
struct fuzz_target {
  std::string name;
  std::string seed_text;
  fs::path mutated;
  std::function<std::vector<std::string>(int i)> command;
  std::string named;     // a rejection's message contains this (the file, or the recording's directory)
  bool binary = false;   // bytes (a database), not text
  int count = 150;       // mutations at most
  double seconds = 6.0;  // and at most this long
};

class command_line_fuzz : public ::testing::Test {
 protected:
  command_line_fuzz() {
    m_dir = fs::temp_directory_path() / ("counterguard-cli-fuzz-" + std::to_string(::getpid()));
    fs::remove_all(m_dir);  // a killed earlier process of the same pid may have left its databases
    fs::create_directories(m_dir);
  }
  ~command_line_fuzz() override { fs::remove_all(m_dir); }

  static fs::path source(const std::string& relative) { return fs::path(COUNTERGUARD_SOURCE_DIR) / relative; }

  void fuzz(const fuzz_target& target) {
    int rejected = 0;
    int accepted = 0;
    int runs = 0;
    const auto started = steady::now();
    const int count = fuzz_iterations(target.count);
    const double budget = fuzz_seconds(target.seconds);
    for (int i = 0; i < count; ++i) {
      if (std::chrono::duration<double>(steady::now() - started).count() > budget)
        break;
      const auto seed =
          static_cast<std::uint32_t>(i) * 2246822519U + static_cast<std::uint32_t>(target.name.size());
      const std::string mutated = target.binary ? binary_mutator(seed).mutate(target.seed_text)
                                                : text_mutator(seed).mutate(target.seed_text);
      std::ofstream(target.mutated, std::ios::binary | std::ios::trunc) << mutated;
      const std::vector<std::string> arguments = target.command(i);
      const command_outcome outcome = run_counterguard_binary(arguments, m_dir);
      ++runs;
      std::string command_line;
      for (const auto& argument : arguments)
        command_line += " " + argument;
      const std::string context = target.name + " seed " + std::to_string(seed) + " (mutation " +
                                  std::to_string(i) + "): counterguard" + command_line + "\n" +
                                  outcome.messages;
      if (outcome.hung) {
        ADD_FAILURE() << "hung: " << context;
      } else if (outcome.signal != 0) {
        ADD_FAILURE() << "killed by signal " << outcome.signal << ": " << context;
      } else if (outcome.status == 2) {
        ++rejected;
        EXPECT_NE(outcome.messages.find(target.named), std::string::npos)
            << "a rejection that does not name " << target.named << ": " << context;
      } else if (outcome.status == 0 || outcome.status == 1) {
        ++accepted;
      } else {
        ADD_FAILURE() << "exit status " << outcome.status
                      << " (only 0, 1 or 2 are right for a file): " << context;
      }
    }
    const double seconds = std::chrono::duration<double>(steady::now() - started).count();
    std::printf("%s: %d mutations, %d rejected (exit status 2), %d read, %.2f s\n", target.name.c_str(), runs,
                rejected, accepted, seconds);
    EXPECT_GT(rejected, 0) << "the mutations never produced bad input";
  }

  fs::path m_dir;
};

TEST_F(command_line_fuzz, mutated_suites_end_in_exit_status_2_naming_the_file) {
  fuzz_target target;
  target.name = "suite (list, static)";
  target.seed_text = read_file_text(source("cases/transpose.yaml"));
  target.mutated = m_dir / "transpose.yaml";
  target.named = target.mutated.string();
  target.command = [path = target.mutated.string()](int i) -> std::vector<std::string> {
    if (i % 5 != 4)
      return {"list", path};
    return {"static", path, "--quiet"};  // slower: it reads the kernels' resources
  };
  fuzz(target);
}

TEST_F(command_line_fuzz, mutated_baselines_end_in_exit_status_2_naming_the_file) {
  const std::string key = "GH100-132sm-cuda13";
  fs::create_directories(m_dir / "old" / key);
  fs::create_directories(m_dir / "new" / key);
  fs::copy_file(source("baselines/" + key + "/transpose.yaml"), m_dir / "old" / key / "transpose.yaml");
  fuzz_target target;
  target.name = "baseline (baseline diff)";
  target.seed_text = read_file_text(source("baselines/" + key + "/transpose.yaml"));
  target.mutated = m_dir / "new" / key / "transpose.yaml";
  target.named = target.mutated.string();
  target.command = [this](int) -> std::vector<std::string> {
    return {"baseline", "diff", (m_dir / "old").string(), (m_dir / "new").string(), "--quiet"};
  };
  fuzz(target);
}

TEST_F(command_line_fuzz, mutated_results_end_in_exit_status_2_naming_the_file) {
  fuzz_target target;
  target.name = "results (merge, compare, history import)";
  target.seed_text = read_file_text(source("harness/test/fuzz/fixtures/results.json"));
  target.mutated = m_dir / "results.json";
  target.named = target.mutated.string();
  target.command = [this, path = target.mutated.string()](int i) -> std::vector<std::string> {
    switch (i % 3) {
      case 0:
        return {"merge", "--quiet", "--json", (m_dir / "merged.json").string(), path};
      case 1:
        return {"compare", path, source("harness/test/fuzz/fixtures/results.json").string()};
      default:
        fs::remove(m_dir / "imported.db");
        return {"history", "import", "--history", (m_dir / "imported.db").string(), path};
    }
  };
  fuzz(target);
}

TEST_F(command_line_fuzz, mutated_history_databases_end_in_exit_status_2_naming_the_file) {
  // A database with two runs, recorded by counterguard itself.
  const fs::path seed = m_dir / "seed.db";
  for (const char* results :
       {"harness/test/fuzz/fixtures/results.json", "harness/test/fixtures/h200_extra_metrics/results.json"}) {
    const command_outcome recorded = run_counterguard_binary(
        {"history", "import", "--history", seed.string(), source(results).string()}, m_dir);
    ASSERT_EQ(recorded.status, 0) << recorded.messages;
  }
  fuzz_target target;
  target.name = "history database (history list, compare --history)";
  target.seed_text = read_file_text(seed);
  target.mutated = m_dir / "history.db";
  target.named = target.mutated.string();
  target.binary = true;
  target.command = [path = target.mutated.string()](int i) -> std::vector<std::string> {
    fs::remove(path + "-journal");
    if (i % 2 == 0)
      return {"history", "list", "--history", path};
    return {"compare", "--history", path, "run:1", "run:2"};
  };
  fuzz(target);
}

TEST_F(command_line_fuzz, mutated_recordings_end_in_exit_status_2_naming_the_recording) {
  // The recording's run.json mutated; its counter data stays (evaluating a mutation that still reads costs
  // about half a second, hence fewer mutations).
  const fs::path recording = m_dir / "recording";
  fs::copy(source("harness/test/fixtures/h200_divergence"), recording, fs::copy_options::recursive);
  fuzz_target target;
  target.name = "recording (evaluate)";
  target.seed_text = read_file_text(recording / "run.json");
  target.mutated = recording / "run.json";
  target.named = recording.string();
  target.count = 40;
  target.command = [recording](int) -> std::vector<std::string> {
    return {"evaluate", recording.string(), "--no-baselines", "--quiet"};
  };
  fuzz(target);
}

TEST(command_line_bad_input, a_results_number_beyond_double_range_is_exit_2_naming_the_file_and_field) {
  // Once "internal error: number overflow" (exit status 4).
  const fs::path dir = fs::temp_directory_path() / ("counterguard-overflow-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string text =
      read_file_text(fs::path(COUNTERGUARD_SOURCE_DIR) / "harness/test/fuzz/fixtures/results.json");
  const std::string seconds = "\"seconds\": ";
  const std::size_t at = text.find(seconds);
  ASSERT_NE(at, std::string::npos);
  text.replace(at + seconds.size(), text.find_first_of(",\n", at + seconds.size()) - at - seconds.size(),
               "1e309");
  const fs::path results = dir / "run.json";
  std::ofstream(results) << text;
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"merge", "--json", (dir / "m.json").string(), results.string()},
        std::vector<std::string>{"compare", results.string(), results.string()},
        std::vector<std::string>{"history", "import", "--history", (dir / "h.db").string(),
                                 results.string()}}) {
    const command_outcome outcome = run_counterguard_binary(command, dir);
    EXPECT_EQ(outcome.status, 2) << command[0] << ": " << outcome.messages;
    EXPECT_NE(outcome.messages.find(results.string() + ":"), std::string::npos) << outcome.messages;
    EXPECT_NE(outcome.messages.find("field 'cases[0].seconds'"), std::string::npos) << outcome.messages;
    EXPECT_NE(outcome.messages.find("1e309 is beyond the range of a double"), std::string::npos)
        << outcome.messages;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace counterguard::test
