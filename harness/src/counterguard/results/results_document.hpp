// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "counterguard/core/json_reader.hpp"

namespace counterguard {

// The schema_version of a results document, checked: the document is an object and its version one this
// counterguard reads; anything else is an input_error naming the file and the field.
int checked_schema_version(const json_reader& in, const nlohmann::json& document);

// The results file at `path` (`counterguard run --json`) as a JSON document whose schema version is checked:
// a file that cannot be read, is not JSON or has another version is an input_error naming it.
[[nodiscard]] nlohmann::json read_results_document(const std::string& path);

}  // namespace counterguard
