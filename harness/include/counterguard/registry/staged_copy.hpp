#pragma once

#include <cstddef>

namespace counterguard {

// Copies between pageable host memory (std::vector) and device memory through two pinned staging buffers
// of the process, DMA of one chunk overlapping the host copy of the other: a pageable cudaMemcpy goes
// through the driver's own small staging and was the larger part of the built-in cases' input upload and
// output download on the H200 (evidence/h200/floor). Synchronous like cudaMemcpy: the data has arrived when
// it returns. Small copies go straight through cudaMemcpy. Thread-safe (one staged copy at a time).
void copy_host_to_device(void* device, const void* host, std::size_t bytes);
void copy_device_to_host(void* host, const void* device, std::size_t bytes);

}  // namespace counterguard
