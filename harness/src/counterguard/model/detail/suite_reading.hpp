// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "counterguard/core/yaml_reader.hpp"
#include "counterguard/model/case_spec.hpp"
#include "counterguard/model/expectation.hpp"
#include "counterguard/model/kernel_signature.hpp"

namespace counterguard {
class metric_catalog;
}  // namespace counterguard

// The parts of a suite file's reading that the suite, its cases and its expectations share.
namespace counterguard::detail {

// Everything the parts of one file need to report errors and look names up.
struct load_context {
  yaml_reader reader;
  const kernel_catalog& kernels;
  const metric_catalog& metrics;
};

// What a suite or case name may hold, and the message that says so.
constexpr const char* name_charset = "names use letters, digits, '_', '.' and '-'";
[[nodiscard]] bool is_valid_name(const std::string& name);

// `measure: [metric, ...]`: metrics measured for the baselines alone, each once.
[[nodiscard]] std::vector<std::string> read_measured_metrics(const load_context& context,
                                                             const YAML::Node& node,
                                                             const std::string& field);
// The suite's `defaults.measure` first, then the case's own (each metric once).
void add_measured_metrics(case_spec& result, const std::vector<std::string>& metrics);

// One metric of an `expect:` map.
[[nodiscard]] expectation read_expectation(const load_context& context, const yaml_entry& entry,
                                           const std::string& field);
// Every metric of an `expect:` map; the problems of all of them, not only the first.
void read_expectations(const load_context& context, const YAML::Node& node, const std::string& field,
                       std::vector<expectation>& expectations);

// `launch:` (block, grid, cluster, dynamic_shared_bytes), each a formula or up to three.
[[nodiscard]] launch_spec read_launch(const load_context& context, const YAML::Node& node,
                                      const std::string& field);
// The case's own launch fields win; the suite's defaults fill the ones it leaves out.
void apply_launch_defaults(launch_spec& launch, const launch_spec& defaults);

// A `defaults.parameters` entry, applied to each case whose kernel declares it.
struct default_parameter {
  yaml_entry entry;
  bool used = false;
};

// A suite's `defaults:`.
struct suite_defaults {
  std::vector<default_parameter> parameters;
  launch_spec launch;
  std::vector<std::string> measured_metrics;
};
[[nodiscard]] suite_defaults read_defaults(const load_context& context, const YAML::Node& node);

// One entry of `cases:`, a registered kernel's (kernel:) or a program's (select:); marks the defaults it
// uses.
[[nodiscard]] case_spec read_case(const load_context& context, const YAML::Node& node,
                                  const std::string& field, suite_defaults& defaults);

}  // namespace counterguard::detail
