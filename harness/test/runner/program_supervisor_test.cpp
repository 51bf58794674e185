// SPDX-License-Identifier: Apache-2.0
// Running the program of `counterguard exec`: its exit status, a crash, a hang, processes it leaves behind,
// the environment it gets, a program that cannot start, and Ctrl-C. Small shell programs, no GPU.
#include "counterguard/runner/program_supervisor.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include "counterguard/core/error.hpp"
#include "counterguard/core/interruption.hpp"

namespace counterguard {
namespace {

program_launch shell(const std::string& script, double timeout = 0.0) {
  program_launch launch;
  launch.argv = {"sh", "-c", script};
  launch.timeout_seconds = timeout;
  launch.leftover_grace_seconds = 0.5;
  return launch;
}

std::filesystem::path scratch(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("counterguard_supervisor_" + std::to_string(::getpid()) + "_" + name);
}

// Running, not a zombie (a container's PID 1 may never reap the processes it inherits).
bool alive(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(in, text))
    return false;
  const std::size_t close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z' &&
         text[close + 2] != 'X';
}

pid_t read_pid(const std::filesystem::path& file) {
  pid_t pid = 0;
  for (int i = 0; i < 100 && pid == 0; ++i) {
    std::ifstream(file) >> pid;
    if (pid == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pid;
}

TEST(program_supervisor, a_clean_exit_is_status_zero) {
  const program_outcome outcome = run_program(shell("exit 0"));
  EXPECT_EQ(outcome.exit_status, 0);
  EXPECT_TRUE(outcome.succeeded());
  EXPECT_FALSE(outcome.signal.has_value());
  EXPECT_EQ(outcome.argv.front(), "sh");
}

TEST(program_supervisor, a_non_zero_exit_status_is_reported) {
  const program_outcome outcome = run_program(shell("exit 3"));
  EXPECT_EQ(outcome.exit_status, 3);
  EXPECT_FALSE(outcome.succeeded());
}

TEST(program_supervisor, a_crash_is_reported_with_its_signal) {
  const program_outcome outcome = run_program(shell("kill -SEGV $$"));
  EXPECT_FALSE(outcome.exit_status.has_value());
  EXPECT_EQ(outcome.signal, SIGSEGV);
  EXPECT_NE(outcome.describe().find("SIGSEGV"), std::string::npos);
}

TEST(program_supervisor, a_hang_is_killed_at_the_timeout_with_its_children) {
  const auto file = scratch("hang.pid");
  const auto started = std::chrono::steady_clock::now();
  const program_outcome outcome = run_program(shell("sleep 30 & echo $! > " + file.string() + "; wait", 0.5));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_FALSE(outcome.succeeded());
  EXPECT_LT(seconds, 5.0);
  const pid_t child = read_pid(file);
  ASSERT_GT(child, 0);
  EXPECT_FALSE(alive(child)) << "the program's child outlived the timeout";
  std::filesystem::remove(file);
}

TEST(program_supervisor, processes_left_behind_are_stopped_when_the_program_exits) {
  const auto file = scratch("leftover.pid");
  const program_outcome outcome = run_program(shell("sleep 30 & echo $! > " + file.string() + "; exit 0"));
  EXPECT_EQ(outcome.exit_status, 0);
  const pid_t child = read_pid(file);
  ASSERT_GT(child, 0);
  EXPECT_FALSE(alive(child)) << "a process the program left running survived the run";
  std::filesystem::remove(file);
}

TEST(program_supervisor, the_program_gets_the_added_environment_and_its_arguments) {
  program_launch launch =
      shell("test \"$COUNTERGUARD_TEST_VALUE\" = injected && test \"$0\" = name && exit 5");
  launch.argv.push_back("name");
  launch.environment = {{"COUNTERGUARD_TEST_VALUE", "injected"}};
  EXPECT_EQ(run_program(launch).exit_status, 5);
}

TEST(program_supervisor, a_program_that_does_not_exist_is_invalid_input) {
  program_launch launch;
  launch.argv = {"./counterguard-no-such-program"};
  try {
    (void)run_program(launch);
    ADD_FAILURE() << "a missing program started";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot find an executable './counterguard-no-such-program'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)run_program(program_launch{}), input_error);
}

TEST(program_supervisor, a_file_that_may_not_be_executed_is_invalid_input) {
  const auto file = scratch("not_executable.sh");
  std::ofstream(file) << "#!/bin/sh\nexit 0\n";
  ::chmod(file.c_str(), 0644);
  program_launch launch;
  launch.argv = {file.string()};
  EXPECT_THROW((void)run_program(launch), input_error);
  std::filesystem::remove(file);
}

TEST(program_supervisor, names_without_a_slash_are_found_in_path) {
  EXPECT_FALSE(resolve_program("sh").empty());
  EXPECT_TRUE(resolve_program("counterguard-no-such-program").empty());
  EXPECT_EQ(resolve_program("/bin/sh"), "/bin/sh");
}

TEST(program_supervisor, a_signal_to_counterguard_stops_the_program_and_its_group) {
  const auto file = scratch("interrupted.pid");
  const interruption_guard guard;
  std::thread interrupter([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(::getpid(), SIGTERM);
  });
  try {
    (void)run_program(shell("sleep 30 & echo $! > " + file.string() + "; wait"));
    ADD_FAILURE() << "the run was not interrupted";
  } catch (const interrupted_error& e) {
    EXPECT_EQ(e.exit_status(), 128 + SIGTERM);
  }
  interrupter.join();
  const pid_t child = read_pid(file);
  ASSERT_GT(child, 0);
  EXPECT_FALSE(alive(child));
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace counterguard
