// SPDX-License-Identifier: Apache-2.0
#include "detail/versioned_json_file.hpp"

#include <fstream>
#include <sstream>

#include "counterguard/core/error.hpp"

namespace counterguard::detail {

versioned_json_file read_versioned_json_file(const std::string& path,
                                             const versioned_json_file_description& file) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw input_error({path}, "", "cannot read " + file.what, file.where_from);
  std::ostringstream text;
  text << in.rdbuf();
  versioned_json_file result{json_reader(path), {}};
  result.document = result.reader.parse(text.str());
  result.reader.require_object(result.document, "");
  const std::int64_t version = result.reader.integer(result.document, "", "schema_version", 0, 1000000);
  if (version != file.version) {
    result.reader.fail(
        "schema_version", "is " + std::to_string(version),
        "this counterguard reads version " + std::to_string(file.version) + file.version_advice);
  }
  return result;
}

}  // namespace counterguard::detail
