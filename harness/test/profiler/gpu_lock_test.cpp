// SPDX-License-Identifier: Apache-2.0
// Two counterguard runs on one GPU queue on its lock instead of failing with CUPTI_ERROR_HARDWARE_BUSY.
#include "counterguard/profiler/gpu_lock.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

class gpu_lock_test : public ::testing::Test {
 protected:
  gpu_lock_test() {
    m_dir = std::filesystem::temp_directory_path() / ("counterguard-locks-" + std::to_string(::getpid()));
    std::filesystem::create_directories(m_dir);
    ::setenv("COUNTERGUARD_LOCK_DIR", m_dir.c_str(), 1);
  }
  ~gpu_lock_test() override {
    ::unsetenv("COUNTERGUARD_LOCK_DIR");
    std::filesystem::remove_all(m_dir);
  }
  std::filesystem::path m_dir;
};

// Holds the lock in another process for `seconds`, signalling through a file once it has it.
pid_t hold_in_child(const std::string& uuid, double seconds, const std::filesystem::path& ready) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    {
      const gpu_lock held(uuid, 0.0, {});
      std::ofstream(ready) << "ready";
      std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    }
    ::_exit(0);
  }
  for (int i = 0; i < 200 && !std::filesystem::exists(ready); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return pid;
}

TEST_F(gpu_lock_test, the_lock_file_lives_in_the_lock_directory_named_by_the_gpu) {
  EXPECT_EQ(gpu_lock_path("GPU-abc"), (m_dir / "counterguard-gpu-GPU-abc.lock").string());
}

TEST_F(gpu_lock_test, a_second_run_waits_with_a_message_naming_the_holder_then_gets_the_gpu) {
  const pid_t holder = hold_in_child("GPU-1", 0.8, m_dir / "ready");
  std::string message;
  const auto start = std::chrono::steady_clock::now();
  {
    const gpu_lock lock("GPU-1", 10.0, [&](const std::string& m) { message = m; });
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_GT(waited, 0.3);
  }
  EXPECT_NE(message.find("waiting for GPU GPU-1"), std::string::npos) << message;
  EXPECT_NE(message.find("pid " + std::to_string(holder)), std::string::npos) << message;
  ::waitpid(holder, nullptr, 0);
}

TEST_F(gpu_lock_test, an_expired_wait_is_an_environment_error) {
  const pid_t holder = hold_in_child("GPU-2", 3.0, m_dir / "ready2");
  try {
    const gpu_lock lock("GPU-2", 0.3, {});
    ADD_FAILURE() << "got a lock another process holds";
  } catch (const environment_error& e) {
    EXPECT_EQ(e.problem(), environment_problem::gpu_wait_expired);
    EXPECT_EQ(e.code(), exit_code::environment);
    EXPECT_NE(std::string(e.what()).find("--wait-for-gpu"), std::string::npos) << e.what();
  }
  ::kill(holder, SIGKILL);
  ::waitpid(holder, nullptr, 0);
}

TEST_F(gpu_lock_test, different_gpus_do_not_wait_for_each_other) {
  const pid_t holder = hold_in_child("GPU-3", 3.0, m_dir / "ready3");
  EXPECT_NO_THROW(gpu_lock("GPU-4", 0.0, {}));
  ::kill(holder, SIGKILL);
  ::waitpid(holder, nullptr, 0);
}

TEST_F(gpu_lock_test, a_holder_that_dies_releases_the_gpu) {
  const pid_t holder = hold_in_child("GPU-5", 30.0, m_dir / "ready5");
  ::kill(holder, SIGKILL);
  ::waitpid(holder, nullptr, 0);
  EXPECT_NO_THROW(gpu_lock("GPU-5", 0.5, {}));
}

}  // namespace
}  // namespace counterguard
