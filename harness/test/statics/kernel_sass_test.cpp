// SPDX-License-Identifier: Apache-2.0
// The SASS of counterguard's own built-in kernels (compiled into this test program with -lineinfo by
// counterguard_add_kernels), mapped to their source lines: the map source-line blame joins per-PC counters
// to.
#include "counterguard/statics/kernel_sass.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "counterguard/core/error.hpp"
#include "counterguard/statics/sass_disassembler.hpp"
#include "counterguard/statics/toolkit_sources.hpp"

namespace counterguard {
namespace {

const std::string self = "/proc/self/exe";
const std::string tile_kernel = "counterguard::kernels::transpose::smem_tile";

// The line of a source whose text contains `fragment`, found in the source so that the test follows it.
int source_line_containing(const std::string& fragment, const std::string& path = TRANSPOSE_SOURCE) {
  std::ifstream source(path);
  std::string line;
  int number = 0;
  while (std::getline(source, line)) {
    ++number;
    if (line.find(fragment) != std::string::npos)
      return number;
  }
  ADD_FAILURE() << fragment << " is not in " << path;
  return 0;
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

kernel_sass lines_of(const std::string& path, const std::string& kernel) {
  const std::vector<kernel_sass> found = read_kernel_sass(path, kernel, {"", true});
  EXPECT_FALSE(found.empty());
  return found.empty() ? kernel_sass{} : found.front();
}

TEST(kernel_sass, every_instruction_of_a_lineinfo_kernel_has_a_source_line) {
  const kernel_sass sass = lines_of(self, tile_kernel);
  EXPECT_EQ(sass.architecture, "sm_90");
  EXPECT_EQ(sass.mangled, "_ZN12counterguard7kernels9transpose9smem_tileEPKfPfii");
  ASSERT_TRUE(sass.has_line_info);
  ASSERT_GT(sass.instructions.size(), 20U);
  for (const auto& instruction : sass.instructions) {
    ASSERT_TRUE(instruction.position.has_value()) << "offset " << instruction.offset;
    EXPECT_TRUE(ends_with(instruction.position->file, "kernels/transpose/transpose.cu"))
        << instruction.position->file;
    EXPECT_GT(instruction.position->line, 0);
  }
}

TEST(kernel_sass, instructions_lie_16_bytes_apart_and_cover_the_function) {
  const kernel_sass sass = lines_of(self, tile_kernel);
  for (std::size_t i = 0; i < sass.instructions.size(); ++i)
    EXPECT_EQ(sass.instructions[i].offset, i * 16);
}

TEST(kernel_sass, the_lines_of_the_tile_kernel_are_the_lines_of_its_body) {
  const int first = source_line_containing("__global__ void smem_tile(");
  const int store = source_line_containing("buffer[threadIdx.x * pitch + threadIdx.y + j] =");
  const int load = source_line_containing("= buffer[(threadIdx.y + j) * pitch + threadIdx.x];");
  const kernel_sass sass = lines_of(self, tile_kernel);
  std::vector<int> lines;
  for (const auto& summary : summarize_by_line(sass)) {
    ASSERT_TRUE(summary.position.has_value());
    lines.push_back(summary.position->line);
    EXPECT_GE(summary.position->line, first);
    EXPECT_LE(summary.position->line, load + 2);  // the closing brace
  }
  EXPECT_NE(std::find(lines.begin(), lines.end(), store), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), load), lines.end());
}

TEST(kernel_sass, the_same_kernel_is_found_by_mangled_and_full_demangled_name) {
  const kernel_sass by_name = lines_of(self, tile_kernel);
  const kernel_sass by_mangled = lines_of(self, by_name.mangled);
  const kernel_sass by_signature =
      lines_of(self, "counterguard::kernels::transpose::smem_tile(float const*, float*, int, int)");
  EXPECT_EQ(by_mangled.instructions.size(), by_name.instructions.size());
  EXPECT_EQ(by_signature.instructions.size(), by_name.instructions.size());
  const kernel_sass unqualified = lines_of(self, "smem_tile");
  EXPECT_EQ(unqualified.mangled, by_name.mangled);
}

TEST(kernel_sass, a_kernel_built_without_lineinfo_says_so) {
  // The probe library is built with plain nvcc flags: no -lineinfo.
  const std::vector<kernel_sass> found = read_kernel_sass(PROBE_MULTIARCH, "probe_shared", {"sm_90", true});
  ASSERT_EQ(found.size(), 1U);
  EXPECT_FALSE(found.front().has_line_info);
  ASSERT_FALSE(found.front().instructions.empty());
  for (const auto& instruction : found.front().instructions)
    EXPECT_FALSE(instruction.position.has_value());
}

TEST(kernel_sass, inlined_code_carries_its_call_site) {
  const int body = source_line_containing("marker: inlined body", INLINED_PROBE_SOURCE);
  const int call = source_line_containing("marker: call site", INLINED_PROBE_SOURCE);
  const kernel_sass sass = lines_of(INLINED_PROBE, "inlined_probe");
  ASSERT_TRUE(sass.has_line_info);
  std::size_t inlined = 0;
  for (const auto& instruction : sass.instructions) {
    ASSERT_TRUE(instruction.position.has_value());
    if (instruction.position->line != body)
      continue;
    ++inlined;
    ASSERT_EQ(instruction.inlined_at.size(), 1U) << "offset " << instruction.offset;
    EXPECT_EQ(instruction.inlined_at.front().line, call);
    EXPECT_TRUE(ends_with(instruction.inlined_at.front().file, "inlined_probe.cu"));
  }
  EXPECT_GT(inlined, 0U);
}

// inline_chains.cu: several kernels in one cubin, each with code inlined from headers. Line tables give each
// function a sequence of its own, and an inlined row names its call site by its index in that sequence.
struct kernel_lines {
  int first = 0;  // the __global__ line
  int last = 0;   // the closing brace
};

kernel_lines lines_of_kernel(const std::string& name) {
  return {source_line_containing("__global__ void " + name + "(", INLINE_CHAINS_SOURCE),
          source_line_containing("// end " + name, INLINE_CHAINS_SOURCE)};
}

TEST(kernel_sass, every_kernel_of_a_cubin_has_its_own_call_sites) {
  for (const std::string kernel : {"shuffle_sum", "group_sum", "count_unused", "count_used", "scale"}) {
    const kernel_lines body = lines_of_kernel(kernel);
    const kernel_sass sass = lines_of(INLINE_CHAINS, kernel);
    ASSERT_TRUE(sass.has_line_info) << kernel;
    std::size_t inlined = 0;
    for (const auto& instruction : sass.instructions) {
      if (instruction.inlined_at.empty())
        continue;
      ++inlined;
      const source_position& outermost = instruction.inlined_at.back();
      EXPECT_TRUE(ends_with(outermost.file, "inline_chains.cu")) << kernel << ": " << outermost.file;
      EXPECT_GE(outermost.line, body.first) << kernel << " at " << instruction.offset;
      EXPECT_LE(outermost.line, body.last) << kernel << " at " << instruction.offset;
    }
    EXPECT_GT(inlined, 0U) << kernel;
  }
}

TEST(kernel_sass, an_atomic_add_is_the_toolkits_code_inlined_at_the_call) {
  const int call = source_line_containing("marker: atomic unused", INLINE_CHAINS_SOURCE);
  const kernel_sass sass = lines_of(INLINE_CHAINS, "count_unused");
  std::size_t in_header = 0;
  for (const auto& instruction : sass.instructions) {
    if (!ends_with(instruction.position->file, "device_atomic_functions.hpp"))
      continue;
    ++in_header;
    ASSERT_EQ(instruction.inlined_at.size(), 1U) << "offset " << instruction.offset;
    EXPECT_EQ(instruction.inlined_at.front().line, call);
    EXPECT_NE(instruction.inlined_function.find("atomicAdd"), std::string::npos)
        << instruction.inlined_function;
  }
  EXPECT_GT(in_header, 0U);
}

TEST(kernel_sass, a_cooperative_groups_reduction_nests_inlined_calls_under_the_users_call) {
  const int call = source_line_containing("marker: reduce call", INLINE_CHAINS_SOURCE);
  const kernel_sass sass = lines_of(INLINE_CHAINS, "group_sum");
  std::size_t nested = 0;
  for (const auto& instruction : sass.instructions) {
    if (instruction.inlined_at.size() < 2 || instruction.inlined_at.back().line != call)
      continue;
    ++nested;
    // Innermost first: every call site but the last is in the toolkit's cooperative groups headers.
    for (std::size_t i = 0; i + 1 < instruction.inlined_at.size(); ++i)
      EXPECT_NE(instruction.inlined_at[i].file.find("cooperative_groups"), std::string::npos)
          << instruction.inlined_at[i].file;
  }
  EXPECT_GT(nested, 0U);
}

TEST(kernel_sass, the_toolkits_include_directories_hold_its_headers_but_not_the_projects) {
  const kernel_sass sass = lines_of(INLINE_CHAINS, "count_unused");
  ASSERT_FALSE(sass.toolkit_include_dirs.empty());
  const auto in_toolkit = [&](const std::string& file) {
    return std::any_of(sass.toolkit_include_dirs.begin(), sass.toolkit_include_dirs.end(),
                       [&](const std::string& dir) { return source_in_directory(file, dir); });
  };
  for (const auto& instruction : lines_of(INLINE_CHAINS, "group_sum").instructions) {
    for (const auto& call : instruction.inlined_at) {
      const bool projects = ends_with(call.file, "inline_chains.cu");
      EXPECT_EQ(in_toolkit(call.file), !projects) << call.file;
    }
  }
  EXPECT_FALSE(in_toolkit(INLINE_CHAINS_SOURCE));
}

TEST(kernel_sass, an_unknown_kernel_is_an_error_listing_close_names) {
  try {
    (void)read_kernel_sass(self, "counterguard::kernels::transpose::smem_tiles", {"", true});
    FAIL() << "expected an input_error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find(tile_kernel), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no function 'counterguard::kernels::transpose::smem_tiles'"),
              std::string::npos)
        << e.what();
  }
}

TEST(kernel_sass, an_architecture_the_file_lacks_is_an_error_naming_those_it_has) {
  try {
    (void)read_kernel_sass(self, tile_kernel, {"sm_75", true});
    FAIL() << "expected an input_error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("sm_90"), std::string::npos) << e.what();
  }
}

TEST(kernel_sass, memory_instructions_are_classified_by_opcode_base) {
  EXPECT_EQ(classify_opcode("STS"), memory_access::shared_store);
  EXPECT_EQ(classify_opcode("STS.128"), memory_access::shared_store);
  EXPECT_EQ(classify_opcode("LDS.U.128"), memory_access::shared_load);
  EXPECT_EQ(classify_opcode("LDG.E.128.CONSTANT"), memory_access::global_load);
  EXPECT_EQ(classify_opcode("STL.64"), memory_access::local_store);
  EXPECT_EQ(classify_opcode("RED.E.ADD.STRONG.GPU"), memory_access::global_atomic);
  EXPECT_EQ(classify_opcode("FFMA"), memory_access::none);
  EXPECT_EQ(classify_opcode("LDC"), memory_access::none);
  EXPECT_EQ(instruction_opcode("@!P0 STS [R5], R2"), "STS");
  EXPECT_EQ(instruction_opcode("LDG.E R2, desc[UR4][R2.64]"), "LDG.E");
}

// With the toolkit's disassembler (on the GPU host; the build machine has none).
TEST(kernel_sass, the_shared_stores_of_the_unpadded_tile_kernel_are_on_the_line_that_writes_the_tile) {
  if (find_nvdisasm().empty())
    GTEST_SKIP() << "nvdisasm is not installed";
  const int store = source_line_containing("buffer[threadIdx.x * pitch + threadIdx.y + j] =");
  const std::vector<kernel_sass> found = read_kernel_sass(self, tile_kernel);
  ASSERT_FALSE(found.empty());
  const kernel_sass& sass = found.front();
  EXPECT_EQ(sass.instructions.size(), lines_of(self, tile_kernel).instructions.size());
  std::size_t stores = 0;
  for (const auto& instruction : sass.instructions) {
    EXPECT_FALSE(instruction.text.empty());
    if (instruction.access != memory_access::shared_store)
      continue;
    ++stores;
    ASSERT_TRUE(instruction.position.has_value());
    EXPECT_EQ(instruction.position->line, store) << instruction.text;
  }
  EXPECT_GT(stores, 0U);
}

}  // namespace
}  // namespace counterguard
