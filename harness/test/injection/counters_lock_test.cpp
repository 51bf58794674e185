// SPDX-License-Identifier: Apache-2.0
#include "counters_lock.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

namespace counterguard::injection {
namespace {

namespace fs = std::filesystem;

// Two locks on one file stand for two processes: flock locks belong to the open file, not the process.
class counters_lock_test : public ::testing::Test {
 protected:
  void SetUp() override {
    m_folder = fs::temp_directory_path() / ("counterguard-counters-lock-" + std::to_string(::getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(m_folder);
  }
  void TearDown() override { fs::remove_all(m_folder); }
  [[nodiscard]] std::string path() const { return (m_folder / "counters.lock").string(); }

 private:
  fs::path m_folder;
};

TEST_F(counters_lock_test, acquire_takes_a_free_lock) {
  counters_lock first(path());
  EXPECT_TRUE(first.acquire(1.0));
  EXPECT_TRUE(first.held());
  first.release();
  EXPECT_FALSE(first.held());
}

TEST_F(counters_lock_test, acquire_gives_up_while_another_process_keeps_the_lock) {
  counters_lock holder(path());
  counters_lock other(path());
  ASSERT_TRUE(holder.acquire(1.0));
  EXPECT_FALSE(other.acquire(0.05));
  EXPECT_FALSE(other.held());
  EXPECT_FALSE(holder.others_waiting());  // a process that gave up waits no longer
}

TEST_F(counters_lock_test, a_waiting_process_is_seen_by_the_holder_and_gets_the_lock_on_release) {
  counters_lock holder(path());
  counters_lock waiter(path());
  ASSERT_TRUE(holder.acquire(1.0));
  auto waited = std::async(std::launch::async, [&waiter] { return waiter.acquire(10.0); });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!holder.others_waiting() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(holder.others_waiting());
  holder.release();
  EXPECT_TRUE(waited.get());
  EXPECT_TRUE(waiter.held());
}

}  // namespace
}  // namespace counterguard::injection
