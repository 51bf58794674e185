#include "counters_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

namespace counterguard::injection {

counters_lock::counters_lock(std::string path) : m_path(std::move(path)) {}

counters_lock::~counters_lock() {
  release();
  if (m_descriptor >= 0)
    ::close(m_descriptor);
}

bool counters_lock::acquire(double seconds) {
  if (m_held)
    return true;
  if (m_descriptor < 0) {
    m_descriptor = ::open(m_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (m_descriptor < 0) {
      m_problem = "cannot open " + m_path + ": " + std::strerror(errno);
      return false;
    }
  }
  // Polled rather than blocking: a launch callback must come back even when another process never lets go.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (::flock(m_descriptor, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      m_problem = "cannot lock " + m_path + ": " + std::strerror(errno);
      return false;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      m_problem = "another process of the program held the GPU's counters for " +
                  std::to_string(static_cast<int>(seconds)) + " s";
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  m_held = true;
  return true;
}

void counters_lock::release() noexcept {
  if (m_held && m_descriptor >= 0)
    ::flock(m_descriptor, LOCK_UN);
  m_held = false;
}

}  // namespace counterguard::injection
