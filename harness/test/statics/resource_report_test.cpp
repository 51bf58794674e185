// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "counterguard/core/symbol_names.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {
namespace {

// Verbatim nvcc 13.0 --resource-usage output for sm_90 (three kernels, one with a stack frame).
constexpr const char* report = R"(# counterguard resource usage
# flag: -maxrregcount=32
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_ZN2cg3v321tILi3EEEvPf' for 'sm_90'
ptxas info    : Function properties for _ZN2cg3v321tILi3EEEvPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 8 registers, used 0 barriers
ptxas info    : Compile time = 21.930 ms
ptxas info    : Compiling entry function '_ZN2cg3v321kEPfi' for 'sm_90'
ptxas info    : Function properties for _ZN2cg3v321kEPfi
    256 bytes stack frame, 24 bytes spill stores, 20 bytes spill loads
ptxas info    : Used 32 registers, used 1 barriers, 256 bytes cumulative stack size, 256 bytes smem, 1024 bytes cmem[3]
ptxas info    : Compile time = 30.609 ms
)";

TEST(resource_report, parses_every_entry_function_in_order) {
  const auto kernels = parse_resource_report(report, "lib/t.cu");
  ASSERT_EQ(kernels.size(), 2U);
  EXPECT_EQ(kernels[0].function, "cg::v32::t<3>");
  EXPECT_EQ(kernels[1].function, "cg::v32::k");
  EXPECT_EQ(kernels[1].translation_unit, "lib/t.cu");
  EXPECT_EQ(kernels[1].architecture, "sm_90");
}

TEST(resource_report, reads_registers_spills_stack_shared_and_constant_memory) {
  const kernel_resources k = parse_resource_report(report, "t.cu").at(1);
  EXPECT_EQ(k.registers, 32);
  EXPECT_EQ(k.barriers, 1);
  EXPECT_EQ(k.stack_frame_bytes, 256U);
  EXPECT_EQ(k.spill_store_bytes, 24U);
  EXPECT_EQ(k.spill_load_bytes, 20U);
  EXPECT_EQ(k.static_shared_bytes, 256U);
  EXPECT_EQ(k.constant_bytes, 1024U);
}

TEST(resource_report, keeps_the_code_generation_flags_of_the_translation_unit) {
  const kernel_resources k = parse_resource_report(report, "t.cu").at(0);
  ASSERT_EQ(k.flags.size(), 1U);
  EXPECT_EQ(k.flags[0], "-maxrregcount=32");
}

TEST(resource_report, a_non_inlined_callees_frame_and_spills_stay_out_of_its_callers) {
  // Verbatim nvcc 13.0 output for a kernel that calls a __noinline__ function: ptxas reports the callee
  // after the caller's register line.
  const auto kernels =
      parse_resource_report(R"(ptxas info    : Compiling entry function '_Z5outerPKjPji' for 'sm_90'
ptxas info    : Function properties for _Z5outerPKjPji
    880 bytes stack frame, 980 bytes spill stores, 1188 bytes spill loads
ptxas info    : Used 32 registers, used 0 barriers, 880 bytes cumulative stack size
ptxas info    : Function properties for _Z5heavyPKjPjii
    0 bytes stack frame, 1032 bytes spill stores, 1232 bytes spill loads
)",
                            "t.cu");
  ASSERT_EQ(kernels.size(), 1U);
  EXPECT_EQ(kernels[0].stack_frame_bytes, 880U);
  EXPECT_EQ(kernels[0].spill_store_bytes, 980U);
  EXPECT_EQ(kernels[0].spill_load_bytes, 1188U);
}

TEST(resource_report, ignores_text_that_is_not_a_report) {
  EXPECT_TRUE(parse_resource_report("warning: something\nnvcc fatal\n", "t.cu").empty());
}

TEST(kernel_names, strip_signature_drops_return_type_and_parameters) {
  EXPECT_EQ(strip_signature("void ns::f<3, (bool)1>(float*, int)"), "ns::f<3, (bool)1>");
  EXPECT_EQ(strip_signature("ns::g(float const*, int (*)(int))"), "ns::g");
  EXPECT_EQ(strip_signature("plain"), "plain");
}

TEST(kernel_names, demangle_returns_unmangled_names_unchanged) {
  EXPECT_EQ(demangle("_ZN2cg3v321kEPfi"), "cg::v32::k(float*, int)");
  EXPECT_EQ(demangle("not_mangled"), "not_mangled");
}

}  // namespace
}  // namespace counterguard
