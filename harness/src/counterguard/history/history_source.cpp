// SPDX-License-Identifier: Apache-2.0
#include "counterguard/history/history_source.hpp"

#include <nlohmann/json.hpp>

#include "counterguard/history/sha256.hpp"

namespace counterguard {

std::string results_content_hash(const run_results& results, const std::string& distinguisher) {
  // nlohmann::json keeps object keys sorted, so the dump is canonical; the replacement of invalid UTF-8 is
  // the one the JSON reporter applies, so a results file read back hashes the same.
  std::string text = nlohmann::json(results).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (!distinguisher.empty())
    text += "\n" + distinguisher;
  return sha256_hex(text);
}

}  // namespace counterguard
