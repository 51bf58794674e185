#pragma once
// Runs the counterguard binary the way users and CI do, and captures what it says.

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
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
