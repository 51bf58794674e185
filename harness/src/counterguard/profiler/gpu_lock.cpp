// SPDX-License-Identifier: Apache-2.0
#include "counterguard/profiler/gpu_lock.hpp"

#include <cuda_runtime_api.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "counterguard/core/error.hpp"
#include "counterguard/core/interruption.hpp"

namespace counterguard {
namespace {

std::string read_holder(int fd) {
  std::string text(512, '\0');
  const ssize_t n = ::pread(fd, text.data(), text.size(), 0);
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0'))
    text.pop_back();
  return text.empty() ? "another counterguard process" : text;
}

std::string own_description() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string command((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (char& c : command) {
    if (c == '\0')
      c = ' ';
  }
  while (!command.empty() && command.back() == ' ')
    command.pop_back();
  return "pid " + std::to_string(::getpid()) + " (" + command + ")";
}

}  // namespace

std::string gpu_lock_path(const std::string& uuid) {
  const char* directory = std::getenv("COUNTERGUARD_LOCK_DIR");
  return std::string(directory != nullptr && *directory != '\0' ? directory : "/tmp") + "/counterguard-gpu-" +
         uuid + ".lock";
}

std::string gpu_uuid(int ordinal) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || ordinal < 0 || ordinal >= count) {
    static_cast<void>(cudaGetLastError());
    return {};
  }
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, ordinal) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    return {};
  }
  std::string text = "GPU-";
  for (std::size_t i = 0; i < sizeof(properties.uuid.bytes); ++i) {
    char hex[3];
    std::snprintf(hex, sizeof(hex), "%02x", static_cast<unsigned char>(properties.uuid.bytes[i]));
    text += hex;
    if (i == 3 || i == 5 || i == 7 || i == 9)
      text += '-';
  }
  return text;
}

gpu_lock::gpu_lock(const std::string& uuid, double wait_seconds,
                   const std::function<void(const std::string&)>& on_wait)
    : m_path(gpu_lock_path(uuid)) {
  m_fd = ::open(m_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (m_fd < 0) {
    throw environment_error(environment_problem::file_system,
                            "cannot open the GPU lock file " + m_path + ": " + std::strerror(errno) +
                                "; set COUNTERGUARD_LOCK_DIR to a writable directory");
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_seconds);
  bool told = false;
  while (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      const std::string reason = std::strerror(errno);
      ::close(m_fd);
      throw environment_error(environment_problem::file_system, "cannot lock " + m_path + ": " + reason);
    }
    const std::string holder = read_holder(m_fd);
    if (std::chrono::steady_clock::now() >= deadline) {
      ::close(m_fd);
      throw environment_error(environment_problem::gpu_wait_expired,
                              "the GPU " + uuid + " was still held by " + holder + " after waiting " +
                                  std::to_string(static_cast<int>(wait_seconds)) +
                                  " s; raise --wait-for-gpu or run on another GPU (lock file " + m_path +
                                  ")");
    }
    if (!told && on_wait) {
      on_wait("waiting for GPU " + uuid + ", held by " + holder + " (up to " +
              std::to_string(static_cast<int>(wait_seconds)) + " s, --wait-for-gpu)");
      told = true;
    }
    try {
      interruption_guard::throw_if_interrupted();
    } catch (...) {
      ::close(m_fd);
      throw;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  // Who holds it, for the message of the next process that waits.
  const std::string description = own_description() + "\n";
  if (::ftruncate(m_fd, 0) == 0)
    static_cast<void>(::pwrite(m_fd, description.data(), description.size(), 0));
}

gpu_lock::~gpu_lock() {
  if (m_fd >= 0)
    ::close(m_fd);  // releases the flock
}

}  // namespace counterguard
