// SPDX-License-Identifier: Apache-2.0
// Reading a case's or the suite defaults' `launch:`.
#include <yaml-cpp/yaml.h>

#include <array>

#include "detail/suite_reading.hpp"
#include "detail/yaml_values.hpp"

namespace counterguard::detail {
namespace {

std::array<formula, 3> read_dimensions(const load_context& context, const YAML::Node& node,
                                       const std::string& field) {
  constexpr const char* valid =
      "give one to three dimensions: 256, [32, 8] or [32, 8, 1] (numbers or formulas)";
  std::array<formula, 3> dimensions{formula(1.0), formula(1.0), formula(1.0)};
  if (node.IsScalar()) {
    dimensions[0] = read_formula(context.reader, node, field);
    return dimensions;
  }
  if (!node.IsSequence()) {
    context.reader.fail(node, field,
                        "expected a dimension or a list of dimensions, got " + describe_node(node), valid);
  }
  const std::vector<YAML::Node> items = context.reader.sequence(node, field);
  if (items.empty() || items.size() > 3) {
    context.reader.fail(node, field, "expected 1 to 3 dimensions, got " + std::to_string(items.size()),
                        valid);
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    dimensions[i] = read_formula(context.reader, items[i], index_at(field, i));
  }
  return dimensions;
}

}  // namespace

launch_spec read_launch(const load_context& context, const YAML::Node& node, const std::string& field) {
  launch_spec launch;
  for (const yaml_entry& entry :
       context.reader.map_entries(node, field, {"block", "grid", "cluster", "dynamic_shared_bytes"})) {
    const std::string entry_field = field_at(field, entry.key);
    if (entry.key == "block")
      launch.block = read_dimensions(context, entry.value, entry_field);
    if (entry.key == "grid")
      launch.grid = read_dimensions(context, entry.value, entry_field);
    if (entry.key == "cluster")
      launch.cluster = read_dimensions(context, entry.value, entry_field);
    if (entry.key == "dynamic_shared_bytes") {
      launch.dynamic_shared_bytes = read_formula(context.reader, entry.value, entry_field);
    }
  }
  return launch;
}

void apply_launch_defaults(launch_spec& launch, const launch_spec& defaults) {
  if (!launch.block)
    launch.block = defaults.block;
  if (!launch.grid)
    launch.grid = defaults.grid;
  if (!launch.cluster)
    launch.cluster = defaults.cluster;
  if (!launch.dynamic_shared_bytes)
    launch.dynamic_shared_bytes = defaults.dynamic_shared_bytes;
}

}  // namespace counterguard::detail
