// SPDX-License-Identifier: Apache-2.0
#pragma once
// Seeded mutators for fuzzing the readers of user files (input_fuzz_test.cpp in process,
// command_line_fuzz_test.cpp through the counterguard binary). Deterministic: a seed gives the same mutation.

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace counterguard::test {

inline std::string read_file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline int fuzz_iterations(int fallback) {
  const char* text = std::getenv("COUNTERGUARD_FUZZ_ITERATIONS");
  return text == nullptr ? fallback : std::max(1, std::atoi(text));
}

// Structure-aware enough to reach past the parser: most mutations keep the document's shape.
class text_mutator {
 public:
  explicit text_mutator(std::uint32_t seed) : m_random(seed) {}

  std::string mutate(std::string text) {
    const int rounds = pick(1, 4);
    for (int i = 0; i < rounds && !text.empty(); ++i) {
      switch (pick(0, 7)) {
        case 0:  // delete a span
          text.erase(position(text), static_cast<std::size_t>(pick(1, 40)));
          break;
        case 1:  // insert a token
          text.insert(position(text), token());
          break;
        case 2:  // swap two lines
          swap_lines(text);
          break;
        case 3:  // duplicate a line (duplicate keys, repeated cases)
          duplicate_line(text);
          break;
        case 4:  // an extreme or odd number in place of a digit run
          replace_number(text);
          break;
        case 5:  // truncate
          text.resize(position(text));
          break;
        case 6:  // change indentation of a line
          indent_line(text);
          break;
        default:  // flip a byte
          text[position(text)] = static_cast<char>(pick(1, 255));
          break;
      }
    }
    return text;
  }

 private:
  int pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(m_random); }
  std::size_t position(const std::string& text) {
    return static_cast<std::size_t>(pick(0, static_cast<int>(text.size()) - 1));
  }
  std::string token() {
    static const std::array<const char*, 24> tokens{":",
                                                    "- ",
                                                    "[",
                                                    "]",
                                                    "{",
                                                    "}",
                                                    "\"",
                                                    "'",
                                                    "null",
                                                    "~",
                                                    "1e309",
                                                    "-1",
                                                    "0x7fffffffffffffff",
                                                    "\t",
                                                    "\n",
                                                    "&a ",
                                                    "*a",
                                                    "!!binary ",
                                                    "? ",
                                                    ",",
                                                    "true",
                                                    "nan",
                                                    "{}",
                                                    "[]"};
    return tokens[static_cast<std::size_t>(pick(0, static_cast<int>(tokens.size()) - 1))];
  }
  static std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      lines.push_back(line);
    return lines;
  }
  static std::string join(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& line : lines)
      text += line + "\n";
    return text;
  }
  void swap_lines(std::string& text) {
    auto lines = lines_of(text);
    if (lines.size() < 2)
      return;
    std::swap(lines[static_cast<std::size_t>(pick(0, static_cast<int>(lines.size()) - 1))],
              lines[static_cast<std::size_t>(pick(0, static_cast<int>(lines.size()) - 1))]);
    text = join(lines);
  }
  void duplicate_line(std::string& text) {
    auto lines = lines_of(text);
    if (lines.empty())
      return;
    const auto i = static_cast<std::size_t>(pick(0, static_cast<int>(lines.size()) - 1));
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), lines[i]);
    text = join(lines);
  }
  void indent_line(std::string& text) {
    auto lines = lines_of(text);
    if (lines.empty())
      return;
    auto& line = lines[static_cast<std::size_t>(pick(0, static_cast<int>(lines.size()) - 1))];
    if (pick(0, 1) == 0)
      line.insert(0, std::string(static_cast<std::size_t>(pick(1, 4)), ' '));
    else if (!line.empty() && line[0] == ' ')
      line.erase(0, 1);
    text = join(lines);
  }
  void replace_number(std::string& text) {
    static const std::array<const char*, 10> numbers{
        "0",     "-0",    "99999999999999999999", "-9223372036854775808", "1.5", "-7", ".inf", "1e-320",
        "1e309", "-1e309"};
    const std::size_t start = text.find_first_of("0123456789", position(text));
    if (start == std::string::npos)
      return;
    const std::size_t end = text.find_first_not_of("0123456789.", start);
    text.replace(start, (end == std::string::npos ? text.size() : end) - start,
                 numbers[static_cast<std::size_t>(pick(0, static_cast<int>(numbers.size()) - 1))]);
  }
  std::mt19937 m_random;
};

// Binary files (SQLite databases): bytes flipped, spans zeroed or filled with 0xff, the file cut short, a
// page's worth of bytes moved, so that the format's checks (page headers, b-tree cells, the schema) meet
// damage.
class binary_mutator {
 public:
  explicit binary_mutator(std::uint32_t seed) : m_random(seed) {}

  std::string mutate(std::string bytes) {
    const int rounds = pick(1, 3);
    for (int i = 0; i < rounds && !bytes.empty(); ++i) {
      switch (pick(0, 4)) {
        case 0:  // flip a few bytes
          for (int n = pick(1, 8); n > 0; --n)
            bytes[position(bytes)] = static_cast<char>(pick(0, 255));
          break;
        case 1:  // zero a span
          fill(bytes, '\0');
          break;
        case 2:  // fill a span with 0xff
          fill(bytes, static_cast<char>(0xff));
          break;
        case 3:  // cut short
          bytes.resize(position(bytes));
          break;
        default:  // copy one span over another
          copy_span(bytes);
          break;
      }
    }
    return bytes;
  }

 private:
  int pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(m_random); }
  std::size_t position(const std::string& bytes) {
    return static_cast<std::size_t>(pick(0, static_cast<int>(bytes.size()) - 1));
  }
  void fill(std::string& bytes, char value) {
    const std::size_t start = position(bytes);
    const std::size_t length = std::min(bytes.size() - start, static_cast<std::size_t>(pick(1, 512)));
    std::fill_n(bytes.begin() + static_cast<std::ptrdiff_t>(start), length, value);
  }
  void copy_span(std::string& bytes) {
    const std::size_t from = position(bytes);
    const std::size_t to = position(bytes);
    const std::size_t length =
        std::min({bytes.size() - from, bytes.size() - to, static_cast<std::size_t>(pick(1, 4096))});
    bytes.replace(to, length, bytes.substr(from, length));
  }
  std::mt19937 m_random;
};

}  // namespace counterguard::test
