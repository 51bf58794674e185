// SPDX-License-Identifier: Apache-2.0
#include "counterguard/profiler/driver_gpu_uuids.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace counterguard {
namespace {

namespace fs = std::filesystem;

void write_information(const fs::path& root, const std::string& pci, const std::string& text) {
  fs::create_directories(root / pci);
  std::ofstream(root / pci / "information") << text;
}

TEST(driver_gpu_uuids, reads_every_gpu_the_driver_lists_as_the_cuda_runtime_writes_them) {
  const fs::path root = fs::temp_directory_path() / ("driver_gpu_uuids_" + std::to_string(::getpid()));
  fs::remove_all(root);
  write_information(
      root, "0000:9a:00.0",
      "Model: \t\t NVIDIA H200\nIRQ:   \t\t 1104\nGPU UUID: \t GPU-F1E2D3C4-B5A6-9788-6958-4A3B2C1D0E0F\n"
      "Video BIOS: \t 96.00.a5.00.01\n");
  write_information(root, "0000:18:00.0",
                    "Model: \t\t NVIDIA H200\nGPU UUID: \t GPU-0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9\n");
  write_information(root, "0000:2a:00.0",
                    "Model: \t\t NVIDIA H200\nGPU UUID: \t ??\n");  // unreadable: left out
  EXPECT_EQ(driver_gpu_uuids(root.string()),
            (std::vector<std::string>{"GPU-0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9",
                                      "GPU-f1e2d3c4-b5a6-9788-6958-4a3b2c1d0e0f"}));
  fs::remove_all(root);
  EXPECT_TRUE(driver_gpu_uuids(root.string()).empty());  // no driver files (a machine without a GPU)
}

}  // namespace
}  // namespace counterguard
