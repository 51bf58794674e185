// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/kernel_resources.hpp"

#include <cstdlib>
#include <memory>
#include <regex>
#include <sstream>

#include "counterguard/core/symbol_names.hpp"

namespace counterguard {

std::vector<kernel_resources> parse_resource_report(const std::string& report,
                                                    const std::string& translation_unit) {
  static const std::regex entry(R"(Compiling entry function '([^']+)' for '([^']+)')");
  static const std::regex frame(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex registers(R"(Used (\d+) registers)");
  static const std::regex barriers(R"(used (\d+) barriers)");
  static const std::regex shared(R"((\d+) bytes smem)");
  static const std::regex constant(R"((\d+) bytes cmem\[([1-9]\d*)\])");
  static const std::regex flag(R"(^# flag: (.*)$)");
  static const std::regex properties(R"(Function properties for '?([^':\s]+)'?)");

  std::vector<kernel_resources> kernels;
  std::vector<std::string> flags;
  std::istringstream lines(report);
  std::string line;
  std::smatch match;
  std::string properties_of;  // the function the next stack-frame line describes (a callee's comes too)
  while (std::getline(lines, line)) {
    if (std::regex_search(line, match, flag)) {
      flags.push_back(match[1]);
    } else if (std::regex_search(line, match, entry)) {
      kernel_resources kernel;
      kernel.mangled = match[1];
      kernel.function = strip_signature(demangle(kernel.mangled));
      kernel.architecture = match[2];
      kernel.translation_unit = translation_unit;
      kernel.flags = flags;
      kernels.push_back(std::move(kernel));
    } else if (kernels.empty()) {
      continue;
    } else if (std::regex_search(line, match, properties)) {
      properties_of = match[1];
    } else if (std::regex_search(line, match, frame)) {
      if (properties_of != kernels.back().mangled)
        continue;  // a non-inlined device function's frame and spills are its own
      kernels.back().stack_frame_bytes = std::stoul(match[1]);
      kernels.back().spill_store_bytes = std::stoul(match[2]);
      kernels.back().spill_load_bytes = std::stoul(match[3]);
    } else if (std::regex_search(line, match, registers)) {
      kernel_resources& kernel = kernels.back();
      kernel.registers = std::stoi(match[1]);
      if (std::regex_search(line, match, barriers))
        kernel.barriers = std::stoi(match[1]);
      if (std::regex_search(line, match, shared))
        kernel.static_shared_bytes = std::stoul(match[1]);
      for (auto it = std::sregex_iterator(line.begin(), line.end(), constant); it != std::sregex_iterator();
           ++it) {
        kernel.constant_bytes += std::stoul((*it)[1]);
      }
    }
  }
  return kernels;
}

}  // namespace counterguard
