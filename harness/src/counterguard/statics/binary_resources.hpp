// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// The static resources of every kernel in a compiled CUDA program, read from the file alone.
struct binary_resources {
  std::string path;
  std::vector<kernel_resources> kernels;  // one per kernel per cubin (per architecture), in file order
  std::size_t cubins = 0;                 // cubins read (some may hold no kernel)
  std::string device_code_section;        // ".nv_fatbin", "__nv_relfatbin", "fat binary file" or "cubin file"
  // Architectures present only as PTX or LTO IR ("compute_100"): the driver compiles those when the
  // program loads, so the file holds no resources for them.
  std::vector<std::string> uncompiled_architectures;
};

// Reads a host executable or shared library (its .nv_fatbin section; __nv_relfatbin when that holds no
// cubin), a .fatbin file or a single .cubin. Every user-caused problem is an input_error that names the
// file, the container and the offset: a missing file, a file that is not ELF, a host binary with no device
// code, device code only as PTX, a truncated or corrupted fat binary or cubin.
[[nodiscard]] binary_resources read_binary_resources(const std::string& path);

// The kernels (demangled, without parameter list) that a host binary, .fatbin or PTX holds only as PTX: no
// cubin of the file defines them, so the file holds no resources for them (a build for `90-virtual`).
// Problems reading the file are input_errors, as for read_binary_resources.
struct ptx_only_kernel {
  std::string function;  // demangled, without parameter list
  int architecture = 0;  // of its PTX: 90 for compute_90
};
[[nodiscard]] std::vector<ptx_only_kernel> read_ptx_only_kernels(const std::string& path);

// The kernels alone (the same rows the compile-time ptxas report gives, one per kernel per architecture).
[[nodiscard]] std::vector<kernel_resources> read_binary_kernel_resources(const std::string& path);

}  // namespace counterguard
