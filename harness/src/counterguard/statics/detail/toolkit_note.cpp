// SPDX-License-Identifier: Apache-2.0
#include "toolkit_note.hpp"

#include <cstring>
#include <regex>
#include <sstream>

namespace counterguard::detail {
namespace {

constexpr std::uint32_t note_type_toolkit = 2000;
constexpr std::uint64_t descriptor_fields = 6;

std::uint64_t align4(std::uint64_t n) {
  return (n + 3) & ~std::uint64_t{3};
}

}  // namespace

bool toolkit_note::at_least(int major, int minor) const {
  return release_major > major || (release_major == major && release_minor >= minor);
}

std::vector<std::string> toolkit_note::code_generation_flags() const {
  std::vector<std::string> flags;
  if (tool != "ptxas")
    return flags;
  std::istringstream words(options);
  std::vector<std::string> tokens;
  for (std::string word; words >> word;)
    tokens.push_back(word);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& option = tokens[i];
    const bool has_argument = i + 1 < tokens.size() && tokens[i + 1].rfind('-', 0) != 0;
    // Options that say nothing about the code: verbosity and diagnostics, line information (it changes no
    // instruction), the target (a column of its own) and the address size.
    if (option == "-lineinfo" || option == "--generate-line-info" || option == "-v" ||
        option == "--verbose" || option == "-Werror" || option == "--warning-as-error" || option == "-w" ||
        option == "--disable-warnings" || option.rfind("-warn", 0) == 0 || option.rfind("--warn", 0) == 0) {
      continue;
    }
    if (option == "-arch" || option == "--gpu-name" || option == "-m" || option == "--machine") {
      i += has_argument ? 1 : 0;
      continue;
    }
    flags.push_back(has_argument ? option + "=" + tokens[++i] : option);
  }
  return flags;
}

std::optional<toolkit_note> read_toolkit_note(const binary_view& section) {
  if (!section.fits(0, 12))
    return std::nullopt;
  const std::uint32_t name_size = section.u32(0, "note name size");
  const std::uint32_t descriptor_size = section.u32(4, "note descriptor size");
  if (section.u32(8, "note type") != note_type_toolkit)
    return std::nullopt;
  const std::uint64_t descriptor_at = 12 + align4(name_size);
  if (!section.fits(descriptor_at, descriptor_size) || descriptor_size < descriptor_fields * 4)
    return std::nullopt;
  const binary_view descriptor = section.sub(descriptor_at, descriptor_size, "toolkit note");
  const binary_view strings =
      descriptor.sub(descriptor_fields * 4, descriptor_size - descriptor_fields * 4, "strings");
  auto text = [&](std::uint64_t field) -> std::optional<std::string> {
    const std::uint32_t offset = descriptor.u32(field * 4, "toolkit note field");
    if (offset >= strings.size() ||
        std::memchr(strings.data() + offset, '\0', strings.size() - offset) == nullptr)
      return std::nullopt;
    return strings.c_string(offset, "toolkit note string");
  };
  toolkit_note note;
  const auto tool = text(2);
  const auto version = text(3);
  const auto options = text(5);
  if (!tool || !version)
    return std::nullopt;
  note.tool = *tool;
  note.version = *version;
  note.options = options.value_or("");
  static const std::regex release(R"(release (\d+)\.(\d+))");
  std::smatch match;
  if (std::regex_search(note.version, match, release)) {
    note.release_major = std::stoi(match[1]);
    note.release_minor = std::stoi(match[2]);
  }
  return note;
}

}  // namespace counterguard::detail
