// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/sass_disassembler.hpp"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

bool is_executable(const std::string& path) {
  return !path.empty() && access(path.c_str(), X_OK) == 0;
}

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A temporary file holding the cubin, removed when this goes out of scope.
class temporary_cubin {
 public:
  explicit temporary_cubin(const binary_view& cubin) {
    const char* directory = std::getenv("TMPDIR");
    std::string pattern = std::string(directory != nullptr && *directory != '\0' ? directory : "/tmp") +
                          "/counterguard-sass-XXXXXX";
    const int descriptor = mkstemp(pattern.data());
    if (descriptor < 0) {
      throw environment_error(environment_problem::file_system,
                              "cannot create a temporary file for nvdisasm in " + pattern);
    }
    m_path = pattern;
    std::size_t written = 0;
    while (written < cubin.size()) {
      const ssize_t n = write(descriptor, cubin.data() + written, cubin.size() - written);
      if (n <= 0)
        break;
      written += static_cast<std::size_t>(n);
    }
    close(descriptor);
    if (written != cubin.size()) {
      std::remove(m_path.c_str());
      throw environment_error(environment_problem::file_system, "cannot write the cubin to " + m_path);
    }
  }
  temporary_cubin(const temporary_cubin&) = delete;
  temporary_cubin& operator=(const temporary_cubin&) = delete;
  ~temporary_cubin() { std::remove(m_path.c_str()); }
  [[nodiscard]] const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

std::string trimmed(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos)
    return "";
  const auto end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

}  // namespace

std::string find_nvdisasm() {
  const char* configured = std::getenv("COUNTERGUARD_NVDISASM");
  if (configured != nullptr && *configured != '\0')
    return is_executable(configured) ? configured : "";
  if (const char* path = std::getenv("PATH")) {
    std::stringstream directories(path);
    std::string directory;
    while (std::getline(directories, directory, ':')) {
      if (!directory.empty() && is_executable(directory + "/nvdisasm"))
        return directory + "/nvdisasm";
    }
  }
  return is_executable("/usr/local/cuda/bin/nvdisasm") ? "/usr/local/cuda/bin/nvdisasm" : "";
}

cubin_disassembly disassemble_cubin(const binary_view& cubin) {
  const std::string nvdisasm = find_nvdisasm();
  if (nvdisasm.empty()) {
    throw environment_error(
        environment_problem::process,
        "nvdisasm, the CUDA toolkit's disassembler, is not installed (not on PATH nor in "
        "/usr/local/cuda/bin; "
        "$COUNTERGUARD_NVDISASM may name it): install the toolkit's nvdisasm component (e.g. the package "
        "cuda-nvdisasm-13-0), or use --lines-only for the instructions' source lines without their text");
  }
  const temporary_cubin file(cubin);
  const std::string command = shell_quoted(nvdisasm) + " --print-code " + shell_quoted(file.path()) + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr)
    throw environment_error(environment_problem::process, "cannot start " + nvdisasm);
  std::string output;
  char buffer[65536];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
    output.append(buffer, n);
  const int status = pclose(pipe);
  if (status != 0) {
    throw environment_error(
        environment_problem::process,
        fmt::format("{} failed (status {}) on the cubin {}: {}", nvdisasm,
                    WIFEXITED(status) ? WEXITSTATUS(status) : status,
                    cubin.origin().part.empty() ? cubin.origin().file
                                                : cubin.origin().file + " > " + cubin.origin().part,
                    trimmed(output.substr(0, 2000))));
  }
  return parse_nvdisasm_output(output);
}

cubin_disassembly parse_nvdisasm_output(const std::string& text) {
  static const std::regex section_line(R"(^\s*\.section\s+"?\.text\.([^",\s]+))");
  static const std::regex instruction_line(R"(^\s*/\*([0-9a-fA-F]+)\*/\s*(.*?)\s*;)");
  cubin_disassembly out;
  std::vector<disassembled_instruction>* function = nullptr;
  std::stringstream lines(text);
  std::string line;
  std::smatch match;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, match, section_line)) {
      function = &out[match[1].str()];
    } else if (function != nullptr && std::regex_search(line, match, instruction_line)) {
      disassembled_instruction instruction;
      instruction.offset = std::stoull(match[1].str(), nullptr, 16);
      instruction.text = trimmed(match[2].str());
      function->push_back(std::move(instruction));
    }
  }
  return out;
}

std::string instruction_opcode(const std::string& text) {
  std::stringstream words(text);
  std::string word;
  while (words >> word) {
    if (word[0] == '@')  // the guard predicate
      continue;
    return std::isalpha(static_cast<unsigned char>(word[0])) != 0 ? word : "";
  }
  return "";
}

}  // namespace counterguard
