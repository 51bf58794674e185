#include "counterguard/core/json_reader.hpp"

#include <limits>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

// The 1-based line and column of a byte offset, for syntax errors.
source_location location_of(const std::string& file, const std::string& text, std::size_t offset) {
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < std::min(offset, text.size()); ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {file, line, static_cast<int>(offset - line_start) + 1};
}

}  // namespace

std::string describe_json(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::array:
      return "an array";
    case nlohmann::json::value_t::string:
      return "a string";
    case nlohmann::json::value_t::boolean:
      return "a boolean";
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::discarded:
      return "nothing";
    default:
      return "a number";
  }
}

nlohmann::json json_reader::parse(const std::string& text) const {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& problem) {
    throw input_error(location_of(m_file, text, problem.byte == 0 ? 0 : problem.byte - 1), "",
                      "not valid JSON", problem.what());
  }
}

void json_reader::fail(const std::string& field, const std::string& problem, const std::string& valid) const {
  throw input_error(source_location{m_file, 0, 0}, field, problem, valid);
}

void json_reader::require_object(const nlohmann::json& value, const std::string& field) const {
  if (!value.is_object())
    fail(field, "expected an object, got " + describe_json(value));
}

void json_reader::require_array(const nlohmann::json& value, const std::string& field) const {
  if (!value.is_array())
    fail(field, "expected an array, got " + describe_json(value));
}

const nlohmann::json* json_reader::optional_member(const nlohmann::json& object, const std::string& field,
                                                   const std::string& key) const {
  require_object(object, field);
  const auto found = object.find(key);
  return found == object.end() ? nullptr : &*found;
}

const nlohmann::json& json_reader::member(const nlohmann::json& object, const std::string& field,
                                          const std::string& key) const {
  const nlohmann::json* found = optional_member(object, field, key);
  if (found == nullptr)
    fail(field_at(field, key), "missing");
  return *found;
}

std::string json_reader::string(const nlohmann::json& object, const std::string& field,
                                const std::string& key) const {
  const nlohmann::json& value = member(object, field, key);
  if (!value.is_string())
    fail(field_at(field, key), "expected a string, got " + describe_json(value));
  return value.get<std::string>();
}

std::int64_t json_reader::integer(const nlohmann::json& object, const std::string& field,
                                  const std::string& key, std::int64_t minimum, std::int64_t maximum) const {
  const nlohmann::json& value = member(object, field, key);
  const std::string where = field_at(field, key);
  if (!value.is_number_integer())
    fail(where, "expected an integer, got " + describe_json(value));
  if (value.is_number_unsigned() &&
      value.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    fail(where, "is out of range",
         "an integer from " + std::to_string(minimum) + " to " + std::to_string(maximum));
  }
  const auto result = value.get<std::int64_t>();
  if (result < minimum || result > maximum)
    fail(where, "is out of range",
         "an integer from " + std::to_string(minimum) + " to " + std::to_string(maximum));
  return result;
}

bool json_reader::boolean(const nlohmann::json& object, const std::string& field,
                          const std::string& key) const {
  const nlohmann::json& value = member(object, field, key);
  if (!value.is_boolean())
    fail(field_at(field, key), "expected true or false, got " + describe_json(value));
  return value.get<bool>();
}

double json_reader::number_or_nan(const nlohmann::json& value, const std::string& field) const {
  if (value.is_null())
    return std::numeric_limits<double>::quiet_NaN();
  if (!value.is_number())
    fail(field, "expected a number or null, got " + describe_json(value));
  return value.get<double>();
}

std::vector<std::string> json_reader::strings(const nlohmann::json& object, const std::string& field,
                                              const std::string& key) const {
  const nlohmann::json& items = array(object, field, key);
  std::vector<std::string> result;
  result.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!items[i].is_string())
      fail(index_at(field_at(field, key), i), "expected a string, got " + describe_json(items[i]));
    result.push_back(items[i].get<std::string>());
  }
  return result;
}

const nlohmann::json& json_reader::array(const nlohmann::json& object, const std::string& field,
                                         const std::string& key) const {
  const nlohmann::json& value = member(object, field, key);
  require_array(value, field_at(field, key));
  return value;
}

const nlohmann::json& json_reader::object(const nlohmann::json& object, const std::string& field,
                                          const std::string& key) const {
  const nlohmann::json& value = member(object, field, key);
  require_object(value, field_at(field, key));
  return value;
}

}  // namespace counterguard
