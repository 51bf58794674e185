// SPDX-License-Identifier: Apache-2.0
#include "nv_info_records.hpp"

#include <fmt/format.h>

namespace counterguard::detail {

std::vector<nv_info_record> read_nv_info_records(const binary_view& section) {
  std::vector<nv_info_record> records;
  std::uint64_t at = 0;
  while (at < section.size()) {
    nv_info_record record;
    const std::uint8_t format = section.u8(at, "EIATTR record format");
    record.attribute = section.u8(at + 1, "EIATTR record attribute");
    const std::uint16_t word = section.u16(at + 2, "EIATTR record value");
    switch (format) {
      case static_cast<std::uint8_t>(eiformat::none):
        record.format = eiformat::none;
        break;
      case static_cast<std::uint8_t>(eiformat::byte_value):
        record.format = eiformat::byte_value;
        record.value = static_cast<std::uint16_t>(word & 0xff);
        break;
      case static_cast<std::uint8_t>(eiformat::half_value):
        record.format = eiformat::half_value;
        record.value = word;
        break;
      case static_cast<std::uint8_t>(eiformat::sized):
        record.format = eiformat::sized;
        record.payload_offset = at + 4;
        record.payload_size = word;
        if (!section.fits(at + 4, word)) {
          const std::uint64_t remaining = section.size() > at + 4 ? section.size() - (at + 4) : 0;
          section.fail(at, fmt::format("EIATTR record {:#04x} claims {} bytes of payload but {} remain",
                                       record.attribute, word, remaining));
        }
        at += word;
        break;
      default:
        section.fail(at, fmt::format("EIATTR record has format {} (valid: 1 to 4)", format));
    }
    at += 4;
    records.push_back(record);
  }
  return records;
}

}  // namespace counterguard::detail
