// SPDX-License-Identifier: Apache-2.0
// Reading kernel resources back from compiled binaries: every number must equal what ptxas reported when
// it compiled the same code (the compile-time report), for the built-in runner and for small programs built
// in the ways nvcc lays out device code (fixtures/resource_probe.cu, built by CMakeLists.txt).
#include "counterguard/statics/binary_resources.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "counterguard/core/error.hpp"
#include "counterguard/statics/cubin_resources.hpp"
#include "counterguard/statics/elf_file.hpp"
#include "counterguard/statics/embedded_resource_report.hpp"
#include "counterguard/statics/fatbin_container.hpp"

namespace counterguard {
namespace {

using key = std::pair<std::string, std::string>;  // mangled name, architecture

std::map<key, std::vector<kernel_resources>> by_kernel(const std::vector<kernel_resources>& kernels) {
  std::map<key, std::vector<kernel_resources>> rows;
  for (const auto& k : kernels)
    rows[{k.mangled, k.architecture}].push_back(k);
  return rows;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Every number the compile-time report gives, compared one by one so a failure names the field.
void expect_same_resources(const kernel_resources& reported, const kernel_resources& read) {
  SCOPED_TRACE(reported.mangled + " " + reported.architecture);
  EXPECT_EQ(read.function, reported.function);
  EXPECT_EQ(read.registers, reported.registers);
  EXPECT_EQ(read.barriers, reported.barriers);
  EXPECT_EQ(read.stack_frame_bytes, reported.stack_frame_bytes);
  EXPECT_TRUE(read.spill_bytes_known);
  EXPECT_EQ(read.spill_store_bytes, reported.spill_store_bytes);
  EXPECT_EQ(read.spill_load_bytes, reported.spill_load_bytes);
  EXPECT_EQ(read.static_shared_bytes, reported.static_shared_bytes);
  EXPECT_EQ(read.constant_bytes, reported.constant_bytes);
}

// The probe's ptxas report for every architecture it was compiled for.
std::vector<kernel_resources> probe_report() {
  const std::string text = read_text(PROBE_MULTIARCH_REPORT);
  EXPECT_FALSE(text.empty()) << PROBE_MULTIARCH_REPORT;
  return parse_resource_report(text, "resource_probe.cu");
}

const kernel_resources& only_row(const std::vector<kernel_resources>& rows, const std::string& function,
                                 const std::string& architecture) {
  for (const auto& k : rows) {
    if (k.function == function && k.architecture == architecture)
      return k;
  }
  throw std::runtime_error("no row for " + function + " " + architecture);
}

TEST(runner_binary, every_kernel_of_the_compile_time_report_reads_back_identically) {
  const auto report = by_kernel(embedded_kernel_resources());
  const auto read = by_kernel(read_binary_kernel_resources(COUNTERGUARD_RUNNER));
  ASSERT_FALSE(report.empty());
  for (const auto& [name, reported] : report) {
    ASSERT_EQ(reported.size(), 1U) << name.first;
    const auto found = read.find(name);
    ASSERT_NE(found, read.end()) << name.first << " " << name.second << " is not in " << COUNTERGUARD_RUNNER;
    ASSERT_EQ(found->second.size(), 1U) << name.first;
    expect_same_resources(reported.front(), found->second.front());
  }
}

TEST(runner_binary, holds_no_kernel_the_compile_time_report_lacks) {
  const auto report = by_kernel(embedded_kernel_resources());
  for (const auto& [name, rows] : by_kernel(read_binary_kernel_resources(COUNTERGUARD_RUNNER)))
    EXPECT_EQ(report.count(name), 1U) << name.first << " " << name.second;
}

TEST(runner_binary, the_register_limited_variant_spills_in_the_binary_too) {
  const auto rows = read_binary_kernel_resources(COUNTERGUARD_RUNNER);
  const kernel_resources& limited =
      only_row(rows, "counterguard::kernels::spills::maxrreg32::register_heavy", "sm_90");
  EXPECT_EQ(limited.registers, 32);
  EXPECT_GT(limited.spill_store_bytes, 0U);
  EXPECT_EQ(limited.flags, std::vector<std::string>{"-maxrregcount=32"});
}

TEST(multi_architecture_library, has_one_row_per_kernel_per_architecture_equal_to_the_ptxas_report) {
  const std::vector<kernel_resources> report = probe_report();
  const binary_resources read = read_binary_resources(PROBE_MULTIARCH);
  EXPECT_EQ(read.device_code_section, ".nv_fatbin");
  EXPECT_EQ(read.cubins, 2U);
  ASSERT_EQ(report.size(), 12U);  // 6 kernels x (sm_80, sm_90)
  ASSERT_EQ(read.kernels.size(), report.size());
  const auto rows = by_kernel(read.kernels);
  for (const auto& reported : report) {
    const auto found = rows.find({reported.mangled, reported.architecture});
    ASSERT_NE(found, rows.end()) << reported.mangled << " " << reported.architecture;
    ASSERT_EQ(found->second.size(), 1U);
    expect_same_resources(reported, found->second.front());
  }
}

TEST(multi_architecture_library, compiled_architectures_have_no_uncompiled_entry) {
  // compute_90 PTX sits beside the sm_90 cubin: the driver uses the cubin, so nothing is left uncompiled.
  EXPECT_TRUE(read_binary_resources(PROBE_MULTIARCH).uncompiled_architectures.empty());
}

TEST(multi_architecture_library, covers_what_the_probe_is_for) {
  // The probe must keep exercising each reading rule; a compiler change that removes one fails here.
  const auto rows = read_binary_kernel_resources(PROBE_MULTIARCH);
  EXPECT_GT(only_row(rows, "probe_spills", "sm_90").spill_store_bytes, 0U);
  EXPECT_GT(only_row(rows, "probe_local_array", "sm_90").stack_frame_bytes, 0U);
  EXPECT_EQ(only_row(rows, "probe_local_array", "sm_90").spill_store_bytes, 0U);
  EXPECT_GT(only_row(rows, "probe_shared", "sm_90").static_shared_bytes, 0U);
  EXPECT_EQ(only_row(rows, "probe_shared", "sm_90").barriers, 1);
  EXPECT_GT(only_row(rows, "probe_double", "sm_80").constant_bytes, 0U);
  EXPECT_EQ(only_row(rows, "probe::scaled<3>", "sm_80").registers,
            only_row(rows, "probe::scaled<3>", "sm_90").registers);
}

TEST(multi_architecture_library, a_callees_spills_are_not_its_callers) {
  const std::string report = read_text(PROBE_MULTIARCH_REPORT);
  ASSERT_NE(report.find("Function properties for _Z18probe_heavy_calleePKjPjii"), std::string::npos)
      << "the callee was inlined: the probe no longer tests this";
  const auto rows = read_binary_kernel_resources(PROBE_MULTIARCH);
  EXPECT_LT(only_row(rows, "probe_caller", "sm_90").spill_store_bytes,
            only_row(rows, "probe_spills", "sm_90").spill_store_bytes / 4);
}

// The cubins of an object compiled with --compress-mode: `compression` must be what the flag asked for,
// or the test would pass on uncompressed data.
void expect_compressed_like_the_uncompressed_build(const std::string& object,
                                                   const std::string& compression) {
  const auto bytes = read_bytes(object);
  const elf_file host(binary_view(bytes.data(), bytes.size(), binary_origin{object, "", 0}));
  const elf_section* section = host.find_section(".nv_fatbin");
  ASSERT_NE(section, nullptr);
  bool compressed_cubin = false;
  for (const auto& entry : read_fatbin_containers(host.section_bytes(*section))) {
    if (entry.kind == fatbin_entry_kind::cubin)
      compressed_cubin = entry.compression == compression;
  }
  EXPECT_TRUE(compressed_cubin) << object << " holds no " << compression << "-compressed cubin";

  const auto reference = by_kernel(read_binary_kernel_resources(PROBE_MULTIARCH));
  const auto read = read_binary_kernel_resources(object);
  ASSERT_EQ(read.size(), 6U);
  for (const auto& k : read) {
    const auto found = reference.find({k.mangled, k.architecture});
    ASSERT_NE(found, reference.end()) << k.mangled;
    expect_same_resources(found->second.front(), k);
  }
}

TEST(compressed_cubins, lz4_entries_read_like_uncompressed_ones) {
  expect_compressed_like_the_uncompressed_build(PROBE_LZ4, "lz4");
}

TEST(compressed_cubins, zstd_entries_read_like_uncompressed_ones) {
  expect_compressed_like_the_uncompressed_build(PROBE_ZSTD, "zstd");
}

TEST(relocatable_device_code,
     the_linked_cubin_matches_the_ptxas_report_and_its_relocatable_copy_is_not_counted) {
  const binary_resources read = read_binary_resources(PROBE_RELOCATABLE);
  EXPECT_EQ(read.device_code_section, ".nv_fatbin");  // __nv_relfatbin holds the same kernels again
  const std::vector<kernel_resources> report =
      parse_resource_report(read_text(PROBE_RELOCATABLE_REPORT), "resource_probe.cu");
  ASSERT_EQ(report.size(), 6U);
  ASSERT_EQ(read.kernels.size(), report.size());
  const auto rows = by_kernel(read.kernels);
  for (const auto& reported : report) {
    const auto found = rows.find({reported.mangled, reported.architecture});
    ASSERT_NE(found, rows.end()) << reported.mangled;
    ASSERT_EQ(found->second.size(), 1U) << reported.mangled << " counted twice";
    if (reported.function == "probe_caller") {
      // Its callee is a separate function here: nvlink raises the caller's register count to cover it.
      EXPECT_GE(found->second.front().registers, reported.registers);
      continue;
    }
    expect_same_resources(reported, found->second.front());
  }
}

// The message of the input_error `read` throws; fails the test when it throws nothing.
template <typename Read>
std::string input_error_of(Read read) {
  try {
    read();
  } catch (const input_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no input_error";
  return "";
}

TEST(unreadable_inputs, ptx_only_device_code_says_the_driver_compiles_it) {
  const std::string message = input_error_of([] { (void)read_binary_resources(PROBE_PTX_ONLY); });
  EXPECT_NE(message.find(PROBE_PTX_ONLY), std::string::npos) << message;
  EXPECT_NE(message.find("compute_90"), std::string::npos) << message;
  EXPECT_NE(message.find("no cubin"), std::string::npos) << message;
}

TEST(unreadable_inputs, a_host_program_without_device_code_says_so) {
  const std::string message = input_error_of([] { (void)read_binary_resources(HOST_ONLY); });
  EXPECT_NE(message.find(HOST_ONLY), std::string::npos) << message;
  EXPECT_NE(message.find("no CUDA device code"), std::string::npos) << message;
}

// A scratch copy of a binary with some bytes changed.
class scratch_binary {
 public:
  explicit scratch_binary(const std::vector<std::uint8_t>& bytes)
      : m_path(std::filesystem::temp_directory_path() /
               ("counterguard-statics-" + std::to_string(::getpid()) + "-" + std::to_string(s_count++))) {
    std::ofstream(m_path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  scratch_binary(const scratch_binary&) = delete;
  scratch_binary& operator=(const scratch_binary&) = delete;
  ~scratch_binary() { std::filesystem::remove(m_path); }
  [[nodiscard]] std::string path() const { return m_path.string(); }

 private:
  static inline int s_count = 0;
  std::filesystem::path m_path;
};

// Where the multi-architecture probe's .nv_fatbin section and its first cubin lie in the file.
struct probe_layout {
  std::vector<std::uint8_t> bytes;
  std::uint64_t fatbin_offset = 0;
  std::uint64_t fatbin_size = 0;
  std::uint64_t cubin_offset = 0;
};

probe_layout layout_of_probe() {
  probe_layout layout;
  layout.bytes = read_bytes(PROBE_MULTIARCH);
  const elf_file host(binary_view(layout.bytes.data(), layout.bytes.size(), binary_origin{"probe", "", 0}));
  const elf_section* section = host.find_section(".nv_fatbin");
  layout.fatbin_offset = section->offset;
  layout.fatbin_size = section->size;
  for (const auto& entry : read_fatbin_containers(host.section_bytes(*section))) {
    if (entry.kind == fatbin_entry_kind::cubin && entry.compression.empty()) {
      layout.cubin_offset = *entry.stored.origin().file_offset;
      break;
    }
  }
  return layout;
}

void put_le(std::vector<std::uint8_t>& bytes, std::uint64_t at, std::uint64_t value, int size) {
  for (int i = 0; i < size; ++i)
    bytes[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
}

std::string file_offset_text(std::uint64_t offset) {
  std::ostringstream text;
  text << "file offset 0x" << std::hex << offset;
  return text.str();
}

TEST(corrupted_inputs, a_truncated_file_names_the_file_and_the_offset) {
  const auto bytes = read_bytes(PROBE_MULTIARCH);
  const scratch_binary cut(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + bytes.size() / 2));
  const std::string message = input_error_of([&] { (void)read_binary_resources(cut.path()); });
  EXPECT_NE(message.find(cut.path()), std::string::npos) << message;
  EXPECT_NE(message.find("offset 0x"), std::string::npos) << message;
}

TEST(corrupted_inputs, a_damaged_fat_binary_header_names_the_section_and_the_offset) {
  probe_layout layout = layout_of_probe();
  put_le(layout.bytes, layout.fatbin_offset, 0x12345678, 4);
  const scratch_binary damaged(layout.bytes);
  const std::string message = input_error_of([&] { (void)read_binary_resources(damaged.path()); });
  EXPECT_NE(message.find(damaged.path()), std::string::npos) << message;
  EXPECT_NE(message.find("section .nv_fatbin"), std::string::npos) << message;
  EXPECT_NE(message.find("0xba55ed50"), std::string::npos) << message;
  EXPECT_NE(message.find(file_offset_text(layout.fatbin_offset)), std::string::npos) << message;
}

TEST(corrupted_inputs, an_entry_larger_than_its_container_names_the_entry) {
  probe_layout layout = layout_of_probe();
  put_le(layout.bytes, layout.fatbin_offset + 16 + 8, std::uint64_t{1} << 40, 8);  // entry 0 payload size
  const scratch_binary damaged(layout.bytes);
  const std::string message = input_error_of([&] { (void)read_binary_resources(damaged.path()); });
  EXPECT_NE(message.find("fat binary 0': entry 0 (cubin sm_80)"), std::string::npos) << message;
  EXPECT_NE(message.find("extends past the end"), std::string::npos) << message;
}

TEST(corrupted_inputs, an_overlong_attribute_record_names_the_cubin_section) {
  probe_layout layout = layout_of_probe();
  ASSERT_NE(layout.cubin_offset, 0U);
  const elf_file cubin(binary_view(layout.bytes.data() + layout.cubin_offset,
                                   layout.bytes.size() - layout.cubin_offset, binary_origin{"cubin", "", 0}));
  const elf_section* info = cubin.find_section(".nv.info");
  ASSERT_NE(info, nullptr);
  put_le(layout.bytes, layout.cubin_offset + info->offset + 2, 0xfff0, 2);  // first record's payload size
  const scratch_binary damaged(layout.bytes);
  const std::string message = input_error_of([&] { (void)read_binary_resources(damaged.path()); });
  EXPECT_NE(message.find("(cubin sm_80) > section .nv.info"), std::string::npos) << message;
  EXPECT_NE(message.find("claims 65520 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find(file_offset_text(layout.cubin_offset + info->offset)), std::string::npos) << message;
}

// The file offset of the first compressed cubin's payload in a host object.
std::uint64_t compressed_cubin_in(const std::vector<std::uint8_t>& bytes) {
  const elf_file host(binary_view(bytes.data(), bytes.size(), binary_origin{"object", "", 0}));
  const elf_section* section = host.find_section(".nv_fatbin");
  for (const auto& entry : read_fatbin_containers(host.section_bytes(*section))) {
    if (entry.kind == fatbin_entry_kind::cubin && !entry.compression.empty()) {
      return *entry.stored.origin().file_offset;
    }
  }
  return 0;
}

TEST(corrupted_inputs, a_damaged_zstd_stream_is_named) {
  auto bytes = read_bytes(PROBE_ZSTD);
  const std::uint64_t payload = compressed_cubin_in(bytes);
  ASSERT_NE(payload, 0U);
  put_le(bytes, payload, 0xdeadbeef, 4);  // the Zstandard frame magic
  const scratch_binary damaged(bytes);
  const std::string message = input_error_of([&] { (void)read_binary_resources(damaged.path()); });
  EXPECT_NE(message.find("(cubin sm_90)"), std::string::npos) << message;
  EXPECT_NE(message.find("Zstandard"), std::string::npos) << message;
}

TEST(corrupted_inputs, a_damaged_lz4_stream_is_named) {
  auto bytes = read_bytes(PROBE_LZ4);
  const std::uint64_t payload = compressed_cubin_in(bytes);
  ASSERT_NE(payload, 0U);
  for (std::uint64_t i = 0; i < 64; ++i)
    bytes[payload + i] = 0xff;  // literal lengths that run past the end of the block
  const scratch_binary damaged(bytes);
  const std::string message = input_error_of([&] { (void)read_binary_resources(damaged.path()); });
  EXPECT_NE(message.find("(cubin sm_90)"), std::string::npos) << message;
  EXPECT_NE(message.find("LZ4"), std::string::npos) << message;
}

// Random damage anywhere in the device code must end in a result or an input_error, never a crash or
// another exception. The damaged section is read in memory the way read_binary_resources reads it.
TEST(corrupted_inputs, random_damage_to_the_device_code_never_crashes) {
  const probe_layout layout = layout_of_probe();
  std::mt19937_64 random(20240601);
  int rejected = 0;
  constexpr int attempts = 3000;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    std::vector<std::uint8_t> section(
        layout.bytes.begin() + static_cast<std::ptrdiff_t>(layout.fatbin_offset),
        layout.bytes.begin() + static_cast<std::ptrdiff_t>(layout.fatbin_offset + layout.fatbin_size));
    const int changes = 1 + static_cast<int>(random() % 4);
    for (int c = 0; c < changes; ++c)
      section[random() % section.size()] = static_cast<std::uint8_t>(random());
    try {
      std::vector<std::uint8_t> storage;
      const binary_view view(section.data(), section.size(),
                             binary_origin{"fuzzed", "section .nv_fatbin", 0});
      for (const auto& entry : read_fatbin_containers(view)) {
        if (entry.kind == fatbin_entry_kind::cubin)
          (void)read_cubin_resources(entry.payload(storage), entry.architecture_suffix(), "fuzzed");
      }
    } catch (const input_error&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 0);  // the damage did reach the parsers
}

TEST(unreadable_inputs, a_missing_file_an_empty_file_and_a_text_file_are_named) {
  EXPECT_NE(input_error_of([] { (void)read_binary_resources("/nonexistent/program"); }).find("cannot open"),
            std::string::npos);
  const scratch_binary empty(std::vector<std::uint8_t>{});
  EXPECT_NE(input_error_of([&] { (void)read_binary_resources(empty.path()); }).find("empty"),
            std::string::npos);
  const std::string text = "suite: not a binary\n";
  const scratch_binary yaml(std::vector<std::uint8_t>(text.begin(), text.end()));
  const std::string message = input_error_of([&] { (void)read_binary_resources(yaml.path()); });
  EXPECT_NE(message.find(yaml.path()), std::string::npos) << message;
  EXPECT_NE(message.find("not an ELF file or a fat binary"), std::string::npos) << message;
}

}  // namespace
}  // namespace counterguard
