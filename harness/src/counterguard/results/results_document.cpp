// SPDX-License-Identifier: Apache-2.0
#include "counterguard/results/results_document.hpp"

#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>

#include "counterguard/core/error.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

int checked_schema_version(const json_reader& in, const nlohmann::json& document) {
  in.require_object(document, "");
  const std::int64_t version = in.integer(document, "", "schema_version", 0, std::numeric_limits<int>::max());
  if (version < 1 || version > results_schema_version) {
    in.fail("schema_version", "unsupported version " + std::to_string(version),
            "this counterguard reads versions 1 to " + std::to_string(results_schema_version));
  }
  return static_cast<int>(version);
}

nlohmann::json read_results_document(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw input_error(source_location{path, 0, 0}, "", "cannot read the results file", "check the path");
  std::ostringstream text;
  text << file.rdbuf();
  const json_reader in(path);
  nlohmann::json document = in.parse(text.str());
  static_cast<void>(checked_schema_version(in, document));
  return document;
}

}  // namespace counterguard
