// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace counterguard {

// The CUDA toolkit's include directories among `files` (the source files a cubin's line tables name), so
// that blame can tell the toolkit's inlined code (atomicAdd, __shfl_down_sync, cooperative groups, CUB) from
// the user's. Found from the files themselves, wherever the toolkit was installed when the code was built:
// - the directory of a header only the toolkit ships (device_atomic_functions.hpp, sm_30_intrinsics.hpp,
//   cuda_runtime.h, cooperative_groups.h, ...; for crt/<header>, the directory above crt);
// - the `.../targets/<platform>/include` and `.../cuda[-<version>]/include` part of a path;
// - the `include` directory above `cooperative_groups/`, `cub/`, `thrust/`, `cuda/std/`, `nv/` or `cccl/`.
// Lexically normalised (`.../cuda/bin/../targets/...` -> `.../cuda/targets/...`), sorted, each once.
[[nodiscard]] std::vector<std::string> toolkit_include_dirs(const std::vector<std::string>& files);

// Whether `file` lies in `directory`. An absolute directory must be a prefix of the file's directories (both
// lexically normalised); a relative one (`third_party/cutlass`) matches where its components appear, in
// order, among the file's directories, so that one option matches a checkout in any place.
[[nodiscard]] bool source_in_directory(const std::string& file, const std::string& directory);

}  // namespace counterguard
