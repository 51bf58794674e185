// SPDX-License-Identifier: Apache-2.0
#include "counterguard/history/history_source.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <array>
#include <nlohmann/json.hpp>

#include "counterguard/core/error.hpp"

namespace counterguard {

std::string results_content_hash(const run_results& results, const std::string& distinguisher) {
  // nlohmann::json keeps object keys sorted, so the dump is canonical; the replacement of invalid UTF-8 is
  // the one the JSON reporter applies, so a results file read back hashes the same.
  std::string text = nlohmann::json(results).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (!distinguisher.empty())
    text += "\n" + distinguisher;
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_Digest(text.data(), text.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1)
    throw error(exit_code::internal_error, "OpenSSL could not compute a SHA-256 digest");
  std::string hex;
  for (unsigned int i = 0; i < size; ++i)
    hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

}  // namespace counterguard
