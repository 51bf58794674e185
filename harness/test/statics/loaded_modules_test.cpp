// SPDX-License-Identifier: Apache-2.0
// Which module's code a launch ran: two cubins holding a function of one name (`twin`, with 10 and 48
// registers), loaded as two modules, as Triton's autotuned configs and CuPy RawModules are.
#include "counterguard/statics/loaded_modules.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "counterguard/statics/module_image_resources.hpp"

namespace counterguard {
namespace {

constexpr std::uintptr_t light_handle = 0x1000;
constexpr std::uintptr_t heavy_handle = 0x2000;
constexpr std::uint32_t light_id = 24;
constexpr std::uint32_t heavy_id = 25;

std::vector<kernel_resources> kernels_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return read_module_image_resources(bytes.data(), bytes.size(), 90, path).kernels;
}

const kernel_resources& twin_of(const std::vector<kernel_resources>& kernels) {
  for (const auto& kernel : kernels) {
    if (kernel.mangled == "twin")
      return kernel;
  }
  throw std::runtime_error("no twin in the cubin");
}

// What the driver states of a function with the resources of `kernel`.
driver_function_attributes stated_as(const kernel_resources& kernel) {
  return {kernel.registers, kernel.stack_frame_bytes, kernel.static_shared_bytes, kernel.constant_bytes};
}

class loaded_modules_test : public ::testing::Test {
 protected:
  loaded_modules_test()
      : m_light(twin_of(kernels_of(TWIN_LIGHT_CUBIN))), m_heavy(twin_of(kernels_of(TWIN_HEAVY_CUBIN))) {
    m_modules.loaded(light_id, kernels_of(TWIN_LIGHT_CUBIN), "");
    m_modules.loaded(heavy_id, kernels_of(TWIN_HEAVY_CUBIN), "");
  }

  kernel_resources code(std::uintptr_t handle, const kernel_resources& as,
                        const std::vector<std::uint32_t>& during_call = {}) {
    return m_modules.function_code(handle, "twin", "twin", stated_as(as), during_call);
  }

  kernel_resources m_light;
  kernel_resources m_heavy;
  loaded_modules m_modules;
};

TEST_F(loaded_modules_test, the_two_cubins_differ_in_registers) {
  EXPECT_NE(m_light.registers, m_heavy.registers);
}

TEST_F(loaded_modules_test, each_handle_gets_the_function_of_the_module_its_load_call_returned) {
  m_modules.bind(light_handle, {light_id});
  m_modules.bind(heavy_handle, {heavy_id});
  const kernel_resources heavy = code(heavy_handle, m_heavy);
  const kernel_resources light = code(light_handle, m_light);
  EXPECT_EQ(heavy.registers, m_heavy.registers);
  EXPECT_EQ(heavy.module, "module 25");
  EXPECT_EQ(light.registers, m_light.registers);
  EXPECT_EQ(light.module, "module 24");
  EXPECT_TRUE(heavy.spill_bytes_known);
  EXPECT_TRUE(heavy.unknown_because.empty());
}

TEST_F(loaded_modules_test, a_module_loaded_lazily_inside_the_launch_is_the_launched_functions) {
  // Both modules could be it by name; the one loaded during the launch call is.
  const kernel_resources heavy = code(heavy_handle, m_heavy, {heavy_id});
  EXPECT_EQ(heavy.module, "module 25");
  // ... and stays bound to the handle for later launches.
  EXPECT_EQ(code(heavy_handle, m_heavy).module, "module 25");
}

TEST_F(loaded_modules_test, an_unbound_handle_takes_the_one_module_whose_function_agrees_with_the_driver) {
  EXPECT_EQ(code(light_handle, m_light).module, "module 24");
  EXPECT_EQ(code(heavy_handle, m_heavy).module, "module 25");
}

TEST_F(loaded_modules_test, a_bound_module_whose_function_disagrees_with_the_driver_is_not_taken) {
  m_modules.bind(light_handle, {light_id});
  const kernel_resources stated = code(light_handle, m_heavy);  // the driver states the heavy one's counts
  EXPECT_EQ(stated.registers, m_heavy.registers);
  EXPECT_FALSE(stated.spill_bytes_known);
  EXPECT_NE(stated.unknown_because.find("describes another 'twin'"), std::string::npos)
      << stated.unknown_because;
}

TEST_F(loaded_modules_test, a_function_whose_module_was_never_seen_gets_what_the_driver_states) {
  loaded_modules none;
  const driver_function_attributes driver{168, 3824, 0, 0};
  const kernel_resources stated = none.function_code(0x3000, "twin", "twin", driver, {});
  EXPECT_EQ(stated.registers, 168);
  EXPECT_EQ(stated.stack_frame_bytes, 3824U);
  EXPECT_FALSE(stated.spill_bytes_known);
  EXPECT_FALSE(stated.barriers_known);
  EXPECT_EQ(stated.module, "function of module 0x3000");
  EXPECT_NE(stated.unknown_because.find("loaded before counterguard watched the process"), std::string::npos);
  EXPECT_NE(stated.unknown_because.find("spill bytes and barriers"), std::string::npos);
}

TEST_F(loaded_modules_test,
       modules_that_agree_with_the_driver_but_differ_in_spills_give_only_the_driver_values) {
  loaded_modules modules;
  kernel_resources spilling = m_light;
  spilling.spill_store_bytes = 64;
  modules.loaded(1, {m_light}, "");
  modules.loaded(2, {spilling}, "");
  const kernel_resources stated = modules.function_code(0x4000, "twin", "twin", stated_as(m_light), {});
  EXPECT_FALSE(stated.spill_bytes_known);
  EXPECT_NE(stated.unknown_because.find("2 loaded modules"), std::string::npos) << stated.unknown_because;
}

TEST_F(loaded_modules_test, modules_with_identical_functions_give_their_shared_values) {
  loaded_modules modules;
  modules.loaded(1, {m_light}, "");
  modules.loaded(2, {m_light}, "");
  const kernel_resources code = modules.function_code(0x4000, "twin", "twin", stated_as(m_light), {});
  EXPECT_TRUE(code.spill_bytes_known);
  EXPECT_EQ(code.registers, m_light.registers);
}

TEST_F(loaded_modules_test, a_module_loaded_as_ptx_says_so) {
  loaded_modules modules;
  modules.loaded(7, {}, "PTX, compiled by the driver at load into code it does not show");
  const kernel_resources stated = modules.function_code(0x5000, "twin", "twin", stated_as(m_light), {7});
  EXPECT_NE(stated.unknown_because.find("module 7 was loaded as PTX"), std::string::npos)
      << stated.unknown_because;
}

TEST_F(loaded_modules_test, an_unloaded_modules_handle_is_free_for_the_next_module) {
  m_modules.bind(light_handle, {light_id});
  m_modules.unloading(light_id);
  m_modules.bind(light_handle, {heavy_id});  // the driver reused the handle
  EXPECT_EQ(code(light_handle, m_heavy).module, "module 25");
}

}  // namespace
}  // namespace counterguard
