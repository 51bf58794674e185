// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <zlib.h>

#include <string>

#include "counterguard/cupti/counter_data_image.hpp"

namespace counterguard::test {

// The H200 counter-data image committed under harness/test/fixtures (auto range, kernel replay, 5 ranges:
// atomic counter, in-place increment, 32-way shared conflict, registers, divergence).
inline std::string fixture_path(const std::string& name) {
  return std::string(COUNTERGUARD_SOURCE_DIR) + "/harness/test/fixtures/" + name;
}

inline counter_data_image h200_five_kernels_image() {
  counter_data_image image;
  image.chip = "GH100";
  gzFile file = gzopen(fixture_path("h200_autorange_kernelreplay_5kernels.counterdata.gz").c_str(), "rb");
  if (file == nullptr)
    return image;
  char buffer[1 << 16];
  int read = 0;
  while ((read = gzread(file, buffer, sizeof(buffer))) > 0)
    image.bytes.insert(image.bytes.end(), buffer, buffer + read);
  gzclose(file);
  return image;
}

}  // namespace counterguard::test
