// SPDX-License-Identifier: Apache-2.0
#include "counterguard/history/sha256.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <array>

#include "counterguard/core/error.hpp"

namespace counterguard {

std::string sha256_hex(const std::string& text) {
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
