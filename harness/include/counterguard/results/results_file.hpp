#pragma once

#include <string>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

// Reads a results JSON file (docs/results-schema.md), as `--json` writes it. A file that cannot be read, is
// not JSON or does not follow the schema is an input_error naming the file and the field at fault.
[[nodiscard]] run_results read_results_file(const std::string& path);

}  // namespace counterguard
