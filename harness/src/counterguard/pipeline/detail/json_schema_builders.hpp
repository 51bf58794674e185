// SPDX-License-Identifier: Apache-2.0
#pragma once
// The pieces both of counterguard's JSON Schemas are built from (json_schemas.cpp, results_json_schema.cpp).

#include <nlohmann/json.hpp>
#include <string>

namespace counterguard::detail {

inline constexpr const char* schema_dialect = "https://json-schema.org/draft/2020-12/schema";

inline nlohmann::json described(nlohmann::json schema, const std::string& description) {
  schema["description"] = description;
  return schema;
}

inline nlohmann::json reference(const std::string& definition) {
  return {{"$ref", "#/$defs/" + definition}};
}

}  // namespace counterguard::detail
