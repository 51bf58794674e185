// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/yaml_reader.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <regex>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

bool is_plain_scalar(const YAML::Node& node) {
  return node.IsScalar() && node.Tag() != "!";
}

// YAML 1.2 core schema spellings.
const std::regex& integer_pattern() {
  static const std::regex pattern("[-+]?[0-9]+|0x[0-9a-fA-F]+|0o[0-7]+");
  return pattern;
}
const std::regex& real_pattern() {
  static const std::regex pattern(
      "[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)");
  return pattern;
}

std::string join_keys(std::initializer_list<const char*> keys) {
  std::string text;
  for (const char* key : keys) {
    if (!text.empty())
      text += ", ";
    text += key;
  }
  return text;
}

}  // namespace

std::string describe_node(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Sequence:
      return "a sequence";
    case YAML::NodeType::Scalar:
      return "a scalar ('" + node.Scalar() + "')";
    case YAML::NodeType::Null:
      return "empty (null)";
    case YAML::NodeType::Undefined:
      break;
  }
  return "missing";
}

const yaml_entry* find_entry(const std::vector<yaml_entry>& entries, const std::string& key) {
  for (const auto& entry : entries) {
    if (entry.key == key)
      return &entry;
  }
  return nullptr;
}

source_location yaml_reader::where(const YAML::Node& node) const {
  source_location location{m_file, 0, 0};
  if (!node.IsDefined())
    return location;
  const YAML::Mark mark = node.Mark();
  if (mark.is_null())
    return location;
  location.line = mark.line + 1;  // yaml-cpp counts from 0
  location.column = mark.column + 1;
  return location;
}

void yaml_reader::fail(const YAML::Node& node, const std::string& field, const std::string& problem,
                       const std::string& valid) const {
  throw input_error(where(node), field, problem, valid);
}

std::vector<yaml_entry> yaml_reader::map_entries(const YAML::Node& node, const std::string& field,
                                                 std::initializer_list<const char*> allowed) const {
  std::vector<yaml_entry> entries;
  if (node.IsNull())
    return entries;
  if (!node.IsMap()) {
    fail(node, field, "expected a map (key: value lines), got " + describe_node(node),
         allowed.size() == 0 ? std::string{} : "valid keys: " + join_keys(allowed));
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key_node = it->first;
    const std::string key_field = field_at(field, "<key>");
    if (!key_node.IsScalar())
      fail(key_node, key_field, "a key must be a plain name, got " + describe_node(key_node));
    const std::string& key = key_node.Scalar();
    const std::string entry_field = field_at(field, key);
    if (const yaml_entry* first = find_entry(entries, key)) {
      fail(key_node, entry_field, "duplicate key '" + key + "'",
           "it was already given at line " + std::to_string(where(first->key_node).line) +
               "; give each key once");
    }
    if (allowed.size() != 0) {
      bool known = false;
      for (const char* candidate : allowed)
        known = known || key == candidate;
      if (!known)
        fail(key_node, entry_field, "unknown key '" + key + "'", "valid keys: " + join_keys(allowed));
    }
    entries.push_back({key, key_node, it->second});
  }
  return entries;
}

std::vector<YAML::Node> yaml_reader::sequence(const YAML::Node& node, const std::string& field) const {
  if (!node.IsSequence())
    fail(node, field, "expected a sequence ([a, b] or '- item' lines), got " + describe_node(node));
  std::vector<YAML::Node> items;
  for (const auto& item : node)
    items.push_back(item);
  return items;
}

std::string yaml_reader::scalar(const YAML::Node& node, const std::string& field,
                                const std::string& what) const {
  if (!node.IsScalar())
    fail(node, field, "expected " + what + ", got " + describe_node(node));
  return node.Scalar();
}

yaml_scalar yaml_reader::typed_scalar(const YAML::Node& node, const std::string& field,
                                      const std::string& what) const {
  const std::string text = scalar(node, field, what);
  if (!is_plain_scalar(node))
    return text;
  if (std::regex_match(text, integer_pattern())) {
    const bool negative = text[0] == '-';
    std::size_t start = (text[0] == '-' || text[0] == '+') ? 1 : 0;
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'o')) {
      base = text[1] == 'x' ? 16 : 8;
      start = 2;
    }
    // Parse the magnitude as unsigned so that the most negative integer is representable.
    std::uint64_t magnitude = 0;
    const auto [end, status] =
        std::from_chars(text.data() + start, text.data() + text.size(), magnitude, base);
    const std::uint64_t limit =
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (negative ? 1 : 0);
    if (status != std::errc() || end != text.data() + text.size() || magnitude > limit) {
      fail(node, field, "integer '" + text + "' is out of range", "integers are 64-bit signed");
    }
    if (negative)
      return static_cast<std::int64_t>(0 - magnitude);
    return static_cast<std::int64_t>(magnitude);
  }
  if (std::regex_match(text, real_pattern())) {
    if (text.find("nan") != std::string::npos || text.find("NaN") != std::string::npos ||
        text.find("NAN") != std::string::npos) {
      return std::numeric_limits<double>::quiet_NaN();
    }
    if (text.find('.') != std::string::npos && text.find_first_of("iI") != std::string::npos) {
      return text[0] == '-' ? -std::numeric_limits<double>::infinity()
                            : std::numeric_limits<double>::infinity();
    }
    double value = 0.0;
    const char* first = text.data() + (text[0] == '+' ? 1 : 0);
    const auto [end, status] = std::from_chars(first, text.data() + text.size(), value);
    if (status != std::errc() || end != text.data() + text.size()) {
      fail(node, field, "number '" + text + "' is out of range", "numbers are double precision");
    }
    return value;
  }
  return text;
}

double yaml_reader::number(const YAML::Node& node, const std::string& field) const {
  const yaml_scalar value = typed_scalar(node, field, "a number");
  double result = 0.0;
  if (const auto* integer_value = std::get_if<std::int64_t>(&value)) {
    result = static_cast<double>(*integer_value);
  } else if (const auto* real_value = std::get_if<double>(&value)) {
    result = *real_value;
  } else {
    fail(node, field, "expected a number, got '" + node.Scalar() + "'");
  }
  if (!std::isfinite(result))
    fail(node, field, "expected a finite number, got '" + node.Scalar() + "'");
  return result;
}

std::int64_t yaml_reader::integer(const YAML::Node& node, const std::string& field, std::int64_t minimum,
                                  std::int64_t maximum) const {
  const yaml_scalar value = typed_scalar(node, field, "an integer");
  const auto* integer_value = std::get_if<std::int64_t>(&value);
  if (integer_value == nullptr)
    fail(node, field, "expected an integer, got '" + node.Scalar() + "'");
  if (*integer_value < minimum || *integer_value > maximum) {
    fail(node, field, "'" + node.Scalar() + "' is out of range",
         "give an integer from " + std::to_string(minimum) + " to " + std::to_string(maximum));
  }
  return *integer_value;
}

const yaml_entry& yaml_reader::required(const YAML::Node& map, const std::vector<yaml_entry>& entries,
                                        const std::string& field, const std::string& key,
                                        const std::string& valid) const {
  const yaml_entry* entry = find_entry(entries, key);
  if (entry == nullptr)
    fail(map, field_at(field, key), "missing required field '" + key + "'", valid);
  return *entry;
}

}  // namespace counterguard
