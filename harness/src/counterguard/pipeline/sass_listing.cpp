// SPDX-License-Identifier: Apache-2.0
// `counterguard sass --binary F --kernel K`: a kernel's SASS instructions with their CUDA source lines (from
// the -lineinfo line table) and a per-line summary of its memory instructions: the map that source-line
// blame joins per-instruction counters to (docs/blame.md). No GPU needed.
#include "counterguard/pipeline/sass_listing.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "counterguard/reporters/report_output.hpp"
#include "counterguard/statics/kernel_sass.hpp"

namespace counterguard {
namespace {

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string place(const std::optional<source_position>& position) {
  return position ? fmt::format("{}:{}", base_name(position->file), position->line) : "?";
}

std::string place_with_inlining(const sass_instruction& instruction) {
  std::string out = place(instruction.position);
  for (const auto& call : instruction.inlined_at)
    out += " < " + place(call);
  return out;
}

void print(const kernel_sass& sass, bool lines_only) {
  std::fputs(
      fmt::format("{} ({}, {}, {})\n", sass.function, sass.architecture, sass.cubin, sass.mangled).c_str(),
      stdout);
  if (!sass.has_line_info) {
    std::fputs("no line information: build with -lineinfo (or -G) to map instructions to source lines\n",
               stdout);
  }
  std::size_t width = 4;
  for (const auto& instruction : sass.instructions)
    width = std::max(width, place_with_inlining(instruction).size());
  const std::string row = "{:>6}  {:<" + std::to_string(width) + "}  {}";
  const auto print_row = [&](const std::string& pc, const std::string& line, const std::string& text) {
    std::string out = fmt::format(row, pc, line, text);
    out.erase(out.find_last_not_of(' ') + 1);  // --lines-only: no text column
    std::fputs((out + "\n").c_str(), stdout);
  };
  print_row("PC", "LINE", lines_only ? "" : "SASS");
  for (const auto& instruction : sass.instructions)
    print_row(fmt::format("{:04x}", instruction.offset), place_with_inlining(instruction), instruction.text);
  std::fputs("\nper source line:\n", stdout);
  for (const auto& summary : summarize_by_line(sass)) {
    std::string memory;
    for (const std::size_t i : summary.memory_instructions) {
      const sass_instruction& instruction = sass.instructions[i];
      memory += fmt::format("{}{} {:04x} ({})", memory.empty() ? "" : ", ", instruction.opcode,
                            instruction.offset, memory_access_name(instruction.access));
    }
    std::fputs(fmt::format("  {:<{}}  {:>4} instructions{}{}\n", place(summary.position), width,
                           summary.instructions, memory.empty() ? "" : "  ", memory)
                   .c_str(),
               stdout);
  }
  std::fputs("\n", stdout);
}

nlohmann::json position_json(const std::optional<source_position>& position) {
  if (!position)
    return nullptr;
  return {{"file", position->file}, {"line", position->line}, {"column", position->column}};
}

nlohmann::json to_json(const kernel_sass& sass) {
  nlohmann::json instructions = nlohmann::json::array();
  for (const auto& instruction : sass.instructions) {
    nlohmann::json inlined = nlohmann::json::array();
    for (const auto& call : instruction.inlined_at)
      inlined.push_back(position_json(call));
    instructions.push_back({{"pc_offset", instruction.offset},
                            {"sass", instruction.text},
                            {"opcode", instruction.opcode},
                            {"memory_access", memory_access_name(instruction.access)},
                            {"source", position_json(instruction.position)},
                            {"inlined_at", inlined},
                            {"inlined_function", instruction.inlined_function}});
  }
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& summary : summarize_by_line(sass)) {
    nlohmann::json memory = nlohmann::json::array();
    for (const std::size_t i : summary.memory_instructions)
      memory.push_back(sass.instructions[i].offset);
    lines.push_back({{"source", position_json(summary.position)},
                     {"instructions", summary.instructions},
                     {"memory_instruction_pc_offsets", memory}});
  }
  return {{"binary", sass.binary},
          {"cubin", sass.cubin},
          {"function", sass.function},
          {"mangled", sass.mangled},
          {"architecture", sass.architecture},
          {"has_line_info", sass.has_line_info},
          {"instructions", instructions},
          {"lines", lines}};
}

}  // namespace

int show_kernel_sass(const sass_options& options) {
  const std::vector<kernel_sass> found =
      read_kernel_sass(options.binary, options.kernel, {options.architecture, options.lines_only});
  if (!options.json.empty()) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& sass : found)
      all.push_back(to_json(sass));
    const std::string text = all.dump(1) + "\n";
    write_report_text(options.json, text);
    if (is_standard_output(options.json))
      return 0;
  }
  for (const auto& sass : found)
    print(sass, options.lines_only);
  return 0;
}

}  // namespace counterguard
