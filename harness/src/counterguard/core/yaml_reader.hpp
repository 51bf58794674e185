// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <variant>
#include <vector>

#include "counterguard/core/field_path.hpp"
#include "counterguard/core/source_location.hpp"

namespace counterguard {

// A plain YAML scalar as the YAML 1.2 core schema types it: an integer (2048, -3, 0x20), a real number
// (0.5, 1e-3, .inf, .nan) or a string (row_major, a quoted "2048").
using yaml_scalar = std::variant<std::int64_t, double, std::string>;

// One key of a YAML map with the nodes that carry its position.
struct yaml_entry {
  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

// Typed access to the nodes of one YAML file (suites, baselines). Every mismatch is an input_error naming the
// file, line and column of the node, the field path ("cases[2].launch.block") and what would be valid.
class yaml_reader {
 public:
  explicit yaml_reader(std::string file) : m_file(std::move(file)) {}

  [[nodiscard]] const std::string& file() const { return m_file; }
  [[nodiscard]] source_location where(const YAML::Node& node) const;
  [[noreturn]] void fail(const YAML::Node& node, const std::string& field, const std::string& problem,
                         const std::string& valid = {}) const;

  // The entries of a map in file order. Rejects other node kinds, non-scalar and duplicate keys and, when
  // `allowed` is not empty, keys outside it. A null node (`key:` with nothing after it) is an empty map.
  [[nodiscard]] std::vector<yaml_entry> map_entries(const YAML::Node& node, const std::string& field,
                                                    std::initializer_list<const char*> allowed = {}) const;
  // The items of a sequence; rejects other node kinds.
  [[nodiscard]] std::vector<YAML::Node> sequence(const YAML::Node& node, const std::string& field) const;
  // A scalar's text; rejects maps, sequences and null. `what` says what the field holds ("a case name").
  [[nodiscard]] std::string scalar(const YAML::Node& node, const std::string& field,
                                   const std::string& what) const;
  // A scalar typed by the YAML 1.2 core schema; out-of-range numbers are errors.
  [[nodiscard]] yaml_scalar typed_scalar(const YAML::Node& node, const std::string& field,
                                         const std::string& what) const;
  // A finite number (an integer or a real).
  [[nodiscard]] double number(const YAML::Node& node, const std::string& field) const;
  // An integer in [minimum, maximum].
  [[nodiscard]] std::int64_t integer(const YAML::Node& node, const std::string& field, std::int64_t minimum,
                                     std::int64_t maximum) const;
  // The entry called `key` of a map's entries; fails at the map, naming the key, when it is absent.
  [[nodiscard]] const yaml_entry& required(const YAML::Node& map, const std::vector<yaml_entry>& entries,
                                           const std::string& field, const std::string& key,
                                           const std::string& valid = {}) const;

 private:
  std::string m_file;
};

// "a map", "a sequence", "a scalar ('abc')", "null": how a node reads in error messages.
[[nodiscard]] std::string describe_node(const YAML::Node& node);

// The entry called `key`, or nullptr.
[[nodiscard]] const yaml_entry* find_entry(const std::vector<yaml_entry>& entries, const std::string& key);

}  // namespace counterguard
