// SPDX-License-Identifier: Apache-2.0
#include "counters_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

namespace counterguard::injection {

counters_lock::counters_lock(std::string path) : m_path(std::move(path)) {}

counters_lock::~counters_lock() {
  release();
  for (const int descriptor : {m_descriptor, m_waiting_descriptor}) {
    if (descriptor >= 0)
      ::close(descriptor);
  }
}

bool counters_lock::open_files() {
  for (auto [descriptor, path] : {std::pair<int*, std::string>{&m_descriptor, m_path},
                                  std::pair<int*, std::string>{&m_waiting_descriptor, m_path + ".waiting"}}) {
    if (*descriptor >= 0)
      continue;
    *descriptor = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (*descriptor < 0) {
      m_problem = "cannot open " + path + ": " + std::strerror(errno);
      return false;
    }
  }
  return true;
}

bool counters_lock::acquire(double seconds) {
  if (m_held)
    return true;
  if (!open_files())
    return false;
  if (::flock(m_descriptor, LOCK_EX | LOCK_NB) == 0) {
    m_held = true;
    return true;
  }
  // Say that this process waits, so the holder lets go; polled rather than blocking, so a launch callback
  // comes back even when the holder never does.
  ::flock(m_waiting_descriptor, LOCK_SH);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (::flock(m_descriptor, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      m_problem = "cannot lock " + m_path + ": " + std::strerror(errno);
      ::flock(m_waiting_descriptor, LOCK_UN);
      return false;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      m_problem = "another process of the program held the GPU's counters for " +
                  std::to_string(static_cast<int>(seconds)) + " s";
      ::flock(m_waiting_descriptor, LOCK_UN);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ::flock(m_waiting_descriptor, LOCK_UN);
  m_held = true;
  return true;
}

bool counters_lock::others_waiting() {
  if (m_waiting_descriptor < 0)
    return false;
  // An exclusive lock is refused exactly while some process holds the shared one.
  if (::flock(m_waiting_descriptor, LOCK_EX | LOCK_NB) == 0) {
    ::flock(m_waiting_descriptor, LOCK_UN);
    return false;
  }
  return errno == EWOULDBLOCK;
}

void counters_lock::release() noexcept {
  if (m_held && m_descriptor >= 0)
    ::flock(m_descriptor, LOCK_UN);
  m_held = false;
}

}  // namespace counterguard::injection
