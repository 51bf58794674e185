// SPDX-License-Identifier: Apache-2.0
// The profiler needs a GPU; on a machine without one (CI, this build host) what can be checked is that it
// refuses to start with the right reason. GPU behaviour is exercised by the device tests.
#include "counterguard/profiler/device_profiler.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

bool gpu_present() {
  int devices = 0;
  const bool ok = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
  static_cast<void>(cudaGetLastError());
  return ok;
}

TEST(device_profiler, without_a_gpu_construction_is_an_environment_error_saying_so) {
  if (gpu_present())
    GTEST_SKIP() << "a GPU is present; the device tests cover the profiler";
  try {
    device_profiler profiler(0);
    FAIL() << "expected environment_error";
  } catch (const environment_error& error) {
    EXPECT_EQ(error.problem(), environment_problem::no_gpu);
    EXPECT_EQ(error.code(), exit_code::environment);
    EXPECT_NE(std::string(error.what()).find("cudaGetDeviceCount"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace counterguard
