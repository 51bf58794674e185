// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/core/field_path.hpp"
#include "counterguard/core/source_location.hpp"

namespace counterguard {

// Typed access to a JSON document (results files, run.json, archive manifests, worker events). Every mismatch
// is an input_error naming the file, the field path ("cases[3].totals.x.value") and what would be valid,
// never a json::exception: a file that holds only a number, lacks a key or has an array where an object
// belongs is the user's input to correct, not a crash.
class json_reader {
 public:
  explicit json_reader(std::string file) : m_file(std::move(file)) {}

  // Parses text; a syntax error names the line and column.
  [[nodiscard]] nlohmann::json parse(const std::string& text) const;

  [[nodiscard]] const std::string& file() const { return m_file; }
  [[noreturn]] void fail(const std::string& field, const std::string& problem,
                         const std::string& valid = {}) const;

  // `value` itself must be an object / array.
  void require_object(const nlohmann::json& value, const std::string& field) const;
  void require_array(const nlohmann::json& value, const std::string& field) const;

  // The member `key` of the object `object` (itself at `field`); fails when it is absent.
  [[nodiscard]] const nlohmann::json& member(const nlohmann::json& object, const std::string& field,
                                             const std::string& key) const;
  [[nodiscard]] const nlohmann::json* optional_member(const nlohmann::json& object, const std::string& field,
                                                      const std::string& key) const;

  [[nodiscard]] std::string string(const nlohmann::json& object, const std::string& field,
                                   const std::string& key) const;
  [[nodiscard]] std::int64_t integer(const nlohmann::json& object, const std::string& field,
                                     const std::string& key, std::int64_t minimum,
                                     std::int64_t maximum) const;
  [[nodiscard]] bool boolean(const nlohmann::json& object, const std::string& field,
                             const std::string& key) const;
  // A number; null reads as NaN (JSON has no NaN: writers store non-finite values as null).
  [[nodiscard]] double number_or_nan(const nlohmann::json& value, const std::string& field) const;
  [[nodiscard]] std::vector<std::string> strings(const nlohmann::json& object, const std::string& field,
                                                 const std::string& key) const;
  [[nodiscard]] const nlohmann::json& array(const nlohmann::json& object, const std::string& field,
                                            const std::string& key) const;
  [[nodiscard]] const nlohmann::json& object(const nlohmann::json& object, const std::string& field,
                                             const std::string& key) const;

 private:
  std::string m_file;
};

// "an object", "a number", ... for error messages.
[[nodiscard]] std::string describe_json(const nlohmann::json& value);

}  // namespace counterguard
