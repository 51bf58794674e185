// SPDX-License-Identifier: Apache-2.0
// The fat binary container on hand-made bytes: the layout nvcc 13.0 writes (fatbin_container.hpp).
#include "counterguard/statics/fatbin_container.hpp"

#include <gtest/gtest.h>
#include <lz4.h>
#include <zstd.h>

#include <string>
#include <vector>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

void put(std::vector<std::uint8_t>& out, std::uint64_t value, int size) {
  for (int i = 0; i < size; ++i)
    out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

struct entry_spec {
  std::uint16_t kind = 2;
  std::uint32_t architecture = 90;
  std::uint64_t flags = 0x11;
  std::vector<std::uint8_t> stored;
  std::uint32_t compressed_size = 0;
  std::uint64_t uncompressed_size = 0;
};

std::vector<std::uint8_t> entry_bytes(const entry_spec& e) {
  std::vector<std::uint8_t> out;
  put(out, e.kind, 2);
  put(out, 0x0101, 2);
  put(out, 64, 4);  // header size
  put(out, e.stored.size(), 8);
  put(out, e.compressed_size, 4);
  put(out, 0, 4);
  put(out, 8, 2);  // minor
  put(out, 1, 2);  // major
  put(out, e.architecture, 4);
  put(out, 0, 4);
  put(out, 0, 4);
  put(out, e.flags, 8);
  put(out, 0, 8);
  put(out, e.uncompressed_size, 8);
  out.insert(out.end(), e.stored.begin(), e.stored.end());
  return out;
}

std::vector<std::uint8_t> container(const std::vector<entry_spec>& entries) {
  std::vector<std::uint8_t> body;
  for (const auto& e : entries) {
    const auto bytes = entry_bytes(e);
    body.insert(body.end(), bytes.begin(), bytes.end());
  }
  std::vector<std::uint8_t> out;
  put(out, fatbin_magic, 4);
  put(out, 1, 2);
  put(out, 16, 2);
  put(out, body.size(), 8);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

binary_view view_of(const std::vector<std::uint8_t>& bytes) {
  return binary_view(bytes.data(), bytes.size(), binary_origin{"app", "section .nv_fatbin", 0x1000});
}

std::string input_error_of(const std::vector<std::uint8_t>& bytes) {
  try {
    std::vector<std::uint8_t> storage;
    for (const auto& entry : read_fatbin_containers(view_of(bytes)))
      (void)entry.payload(storage);
  } catch (const input_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no input_error";
  return "";
}

const std::vector<std::uint8_t> cubin_text = {'c', 'u', 'b', 'i', 'n', ' ', 'b', 'y', 't', 'e', 's', '!',
                                              'c', 'u', 'b', 'i', 'n', ' ', 'b', 'y', 't', 'e', 's', '!'};

TEST(fatbin_container, reads_kind_architecture_and_an_uncompressed_payload) {
  entry_spec ptx;
  ptx.kind = 1;
  ptx.stored = {'.', 'v', 'e', 'r'};
  entry_spec cubin;
  cubin.stored = cubin_text;
  const auto bytes = container({ptx, cubin});
  const auto entries = read_fatbin_containers(view_of(bytes));
  ASSERT_EQ(entries.size(), 2U);
  EXPECT_EQ(entries[0].kind, fatbin_entry_kind::ptx);
  EXPECT_EQ(entries[0].architecture_name(), "compute_90");
  EXPECT_EQ(entries[1].kind, fatbin_entry_kind::cubin);
  EXPECT_EQ(entries[1].architecture_name(), "sm_90");
  std::vector<std::uint8_t> storage;
  const binary_view payload = entries[1].payload(storage);
  EXPECT_EQ(std::vector<std::uint8_t>(payload.data(), payload.data() + payload.size()), cubin_text);
  EXPECT_EQ(payload.origin().file_offset, 0x1000U + 16 + (64 + 4) + 64);  // where the payload is in the file
}

TEST(fatbin_container, architecture_specific_and_family_flags_name_the_suffix) {
  entry_spec a;
  a.flags = 0x100011;
  entry_spec f;
  f.architecture = 100;
  f.flags = 0x1200011;
  const auto bytes = container({a, f});
  const auto entries = read_fatbin_containers(view_of(bytes));
  EXPECT_EQ(entries[0].architecture_name(), "sm_90a");
  EXPECT_EQ(entries[1].architecture_name(), "sm_100f");
}

TEST(fatbin_container, containers_laid_end_to_end_with_zero_padding_are_all_read) {
  entry_spec cubin;
  cubin.stored = cubin_text;
  auto bytes = container({cubin});
  bytes.insert(bytes.end(), 8, 0);
  const auto second = container({cubin, cubin});
  bytes.insert(bytes.end(), second.begin(), second.end());
  EXPECT_EQ(read_fatbin_containers(view_of(bytes)).size(), 3U);
}

TEST(fatbin_container, decompresses_lz4_and_zstd_payloads) {
  std::vector<std::uint8_t> lz4(LZ4_compressBound(static_cast<int>(cubin_text.size())));
  const int lz4_size = LZ4_compress_default(
      reinterpret_cast<const char*>(cubin_text.data()), reinterpret_cast<char*>(lz4.data()),
      static_cast<int>(cubin_text.size()), static_cast<int>(lz4.size()));
  lz4.resize(static_cast<std::size_t>(lz4_size));
  std::vector<std::uint8_t> zstd(ZSTD_compressBound(cubin_text.size()));
  zstd.resize(ZSTD_compress(zstd.data(), zstd.size(), cubin_text.data(), cubin_text.size(), 3));

  entry_spec a;
  a.flags = 0x2011;
  a.stored = lz4;
  a.compressed_size = static_cast<std::uint32_t>(lz4.size());
  a.uncompressed_size = cubin_text.size();
  entry_spec b;
  b.flags = 0x8011;
  b.stored = zstd;
  b.stored.resize(zstd.size() + 5);  // nvcc pads the payload; the compressed size says where the stream ends
  b.compressed_size = static_cast<std::uint32_t>(zstd.size());
  b.uncompressed_size = cubin_text.size();
  const auto bytes = container({a, b});
  const auto entries = read_fatbin_containers(view_of(bytes));
  ASSERT_EQ(entries.size(), 2U);
  EXPECT_EQ(entries[0].compression, "lz4");
  EXPECT_EQ(entries[1].compression, "zstd");
  for (const auto& entry : entries) {
    std::vector<std::uint8_t> storage;
    const binary_view payload = entry.payload(storage);
    EXPECT_EQ(std::vector<std::uint8_t>(payload.data(), payload.data() + payload.size()), cubin_text);
    EXPECT_FALSE(payload.origin().file_offset.has_value());  // offsets inside are not file offsets
  }
}

TEST(fatbin_container, a_truncated_header_names_the_offset_in_the_file) {
  entry_spec cubin;
  cubin.stored = cubin_text;
  auto bytes = container({cubin});
  bytes.resize(16 + 40);  // cut inside the entry header
  const std::string message = input_error_of(bytes);
  EXPECT_NE(message.find("app: field 'section .nv_fatbin"), std::string::npos) << message;
  EXPECT_NE(message.find("extends past the end"), std::string::npos) << message;
}

TEST(fatbin_container, a_wrong_magic_is_refused_with_the_expected_one) {
  auto bytes = container({});
  bytes[0] = 0x51;
  const std::string message = input_error_of(bytes);
  EXPECT_NE(message.find("0xba55ed50"), std::string::npos) << message;
  EXPECT_NE(message.find("file offset 0x1000"), std::string::npos) << message;
}

TEST(fatbin_container, a_claimed_size_the_stream_cannot_hold_is_refused_before_decompressing) {
  entry_spec lz4;
  lz4.flags = 0x2011;
  lz4.stored = cubin_text;
  lz4.compressed_size = static_cast<std::uint32_t>(cubin_text.size());
  lz4.uncompressed_size = std::uint64_t{1} << 40;
  const std::string message = input_error_of(container({lz4}));
  EXPECT_NE(message.find("cannot hold"), std::string::npos) << message;
}

TEST(fatbin_container, both_compression_flags_at_once_are_refused) {
  entry_spec both;
  both.flags = 0xa011;
  both.stored = cubin_text;
  both.compressed_size = 4;
  const std::string message = input_error_of(container({both}));
  EXPECT_NE(message.find("both LZ4 and Zstandard"), std::string::npos) << message;
}

}  // namespace
}  // namespace counterguard
