// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int error_number) {
  throw environment_error(environment_problem::file_system,
                          path + ": " + what + ": " + std::strerror(error_number) +
                              "; check that the directory is writable and the disk has room");
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  if (slash == 0)
    return "/";
  return path.substr(0, slash);
}

// Removes the temporary file unless released: every early exit, exceptions included, cleans up.
class temporary_file_guard {
 public:
  explicit temporary_file_guard(std::string path) : m_path(std::move(path)) {}
  temporary_file_guard(const temporary_file_guard&) = delete;
  temporary_file_guard& operator=(const temporary_file_guard&) = delete;
  ~temporary_file_guard() {
    if (m_fd >= 0)
      ::close(m_fd);
    if (m_armed)
      ::unlink(m_path.c_str());
  }
  void set_fd(int fd) { m_fd = fd; }
  int close_fd() {
    const int result = ::close(m_fd);
    m_fd = -1;
    return result;
  }
  void arm() { m_armed = true; }
  void release() { m_armed = false; }

 private:
  std::string m_path;
  int m_fd = -1;
  bool m_armed = false;
};

void write_file(const std::string& path, const std::string& content, file_durability durability,
                const std::function<void(const std::string& temporary_path)>& before_rename) {
  // Reports often go into a folder that a clean checkout lacks (out/summary.md): create it.
  std::error_code created;
  std::filesystem::create_directories(std::filesystem::path(directory_of(path)), created);
  if (created)
    fail(directory_of(path), "cannot create the directory", created.value());
  // One temporary name per process, so two writers of one file never write into each other's temporary.
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  temporary_file_guard guard(temporary);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    fail(temporary, "cannot create temporary file", errno);
  guard.set_fd(fd);
  guard.arm();

  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      fail(temporary, "cannot write", errno);
    }
    written += static_cast<std::size_t>(n);
  }
  if (durability == file_durability::synced && ::fsync(fd) != 0)
    fail(temporary, "cannot sync", errno);
  if (guard.close_fd() != 0)
    fail(temporary, "cannot close", errno);

  if (before_rename)
    before_rename(temporary);
  if (std::rename(temporary.c_str(), path.c_str()) != 0)
    fail(path, "cannot replace", errno);
  guard.release();
  if (durability == file_durability::scratch)
    return;

  // Make the rename itself durable; a failure here cannot undo it, so it is not an error.
  const int directory = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory >= 0) {
    ::fsync(directory);
    ::close(directory);
  }
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content,
                           const std::function<void(const std::string& temporary_path)>& before_rename) {
  write_file(path, content, file_durability::synced, before_rename);
}

void write_scratch_file_atomically(const std::string& path, const std::string& content) {
  write_file(path, content, file_durability::scratch, {});
}

}  // namespace counterguard
