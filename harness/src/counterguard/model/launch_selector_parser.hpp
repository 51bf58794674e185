// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "counterguard/core/yaml_reader.hpp"
#include "counterguard/model/launch_selector.hpp"

namespace counterguard {

// Reads a case's `select:` (docs/exec.md):
//   select: "reduce*"                                 a kernel name pattern alone
//   select:
//     kernel: "reduce*" | "regex:^reduce" | {regex: "^reduce"}
//     nvtx: "step/forward" | [step, forward] | {range: "step/*", domain: MyLib, kind: push_pop|start_end}
//     launch: 3 | {skip: 2, count: 4}
//     max_launches: 16
//     process: {rank: 0, executable: "*worker"}
// Every mistake is an input_error at the node's file:line:column naming the field and what would be valid.
[[nodiscard]] launch_selector read_launch_selector(const yaml_reader& reader, const YAML::Node& node,
                                                   const std::string& field);

// A selector from command-line flags spelt the way ncu spells them: --kernel-name NAME|regex:EXPR (a name
// may also be a glob), --nvtx-include "[Domain@]outer/inner/" (a trailing '/' means push/pop ranges, none a
// start/end range), --launch-skip N, --launch-count N. Errors are input_errors naming the flag.
struct selector_flags {
  std::string kernel_name;
  std::string nvtx_include;
  std::int64_t launch_skip = 0;
  std::optional<std::int64_t> launch_count;
  std::optional<std::int64_t> max_launches;
};
[[nodiscard]] launch_selector selector_from_flags(const selector_flags& flags);

}  // namespace counterguard
