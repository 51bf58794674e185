// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runs the counterguard binary the way users and CI do, and captures what it says.

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace counterguard::test {

struct command_result {
  int status = -1;
  std::string output;  // stdout and stderr together
};

inline command_result run_counterguard(const std::string& arguments) {
  const std::string command = std::string("cd '") + COUNTERGUARD_SOURCE_DIR + "' && '" + COUNTERGUARD_BINARY +
                              "' " + arguments + " 2>&1";
  command_result result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr)
    return result;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr)
    result.output += buffer.data();
  const int status = ::pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

struct separate_output {
  int status = -1;
  std::string out;  // standard output
  std::string err;  // standard error
};

// run_counterguard with standard output and standard error kept apart.
inline separate_output run_counterguard_separately(const std::string& arguments) {
  char name[] = "/tmp/counterguard-stderr-XXXXXX";
  const int descriptor = ::mkstemp(name);
  if (descriptor >= 0)
    ::close(descriptor);
  const std::string command = std::string("cd '") + COUNTERGUARD_SOURCE_DIR + "' && '" + COUNTERGUARD_BINARY +
                              "' " + arguments + " 2>'" + name + "'";
  separate_output result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr)
    return result;
  std::array<char, 4096> buffer{};
  for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;)
    result.out.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(name);
  result.err.assign(std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>());
  std::remove(name);
  return result;
}

// A scratch directory removed at the end of the test.
class scratch_directory {
 public:
  scratch_directory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "counterguard-cli-XXXXXX").string();
    m_path = ::mkdtemp(pattern.data());
  }
  scratch_directory(const scratch_directory&) = delete;
  scratch_directory& operator=(const scratch_directory&) = delete;
  ~scratch_directory() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const auto file = m_path / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file;
  }

 private:
  std::filesystem::path m_path;
};

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace counterguard::test
