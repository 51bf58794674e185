// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>

namespace counterguard {

// Device memory for case inputs and outputs (device_buffer, declared arrays). By default cudaMalloc and
// cudaFree. A process that runs many cases (the `run` worker) keeps the blocks its cases free, up to a limit,
// and hands a later case a kept block of exactly the size it asks for instead of calling cudaMalloc again:
// on the H200 a generated case spent about 0.2 ms a case in cudaMalloc and cudaFree
// (validation/h200.md, "Per case"). A kept block holds what the case before wrote; outputs are poisoned by
// whoever owns them (declared outputs always), as fresh cudaMalloc memory is not zeroed either.
[[nodiscard]] void* allocate_device_memory(std::size_t bytes);
void free_device_memory(void* pointer, std::size_t bytes) noexcept;

// While one exists: freed blocks are kept while they total at most `limit_bytes` (the least recently freed go
// first). Kept memory is allocated memory to CUPTI too: a profiled launch costs a little more with more of it
// (0.5 ms with 32 GiB allocated on the H200), so the limit stays small. Its end frees
// every kept block: make it after whatever owns the CUDA context, so that it ends first.
class device_memory_reuse {
 public:
  explicit device_memory_reuse(std::size_t limit_bytes);
  ~device_memory_reuse();
  device_memory_reuse(const device_memory_reuse&) = delete;
  device_memory_reuse& operator=(const device_memory_reuse&) = delete;
};

}  // namespace counterguard
