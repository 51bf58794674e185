// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/json_reader.hpp"

#include <limits>
#include <utility>
#include <vector>

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

// Builds the document like nlohmann::json::parse while it keeps the path of the value being read, so that a
// problem nlohmann reports through its SAX interface (a syntax error, invalid UTF-8, a number beyond double
// range such as 1e309) becomes an input_error naming the line, the column and the field.
class located_json_builder final : public nlohmann::json_sax<nlohmann::json> {
 public:
  located_json_builder(const std::string& file, const std::string& text, nlohmann::json& root)
      : m_file(file), m_text(text), m_root(root) {}

  bool null() override { return put(nullptr); }
  bool boolean(bool value) override { return put(value); }
  bool number_integer(number_integer_t value) override { return put(value); }
  bool number_unsigned(number_unsigned_t value) override { return put(value); }
  bool number_float(number_float_t value, const string_t& /*text*/) override { return put(value); }
  bool string(string_t& value) override { return put(std::move(value)); }
  bool binary(binary_t& value) override { return put(nlohmann::json::binary(std::move(value))); }

  bool start_object(std::size_t /*elements*/) override {
    m_open.push_back(place(nlohmann::json::object()));
    m_path.push_back({false, {}, 0});
    return true;
  }
  bool key(string_t& value) override {
    m_path.back().key = value;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t /*elements*/) override {
    m_open.push_back(place(nlohmann::json::array()));
    m_path.push_back({true, {}, 0});
    return true;
  }
  bool end_array() override { return close(); }

  bool parse_error(std::size_t position, const std::string& token,
                   const nlohmann::json::exception& problem) override {
    // nlohmann reports the position after the token; a number out of range is located at its first digit.
    const bool out_of_range = problem.id == 406;
    const std::size_t offset = out_of_range && position >= token.size() ? position - token.size()
                               : position == 0                          ? 0
                                                                        : position - 1;
    const source_location where = location_of(m_file, m_text, offset);
    if (out_of_range) {  // out_of_range: a number nlohmann cannot hold in a double
      throw input_error(where, field(), "the number " + token + " is beyond the range of a double",
                        "a number from about -1.8e308 to 1.8e308 (null for one that is not finite)");
    }
    throw input_error(where, field(), "not valid JSON", problem.what());
  }

 private:
  struct step {
    bool array;
    std::string key;    // in an object: the member being read
    std::size_t index;  // in an array: the element being read
  };

  nlohmann::json* place(nlohmann::json value) {
    if (m_open.empty()) {
      m_root = std::move(value);
      return &m_root;
    }
    nlohmann::json& parent = *m_open.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    nlohmann::json& member = parent[m_path.back().key];
    member = std::move(value);
    return &member;
  }

  bool put(nlohmann::json value) {
    place(std::move(value));
    advance();
    return true;
  }

  bool close() {
    m_open.pop_back();
    m_path.pop_back();
    advance();
    return true;
  }

  // A value of the innermost array is complete: the next one is the next index.
  void advance() {
    if (!m_path.empty() && m_path.back().array)
      ++m_path.back().index;
  }

  // The field being read: "cases[3].totals.x.value" (empty at the top level).
  [[nodiscard]] std::string field() const {
    std::string path;
    for (const step& s : m_path)
      path = s.array ? index_at(path, s.index) : field_at(path, s.key);
    return path;
  }

  const std::string& m_file;
  const std::string& m_text;
  nlohmann::json& m_root;
  std::vector<nlohmann::json*> m_open;  // the objects and arrays being filled, innermost last
  std::vector<step> m_path;
};

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
  nlohmann::json document;
  located_json_builder builder(m_file, text, document);
  // The builder throws an input_error at the first problem (sax_parse_error); nlohmann's own exceptions
  // (out_of_range for a number beyond double range, "number overflow") never escape as such.
  static_cast<void>(nlohmann::json::sax_parse(text, &builder));
  return document;
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
