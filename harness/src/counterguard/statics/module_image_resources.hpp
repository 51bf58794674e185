// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// What a module image, as the CUDA driver loads it, holds.
enum class module_image_form { cubin, fat_binary, ptx, unknown };
[[nodiscard]] const char* to_string(module_image_form form);

struct module_image_kernels {
  module_image_form form = module_image_form::unknown;
  std::vector<kernel_resources> kernels;
  // Why `kernels` is empty although the image holds code: "PTX, compiled by the driver at load", "no cubin
  // for sm_90 in the fat binary".
  std::string note;
};

// The kernels of a module image as a program hands it to the driver and CUPTI's module-loaded callback hands
// it on: JIT compilers (Triton, CuPy, Numba, NVRTC) load cubins, the CUDA runtime loads fat binaries. From a
// fat binary, the cubin the driver runs on a device of `device_architecture` (90 for sm_90) is read: the same
// architecture, else the newest older one of the same major version. A PTX image is compiled by the driver
// into code it never shows, so it has no resources here. A malformed image is an input_error naming `label`.
[[nodiscard]] module_image_kernels read_module_image_resources(const std::uint8_t* data, std::size_t size,
                                                               int device_architecture,
                                                               const std::string& label);

// The cubin the driver runs from a module image: the image itself when it is one, else the fat binary's
// cubin for `device_architecture` (chosen as above, decompressed). None for PTX or an image without such a
// cubin. What source-line blame of a JIT-compiled kernel joins its per-instruction counters to.
[[nodiscard]] std::optional<std::vector<std::uint8_t>> module_image_cubin(const std::uint8_t* data,
                                                                          std::size_t size,
                                                                          int device_architecture,
                                                                          const std::string& label);

}  // namespace counterguard
